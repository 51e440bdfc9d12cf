// A variant: the immutable, thread-shareable rules of one game, loaded from a
// YAML descriptor (see docs/descriptor.md). Load once, share the pointer, start
// as many games from it as you like, on any number of threads.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/move.hpp"

namespace koma {

namespace detail {
struct VariantData;
struct Access;  // lib/access.hpp: how the library reaches what the API hides
}  // namespace detail
class Position;

// Option overrides by name, as text: {"impasse", "csa27"}, {"max_plies", "0"}.
using Options = std::map<std::string, std::string>;

enum class Facing { up, right, down, left };

struct PieceKindInfo {
  std::string letter;       // "P", "+P"
  std::string name;         // "Pawn"
  std::string kanji;        // "歩"
  std::string moves;        // Betza, relative to the piece's facing
  std::string double_move;  // its double move (`KaK`: docs/descriptor.md), or empty
  int promotes_to = -1;     // kind index, -1 if it does not promote
  int demotes_to = -1;      // kind a capture turns it into (itself if unpromoted)
  bool royal = false;
  bool promoted = false;
  int value = 0;
};

class Variant : public std::enable_shared_from_this<Variant> {
 public:
  // Loads a descriptor file; `extends:` is resolved relative to it. Throws
  // DescriptorError naming file, line and column of the first problem.
  static std::shared_ptr<const Variant> load(const std::string& path, const Options& options = {});
  // The same from text; `origin` names it in errors, `base_dir` resolves extends.
  static std::shared_ptr<const Variant> parse(const std::string& yaml, const std::string& origin,
                                              const Options& options = {},
                                              const std::string& base_dir = ".");
  // Where a driver finds a descriptor given on its command line: the path as
  // given, else in the installed share/koma/variants/ (then the source tree's).
  static std::string locate(const std::string& path);

  ~Variant();
  Variant(const Variant&) = delete;
  Variant& operator=(const Variant&) = delete;

  const std::string& name() const;
  const std::string& title() const;
  const std::string& path() const;  // the descriptor it came from ("" if parsed from text)
  // Option values in force, defaults included (first_seat and max_plies always).
  const Options& options() const;

  int seats() const;                             // seats are numbered 1..seats()
  const std::string& seat_name(int seat) const;  // "South"
  Facing seat_facing(int seat) const;
  const std::vector<int>& turn_order() const;  // seat numbers, "clockwise"
  int width() const;
  int height() const;
  int squares() const { return width() * height(); }
  bool is_square(Square sq) const;  // false for voids and out of range
  std::string square_name(Square sq) const;
  std::optional<Square> parse_square(std::string_view name) const;

  int kinds() const;
  const PieceKindInfo& kind_info(int kind) const;
  std::optional<int> kind_by_letter(std::string_view letter) const;

  // True if positions and moves are written in SFEN/USI (two-player shogi).
  bool uses_sfen() const;
  bool has_check() const;  // whether kings may be left attacked (false) or not
  bool has_resignation() const;
  bool has_declaration() const;  // whether the action `win` exists
  // Whether a captured piece goes to the captor's hand (false: it leaves the
  // game, `drops: {captured: removed}`, as in sho shogi).
  bool captures_to_hand() const;
  bool places_by_score() const;  // places compare Position::score (mates, pieces)

  // The start position with the first_seat option's seat to move, or with
  // `first_seat` (a seat number) to move: a match rotates it game by game.
  Position start_position() const;
  Position start_position(int first_seat) const;

 private:
  friend struct detail::Access;  // the library's own modules read the compiled rules
  explicit Variant(std::unique_ptr<const detail::VariantData> data);
  const detail::VariantData& data() const { return *data_; }
  std::unique_ptr<const detail::VariantData> data_;
};

}  // namespace koma
