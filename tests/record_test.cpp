// Game records through the library API (include/koma/record.hpp): reading a
// game of a record, writing it back, the JSON strings, the limits and errors,
// playing a record's moves and replaying a whole record. The texts are those of
// docs/notation.md#game-records.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "koma/record.hpp"
#include "support.hpp"

namespace {

// The exception `f` throws, nullopt if it throws none.
template <class E = koma::RecordError, class F>
std::optional<E> error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e;
  }
  return std::nullopt;
}

const std::string kTwoGames =
    "{\"variant\": \"shogi\", \"descriptor\": \"variants/shogi.yaml\", \"options\": {}, "
    "\"first_seat\": null, \"start\": null, \"seats\": [\"human\", \"human\"], \"moves\": "
    "[\"7g7f\"], \"result\": null}\n"
    "\n"
    "{\"variant\": \"yonin\", \"descriptor\": \"variants/yonin.yaml\", \"options\": "
    "{\"pawn_drop_mate\": \"allowed\"}, \"first_seat\": 3, \"start\": null, \"seats\": [\"easy\", "
    "\"normal\", \"strong\", \"expert\"], \"moves\": [\"5c5d\", \"3e4e\"], \"result\": "
    "{\"places\": [2, 1, 2, 4], \"reason\": \"adjudicated\"}}\n";

}  // namespace

TEST_CASE("record: game 2 of a two-game record, past a blank line") {
  koma::GameRecord r = koma::read_record_text(kTwoGames, "games.jsonl", 2);
  CHECK(r.variant == "yonin");
  CHECK(r.descriptor == "variants/yonin.yaml");
  CHECK(r.options == koma::Options{{"pawn_drop_mate", "allowed"}});
  REQUIRE(r.first_seat);
  CHECK(*r.first_seat == 3);
  CHECK_FALSE(r.start);
  CHECK(r.seats == std::vector<std::string>{"easy", "normal", "strong", "expert"});
  CHECK(r.moves == std::vector<std::string>{"5c5d", "3e4e"});
  REQUIRE(r.result);
  CHECK(r.result->places == std::vector<int>{2, 1, 2, 4});
  CHECK(r.result->reason == koma::Reason::adjudicated);
  CHECK(r.where == "games.jsonl:3");  // the blank line 2 is skipped, not counted as a game
  // The options to load the variant with: the overrides and the first seat.
  CHECK(koma::record_options(r) ==
        koma::Options{{"pawn_drop_mate", "allowed"}, {"first_seat", "3"}});

  koma::GameRecord first = koma::read_record_text(kTwoGames, "games.jsonl", 1);
  CHECK(first.variant == "shogi");
  CHECK_FALSE(first.first_seat);
  CHECK_FALSE(first.result);
  CHECK(first.moves == std::vector<std::string>{"7g7f"});
  CHECK(first.where == "games.jsonl:1");
  CHECK(koma::record_options(first).empty());
}

TEST_CASE("record: record_line reads back as the same record") {
  koma::GameRecord r;
  r.variant = "shogi";
  r.descriptor = "dir with \"quotes\"\\shogi.yaml";
  r.options = {{"impasse", "none"}, {"max_plies", "300"}};
  r.first_seat = 2;
  r.start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
  r.seats = {"human", "strong"};
  r.moves = {"3c3d", "7g7f", "resign"};
  r.result = koma::Result{{1, 2}, koma::Reason::resignation};
  const std::string line = koma::record_line(r);
  CHECK(line.find('\n') == std::string::npos);
  // The keys in the order of the table in docs/notation.md.
  CHECK(line.rfind("{\"variant\": \"shogi\", \"descriptor\": ", 0) == 0);
  CHECK(line.find(", \"options\": {\"impasse\": \"none\", \"max_plies\": \"300\"}, "
                  "\"first_seat\": 2, \"start\": ") != std::string::npos);
  CHECK(
      line.ends_with(", \"seats\": [\"human\", \"strong\"], \"moves\": [\"3c3d\", \"7g7f\", "
                     "\"resign\"], \"result\": {\"places\": [1, 2], \"reason\": "
                     "\"resignation\"}}"));

  koma::GameRecord again = koma::read_record_text(line, "line", 1);
  CHECK(r == again);
  CHECK(again.where == "line:1");
  CHECK(koma::record_line(again) == line);

  // Absent first_seat, start and result are written null and read back absent.
  koma::GameRecord bare;
  const std::string bare_line = koma::record_line(bare);
  CHECK(bare_line ==
        "{\"variant\": \"\", \"descriptor\": \"\", \"options\": {}, \"first_seat\": null, "
        "\"start\": null, \"seats\": [], \"moves\": [], \"result\": null}");
  CHECK(bare == koma::read_record_text(bare_line, "bare", 1));
}

TEST_CASE("record: json_string escapes quotes, backslashes and control bytes") {
  CHECK(koma::json_string("") == "\"\"");
  CHECK(koma::json_string("say \"hi\"") == "\"say \\\"hi\\\"\"");
  CHECK(koma::json_string("a\\b") == "\"a\\\\b\"");
  CHECK(koma::json_string("one\ntwo") == "\"one\\ntwo\"");
  CHECK(koma::json_string("\b\f\r\t") == "\"\\b\\f\\r\\t\"");
  CHECK(koma::json_string(std::string("\x01\x1b\x7f", 3)) == "\"\\u0001\\u001b\\u007f\"");
  CHECK(koma::json_string(std::string("\0", 1)) == "\"\\u0000\"");
  CHECK(koma::json_string("歩 7g7f") == "\"歩 7g7f\"");  // UTF-8 as it is
  // What it writes reads back as the text.
  koma::GameRecord r;
  r.variant = std::string("q\"b\\n\nc\x01\x7f", 9);
  CHECK(koma::read_record_text(koma::record_line(r), "x", 1).variant == r.variant);
}

TEST_CASE("record: malformed lines, missing games and long lines throw RecordError") {
  // Not an object.
  auto e = error_of([] { koma::read_record_text("[1, 2]\n", "bad.jsonl", 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "game 1 of the record: a game is one JSON object");
  CHECK(e->where() == "bad.jsonl:1");
  // A key of the wrong shape, on line 3 (game 2).
  e = error_of([] { koma::read_record_text("{}\n\n{\"moves\": \"7g7f\"}\n", "bad.jsonl", 2); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "game 2 of the record: 'moves' must be a list");
  CHECK(e->where() == "bad.jsonl:3");
  e = error_of([] { koma::read_record_text("{\"first_seat\": \"two\"}", "bad.jsonl", 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()) ==
        "game 1 of the record: 'first_seat' must be a whole number, not 'two'");
  // Not JSON: located at the column too.
  e = error_of([] { koma::read_record_text("{\"moves\": [}", "bad.jsonl", 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()).rfind("game 1 of the record: ", 0) == 0);
  CHECK(e->where().rfind("bad.jsonl:1:", 0) == 0);
  // Nested deeper than kMaxRecordNesting.
  const std::string deep = "{\"moves\": " + std::string(koma::kMaxRecordNesting, '[') + "]}";
  e = error_of([&] { koma::read_record_text(deep, "deep.jsonl", 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()) ==
        "game 1 of the record: lists and objects nest deeper than 16 levels, the limit for a "
        "game");
  CHECK(e->where() == "deep.jsonl:1");

  // A game number out of range names the record, not a line.
  e = error_of([] { koma::read_record_text(kTwoGames, "games.jsonl", 3); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "there is no game 3; the record holds 2 games");
  CHECK(e->where() == "games.jsonl");
  e = error_of([] { koma::read_record_text("{}\n", "one.jsonl", 2); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "there is no game 2; the record holds 1 game");
  e = error_of([] { koma::read_record_text("", "empty.jsonl", 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "there is no game 1; the record holds 0 games");

  // A line of kMaxRecordLineBytes is read; one byte more is refused, at its line.
  CHECK(koma::kMaxRecordLineBytes == 262144);
  const std::string full(koma::kMaxRecordLineBytes, ' ');  // a blank line at the limit
  CHECK(koma::read_record_text(full + "\n{}\n", "long.jsonl", 1).where == "long.jsonl:2");
  const std::string over = "{}\n" + full + " \n{}\n";
  e = error_of([&] { koma::read_record_text(over, "long.jsonl", 2); });
  REQUIRE(e);
  CHECK(std::string(e->what()) ==
        "a line of the record is longer than 262144 bytes, the limit for one game");
  CHECK(e->where() == "long.jsonl:2");

  // Every record error is a koma::Error.
  CHECK_THROWS_AS(koma::read_record_text("[]", "x", 1), koma::Error);
}

TEST_CASE("record: a key given twice in one object is refused, as in descriptors") {
  // Issue 40: the first "moves" was read and the second dropped without a word.
  auto e = error_of([] {
    koma::read_record_text("{\"moves\": [\"7g7f\"], \"moves\": [\"2g2f\"]}", "dup.jsonl", 1);
  });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "game 1 of the record: the game has the key 'moves' twice");
  CHECK(e->where() == "dup.jsonl:1");
  e = error_of([] {
    koma::read_record_text("{\"options\": {\"impasse\": \"none\", \"impasse\": \"try\"}}",
                           "dup.jsonl", 1);
  });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "game 1 of the record: 'options' has the key 'impasse' twice");
  e = error_of([] {
    koma::read_record_text(
        "{\"result\": {\"places\": [1, 2], \"reason\": \"checkmate\", \"places\": [2, 1]}}",
        "dup.jsonl", 1);
  });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "game 1 of the record: 'result' has the key 'places' twice");
}

TEST_CASE("record: read_record refuses what is not a regular file") {
  const std::string folder = KOMA_TEST_DATA;
  auto e = error_of([&] { koma::read_record(folder, 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()) == "the record file is a directory, not a regular file");
  CHECK(e->where() == folder);
  const std::string missing = folder + "/no-such-record.jsonl";
  e = error_of([&] { koma::read_record(missing, 1); });
  REQUIRE(e);
  CHECK(std::string(e->what()).rfind("cannot read the record file: ", 0) == 0);
  CHECK(e->where() == missing);
  CHECK(koma::kMaxRecordFileBytes == 64u * 1024 * 1024);
}

TEST_CASE("record: play_moves plays a record's moves, and names the first it cannot play") {
  auto shogi = test::variant("shogi.yaml");
  koma::Game game(shogi);
  std::optional<koma::Move> last = koma::play_moves(game, {"7g7f", "3c3d"}, "--moves");
  CHECK(game.history() == std::vector<std::string>{"7g7f", "3c3d"});
  CHECK(game.position().text() ==
        "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
  REQUIRE(last);
  CHECK(*last == koma::Move::board(*shogi->parse_square("3c"), *shogi->parse_square("3d")));

  // Move 2 moves a piece that is not there: 7g is empty after 7g7f. The reason
  // is the IllegalMove's; the moves before it stay played.
  koma::Game probe(shogi);
  probe.play("7g7f");
  std::string why;
  try {
    probe.play("7g7f");
  } catch (const koma::IllegalMove& e) {
    why = e.what();
  }
  REQUIRE_FALSE(why.empty());
  koma::Game bad(shogi);
  auto e = error_of<koma::RecordMoveError>([&] {
    koma::play_moves(bad, {"7g7f", "7g7f", "3c3d"}, "games.jsonl:4");
  });
  REQUIRE(e);
  CHECK(e->index() == 2);
  CHECK(e->move() == "7g7f");
  CHECK(e->reason() == why);
  CHECK(std::string(e->what()) == "move 2 '7g7f' is illegal: " + why);
  CHECK(e->where() == "games.jsonl:4");
  CHECK(bad.history() == std::vector<std::string>{"7g7f"});

  // Unreadable text is refused the same way, with the NotationError's reason.
  koma::Game unreadable(shogi);
  auto n = error_of<koma::RecordMoveError>([&] { koma::play_moves(unreadable, {"zz"}, "x"); });
  REQUIRE(n);
  CHECK(n->index() == 1);
  CHECK(std::string(n->what()).rfind("move 1 'zz' is illegal: ", 0) == 0);
  CHECK(unreadable.history().empty());
  // The move is echoed escaped: a NUL or a line break cannot cut or split
  // the message.
  koma::Game control(shogi);
  auto c = error_of<koma::RecordMoveError>(
      [&] { koma::play_moves(control, {std::string("a\0b\n", 4)}, "x"); });
  REQUIRE(c);
  CHECK(std::string(c->what()).rfind("move 1 'a\\x00b\\x0a' is illegal: ", 0) == 0);
  CHECK(c->move() == std::string("a\0b\n", 4));

  // An action is played but is not the last move.
  koma::Game resigned(shogi);
  last = koma::play_moves(resigned, {"7g7f", "resign"}, "x");
  CHECK(resigned.over());
  REQUIRE(last);
  CHECK(*last == koma::Move::board(*shogi->parse_square("7g"), *shogi->parse_square("7f")));
  koma::Game untouched(shogi);
  CHECK_FALSE(koma::play_moves(untouched, {}, "x"));
}

TEST_CASE("record: replay_record repeats an adjudicated result and lets the moves decide others") {
  auto shogi = test::variant("shogi.yaml");
  koma::GameRecord r;
  r.variant = "shogi";
  r.moves = {"7g7f", "3c3d"};
  r.where = "games.jsonl:7";

  // No result: the moves alone, from the variant's start.
  koma::Game plain = koma::replay_record(shogi, r);
  CHECK(plain.history() == r.moves);
  CHECK_FALSE(plain.over());

  // A checkmate the moves do not reach is not copied.
  r.result = koma::Result{{1, 2}, koma::Reason::checkmate};
  CHECK_FALSE(koma::replay_record(shogi, r).over());

  // An adjudication (a match's ply cap) is repeated with the record's places.
  r.result = koma::Result{{1, 1}, koma::Reason::adjudicated};
  koma::Game cut = koma::replay_record(shogi, r);
  REQUIRE(cut.result());
  CHECK(*cut.result() == koma::Result{{1, 1}, koma::Reason::adjudicated});

  // ... but not over moves that end the game already, nor with wrong places.
  koma::GameRecord resigned = r;
  resigned.moves = {"7g7f", "resign"};
  auto e = error_of([&] { koma::replay_record(shogi, resigned); });
  REQUIRE(e);
  CHECK(std::string(e->what()) ==
        "the record's result is adjudicated, but its moves end the game already (resignation)");
  CHECK(e->where() == "games.jsonl:7");
  koma::GameRecord three = r;
  three.result->places = {1, 2, 3};
  e = error_of([&] { koma::replay_record(shogi, three); });
  REQUIRE(e);
  CHECK(std::string(e->what()).rfind("the record's adjudicated result: ", 0) == 0);

  // The record's start position, and one that cannot be read.
  koma::GameRecord started = r;
  started.result.reset();
  started.start = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
  started.moves = {"G*5b"};
  koma::Game mate = koma::replay_record(shogi, started);
  REQUIRE(mate.result());
  CHECK(mate.result()->reason == koma::Reason::checkmate);
  CHECK(mate.result()->places == std::vector<int>{1, 2});
  started.start = "not a position";
  e = error_of([&] { koma::replay_record(shogi, started); });
  REQUIRE(e);
  CHECK(std::string(e->what()).rfind("the record's start position: ", 0) == 0);
  CHECK(e->where() == "games.jsonl:7");
}
