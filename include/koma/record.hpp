// Game records: the JSON Lines files of docs/notation.md#game-records, one
// game a line, that koma-match, koma-play and koma-replay write and read.
// Reading them needs yaml-cpp only (JSON is YAML's flow form); nothing here
// uses Boost.
//
//   koma::GameRecord r = koma::read_record("games.jsonl", 2);  // game 2
//   auto variant = koma::Variant::load(koma::Variant::locate(r.descriptor),
//                                      koma::record_options(r));
//   koma::Game game(variant);
//   koma::play_moves(game, r.moves, r.where);
//   std::string line = koma::record_line(r);  // writes it back, one line
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "koma/error.hpp"
#include "koma/game.hpp"
#include "koma/move.hpp"
#include "koma/result.hpp"
#include "koma/variant.hpp"

namespace koma {

// A game record that cannot be read: a file that is not a regular file, is
// unreadable or too large, a line over the limit, a game number out of range,
// a malformed line. what() is the sentence alone, e.g. "there is no game 3;
// the record holds 2 games"; where() says where: the file (or the `origin`
// given to read_record_text) for the whole record, "FILE:LINE" for one line,
// "FILE:LINE:COLUMN" for a line that is not JSON. The drivers print
// "koma-<name>: <what> (<where>)".
class RecordError : public Error {
 public:
  RecordError(const std::string& message, std::string where);
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

// A move or action of a list (a record's moves, a driver's --moves) that
// cannot be played, thrown by play_moves. what() reads
// "move <index from 1> '<text>' is illegal: <why>"; where() is the `where`
// given to play_moves.
class RecordMoveError : public RecordError {
 public:
  RecordMoveError(std::size_t index, std::string move, std::string reason, std::string where);
  std::size_t index() const { return index_; }           // from 1
  const std::string& move() const { return move_; }      // the text as given
  const std::string& reason() const { return reason_; }  // the NotationError or IllegalMove text

 private:
  std::size_t index_;
  std::string move_, reason_;
};

// One game of a record file: one line, the keys of docs/notation.md#game-records.
struct GameRecord {
  std::string variant;               // the variant's name; "" when absent
  std::string descriptor;            // the descriptor path; "" when absent
  Options options;                   // option overrides the game was played with
  std::optional<int> first_seat;     // absent or null: the descriptor's default
  std::optional<std::string> start;  // null: the variant's start position
  std::vector<std::string> seats;    // one entry a seat: "human" or a CPU level
  std::vector<std::string> moves;    // moves and actions ("resign", "win") in order
  // null for an unfinished game. A reason word koma does not know reads as
  // Reason::none; places are empty when the record gives none.
  std::optional<Result> result;
  // Where the game was read, "FILE:LINE" (read_record_text: "ORIGIN:LINE"), for
  // messages about it; "" for a record made in memory. Not written by record_line.
  std::string where;

  // The same game: every key a record line holds (`where` is not compared).
  bool operator==(const GameRecord& other) const;
};

// The whole record file: a regular file of at most this many bytes (64 MiB).
inline constexpr std::uintmax_t kMaxRecordFileBytes = 64u << 20;
// One line, a game's or a blank one: at most this many bytes (256 KiB; a real
// game is a few KiB, and yaml-cpp would take seconds over megabytes). A longer
// line is refused as soon as that much of it is read.
inline constexpr std::size_t kMaxRecordLineBytes = 256u << 10;
// Lists and objects nested deeper than this in one line are refused before
// yaml-cpp reads it (a game needs 3 levels: the game, its result, the places).
// Brackets inside strings are counted too.
inline constexpr int kMaxRecordNesting = 16;

// Game `game` (counted from 1; blank lines are skipped) of the record file at
// `path`. The file is checked before it is opened (a FIFO would block,
// /dev/zero never end), then read a line at a time, only up to the game's line.
// Throws RecordError, each message word for word:
//   "cannot read the record file: <reason>" (at the path);
//   "the record file is a directory, not a regular file", "the record file is
//   not a regular file" (at the path);
//   "the record file is larger than 67108864 bytes (64 MiB), the limit for a
//   record" (kMaxRecordFileBytes; at the path);
//   "a line of the record is longer than 262144 bytes, the limit for one game"
//   (kMaxRecordLineBytes; at "PATH:LINE");
//   "there is no game N; the record holds M games" ("1 game"; at the path);
//   "game N of the record: <what>" for a malformed line (at "PATH:LINE"; a
//   line that is not JSON at "PATH:LINE:COLUMN"), <what> being yaml-cpp's
//   message or one of: "lists and objects nest deeper than 16 levels, the
//   limit for a game" (kMaxRecordNesting), "a game is one JSON object",
//   "'options' must be an object of key: value", "'result' must be null or an
//   object", "'places' must be a list", "'seats' must be a list", "'moves' must
//   be a list", "<key> must be a single value", "<key> must be a whole number,
//   not '<text>'" (first_seat, each place).
// The keys are read, not checked against a variant: a reason word koma does
// not know reads as Reason::none, and unknown keys are ignored.
GameRecord read_record(const std::string& path, int game);

// The same from the text of a record file, with the same limits and errors;
// `origin` stands for the path in errors and in GameRecord::where ("ORIGIN:LINE").
GameRecord read_record_text(std::string_view text, const std::string& origin, int game);

// The options a record's game was played with, as Variant::load's `options`:
// its option overrides and, when it has one, its first seat as "first_seat".
Options record_options(const GameRecord& record);

// One line of a record file for `record`, without the newline: the keys of
// docs/notation.md#game-records in the order of its table (variant,
// descriptor, options, first_seat, start, seats, moves, result), strings
// written with json_string; an absent first_seat, start or result is written
// null. `where` is not written. read_record_text reads the line back as an
// equal record (a result's Reason::none reads back as itself).
std::string record_line(const GameRecord& record);

// `text` as a JSON string literal, quotes included: '"' as \" and '\' as \\;
// backspace, form feed, newline, carriage return and tab as \b \f \n \r \t;
// the other control bytes (below 0x20) and DEL (0x7f) as \u00XX (lower-case
// hex, e.g. \u001b); every other byte (UTF-8) as it is.
std::string json_string(std::string_view text);

// Plays `moves` (move and action texts, as Game::play(std::string_view) takes
// them) in order on `game`. At the first that cannot be played it throws
// RecordMoveError (index from 1, the text, the NotationError or IllegalMove
// text, located at `where`), the moves before it played and that one not.
// Returns the last of them that is a move, not an action (resign, win):
// nullopt if none is.
std::optional<Move> play_moves(Game& game, const std::vector<std::string>& moves,
                               const std::string& where);

// The game of `record` for `variant` (loaded with record_options(record)), as
// koma-replay, koma-play --load and the bindings read it: from the record's
// start, else the variant's start position; its moves played by play_moves
// (RecordMoveError at the first that fails); an adjudicated result, which the
// moves do not hold, repeated. Other results are not copied: the moves decide
// them. Throws RecordError, at record.where, word for word: "the record's
// start position: <NotationError>", "the record's result is adjudicated, but
// its moves end the game already (<reason>)", "the record's adjudicated
// result: <IllegalMove>" (places the game refuses).
Game replay_record(const std::shared_ptr<const Variant>& variant, const GameRecord& record);

}  // namespace koma
