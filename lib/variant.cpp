#include "koma/variant.hpp"

#include <filesystem>

#include "access.hpp"
#include "descriptor.hpp"
#include "koma/error.hpp"
#include "koma/position.hpp"
#include "movegen.hpp"
#include "notation.hpp"
#include "state_ops.hpp"
#include "variant_data.hpp"

namespace koma {

Variant::Variant(std::unique_ptr<const detail::VariantData> data) : data_(std::move(data)) {}
Variant::~Variant() = default;

std::shared_ptr<const Variant> Variant::load(const std::string& path, const Options& options) {
  return detail::Access::variant(
      std::make_unique<const detail::VariantData>(detail::compile_descriptor_file(path, options)));
}

std::shared_ptr<const Variant> Variant::parse(const std::string& yaml, const std::string& origin,
                                              const Options& options, const std::string& base_dir) {
  return detail::Access::variant(std::make_unique<const detail::VariantData>(
      detail::compile_descriptor_text(yaml, origin, base_dir, options)));
}

std::string Variant::locate(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(path, ec)) return path;
  for (const char* dir : {KOMA_INSTALLED_VARIANTS, KOMA_SOURCE_VARIANTS}) {
    for (const std::string& name : {path, fs::path(path).filename().string(), path + ".yaml"}) {
      fs::path p = fs::path(dir) / name;
      if (fs::exists(p, ec)) return p.string();
    }
  }
  return path;
}

const std::string& Variant::name() const {
  return data_->name;
}
const std::string& Variant::title() const {
  return data_->title;
}
const std::string& Variant::path() const {
  return data_->path;
}
const Options& Variant::options() const {
  return data_->options;
}
int Variant::seats() const {
  return data_->nseats;
}
const std::string& Variant::seat_name(int seat) const {
  return data_->seat_names.at(static_cast<std::size_t>(seat - 1));
}
Facing Variant::seat_facing(int seat) const {
  return static_cast<Facing>(data_->seat_facing.at(static_cast<std::size_t>(seat - 1)));
}
const std::vector<int>& Variant::turn_order() const {
  return data_->turn_order_numbers;
}
int Variant::width() const {
  return data_->width;
}
int Variant::height() const {
  return data_->height;
}
bool Variant::is_square(Square sq) const {
  return data_->is_square(sq);
}
std::string Variant::square_name(Square sq) const {
  if (!is_square(sq)) return "?";
  return detail::square_name(*data_, sq);
}
std::optional<Square> Variant::parse_square(std::string_view name) const {
  return detail::parse_square_name(*data_, name);
}
int Variant::kinds() const {
  return static_cast<int>(data_->kinds.size());
}
const PieceKindInfo& Variant::kind_info(int kind) const {
  return data_->kinds.at(static_cast<std::size_t>(kind));
}
std::optional<int> Variant::kind_by_letter(std::string_view letter) const {
  for (std::size_t k = 0; k < data_->kinds.size(); ++k)
    if (data_->kinds[k].letter == letter) return static_cast<int>(k);
  return std::nullopt;
}
bool Variant::uses_sfen() const {
  return data_->sfen;
}
bool Variant::has_check() const {
  return data_->rules.check.enabled;
}
bool Variant::has_resignation() const {
  return data_->rules.resignation;
}
bool Variant::captures_to_hand() const {
  return data_->rules.drops.captured == detail::Captured::to_hand;
}

bool Variant::has_declaration() const {
  return data_->declares_impasse();
}

bool Variant::places_by_score() const {
  return data_->rules.places == detail::Places::score;
}

Position Variant::start_position() const {
  return start_position(data_->first_seat + 1);
}

Position Variant::start_position(int first_seat) const {
  if (first_seat < 1 || first_seat > data_->nseats)
    throw Error("first seat " + std::to_string(first_seat) + " is not a seat number from 1 to " +
                std::to_string(data_->nseats));
  detail::State s = data_->start;
  detail::set_to_move(*data_, s, first_seat - 1);
  detail::assume_turn_order(*data_, s);
  return detail::Access::position(shared_from_this(), s);
}

}  // namespace koma
