// Chu shogi (variants/chushogi.yaml, docs/variants/chushogi.md): its rules
// as atoms, on hand-built positions whose results
// follow from the rules as shogiops 0.18.0 (moves, promotion, endings) and
// scalashogi (repetition) apply them.
#include <doctest/doctest.h>

#include <map>

#include "support.hpp"

namespace {

using Pieces = std::map<std::string, std::string>;

// A chu SFEN from pieces by square ("6h": "N" Sente's lion, "n" Gote's),
// the side to move and the counter-strike square. Both kings stand far
// apart, on 12l and 1a, unless the pieces say otherwise.
std::string sfen(Pieces pieces, char side = 'b', const std::string& strike = "-") {
  if (!std::any_of(pieces.begin(), pieces.end(), [](const auto& p) { return p.second == "K"; }))
    pieces.emplace("12l", "K");
  if (!std::any_of(pieces.begin(), pieces.end(), [](const auto& p) { return p.second == "k"; }))
    pieces.emplace("1a", "k");
  std::string out;
  for (int y = 0; y < 12; ++y) {
    if (y) out += '/';
    int empty = 0;
    for (int x = 0; x < 12; ++x) {
      const std::string name = std::to_string(12 - x) + static_cast<char>('a' + y);
      auto it = pieces.find(name);
      if (it == pieces.end()) {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty);
      empty = 0;
      out += it->second;
    }
    if (empty) out += std::to_string(empty);
  }
  return out + ' ' + side + ' ' + strike + " 1";
}

std::shared_ptr<const koma::Variant> chu(const koma::Options& options = {}) {
  return test::variant("chushogi.yaml", options);
}

koma::Game at(const std::string& text, const koma::Options& options = {}) {
  auto v = chu(options);
  return koma::Game(koma::Position::from_text(v, text));
}

std::string why(const koma::Game& g, const std::string& move) {
  return g.why_illegal(g.position().parse_move(move));
}

}  // namespace

TEST_CASE("chushogi: lishogi's SFEN, squares 12a..1l and the phoenix written x") {
  auto v = chu();
  koma::Game g(v);
  // lishogi's start position (shogiops initialSfen('chushogi')), read and written.
  const std::string start =
      "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/"
      "MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
  CHECK(g.position().text() == start);
  CHECK(koma::Position::from_text(v, start) == g.position());
  // The phoenix is a piece here, not an overturned king.
  const auto phoenix = g.position().at(*v->parse_square("6k"));
  REQUIRE(phoenix.has_value());
  CHECK(v->kind_info(phoenix->kind).name == "Phoenix");
  // The lion on 7j jumps over its pawn; its double moves start with a step.
  CHECK(test::has_move(g, "7j7h"));
  CHECK_FALSE(test::has_move(g, "7j7i7h"));  // 7i holds its own pawn
}

TEST_CASE(
    "lion_trading.lions, lion_trading.protected, lion_trading.bridge_ignores: a protected lion two "
    "steps away") {
  // Sente's lion on 6h, Gote's on 6f, two steps away.
  const std::string alone = sfen({{"6h", "N"}, {"6f", "n"}});
  CHECK(test::has_move(at(alone), "6h6f"));
  // A Gote pawn on 6e protects it: no jump onto it, nor a path without a
  // capture on the way.
  const koma::Game guarded = at(sfen({{"6h", "N"}, {"6f", "n"}, {"6e", "p"}}));
  CHECK_FALSE(test::has_move(guarded, "6h6f"));
  CHECK_FALSE(test::has_move(guarded, "6h5g6f"));
  CHECK(why(guarded, "6h6f") ==
        "a lion may not take a protected lion that is not next to it (unless its first step "
        "took a piece that opens the bridge)");
  CHECK(why(guarded, "6h5g6f") ==
        "the second step: a lion may not take a protected lion that is not next to it (unless "
        "its first step took a piece that opens the bridge)");
  // The bridge: a silver taken on the first step opens it, a pawn does not.
  CHECK(test::has_move(at(sfen({{"6h", "N"}, {"6g", "s"}, {"6f", "n"}, {"6e", "p"}})), "6h6g6f"));
  CHECK_FALSE(
      test::has_move(at(sfen({{"6h", "N"}, {"6g", "p"}, {"6f", "n"}, {"6e", "p"}})), "6h6g6f"));
  // A go-between taken on the first step still protects (shogiops reads
  // protectors from the board before the move).
  const std::string go_between = sfen({{"6h", "N"}, {"6g", "i"}, {"6f", "n"}});
  CHECK_FALSE(test::has_move(at(go_between), "6h6g6f"));
  CHECK(test::has_move(at(go_between), "6h6g6h"));  // igui of the go-between
  CHECK(test::has_move(at(go_between, {{"lion_protection", "allowed"}}), "6h6g6f"));
  // The lion's start square is empty for lines: a Gote rook behind it protects.
  const std::string behind = sfen({{"6h", "N"}, {"6f", "n"}, {"6l", "r"}, {"12l", "K"}});
  CHECK_FALSE(test::has_move(at(behind), "6h6f"));
  // Next to it, a lion may always take a lion.
  CHECK(test::has_move(at(sfen({{"6g", "N"}, {"6f", "n"}, {"6e", "p"}})), "6g6f"));
}

TEST_CASE(
    "lion_trading.counter_strike: after a lion taken by a non-lion, no non-lion takes one "
    "elsewhere") {
  // Gote's lion on 3c, unprotected; Sente's rook on 3h.
  const Pieces pieces{{"3h", "R"}, {"3c", "n"}, {"8f", "g"}};
  CHECK(test::has_move(at(sfen(pieces)), "3h3c"));
  // Gote's gold has just taken Sente's lion on 8f: the rook may not take a lion elsewhere.
  const koma::Game struck = at(sfen(pieces, 'b', "8f"));
  CHECK_FALSE(test::has_move(struck, "3h3c"));
  CHECK(why(struck, "3h3c") ==
        "after a lion was taken by a piece that is no lion, a piece that is no lion may take a "
        "lion only where that happened (counter-strike)");
  // A lion may take a lion anywhere the other rules allow.
  CHECK(test::has_move(at(sfen({{"3e", "N"}, {"3c", "n"}, {"8f", "g"}}, 'b', "8f")), "3e3d3c"));
  // Without the rule, the SFEN field is read and kept as none.
  const koma::Game off = at(sfen(pieces, 'b', "8f"), {{"counter_strike", "false"}});
  CHECK(test::has_move(off, "3h3c"));
  CHECK(off.position().text() == sfen(pieces));
  // The square is part of the position: its text, equality and key.
  CHECK(struck.position().text() == sfen(pieces, 'b', "8f"));
  CHECK_FALSE(struck.position() == at(sfen(pieces)).position());
  CHECK(struck.position().hash() != at(sfen(pieces)).position().hash());
  // The rook takes the lion: the reply's position carries 3c.
  koma::Game g = at(sfen(pieces));
  g.play("3h3c");
  CHECK(g.position().text().find(" w 3c ") != std::string::npos);
  // A falcon's igui takes a lion on its middle square: that square.
  koma::Game falcon = at(sfen({{"6h", "+H"}, {"6g", "n"}}));
  falcon.play("6h6g6h");
  CHECK(falcon.position().text().find(" w 6g ") != std::string::npos);
  // A lion taking a lion leaves none.
  koma::Game lion = at(sfen({{"6h", "N"}, {"6g", "n"}}));
  lion.play("6h6g");
  CHECK(lion.position().text().find(" w - ") != std::string::npos);
}

TEST_CASE("promotion.on: enter_or_capture, chu shogi's promotion") {
  // Sente's zone is ranks a-d. A silver entering it may promote; one moving
  // inside it without a capture may not; a capture inside it may.
  const koma::Game g = at(sfen({{"6e", "S"}, {"3d", "S"}, {"8d", "S"}, {"8c", "p"}, {"9b", "P"}}));
  CHECK(test::has_move(g, "6e6d+"));
  CHECK(test::has_move(g, "6e6d"));
  CHECK_FALSE(test::has_move(g, "3d3c+"));
  CHECK(test::has_move(g, "3d3c"));
  CHECK(test::has_move(g, "8d8c+"));
  // A pawn reaching its last rank may promote, or stay a pawn that never moves.
  CHECK(test::has_move(g, "9b9a+"));
  CHECK(test::has_move(g, "9b9a"));
  // A capture by a piece leaving the zone may promote.
  CHECK(test::has_move(at(sfen({{"6d", "G"}, {"6e", "p"}})), "6d6e+"));
  CHECK_FALSE(test::has_move(at(sfen({{"6d", "G"}})), "6d6e+"));
}

TEST_CASE(
    "end.bare_king.rule, end.bare_king.uncounted, end.lone_royals: bare king and lone royals") {
  // Sente's rook takes Gote's last piece but its king; Sente keeps a gold:
  // Gote, to move, is bared.
  koma::Game g = at(sfen({{"6h", "R"}, {"8h", "G"}, {"6e", "p"}}));
  g.play("6h6e");
  REQUIRE(g.over());
  CHECK(g.result()->reason == koma::Reason::bare_king);
  CHECK(g.result()->places == std::vector<int>{1, 2});
  // A dead pawn (Gote's, on its last rank) does not save it.
  koma::Game dead = at(sfen({{"6h", "R"}, {"8h", "G"}, {"6e", "p"}, {"5l", "p"}}));
  dead.play("6h6e");
  CHECK(dead.result()->reason == koma::Reason::bare_king);
  // Sente's pawns and go-betweens do not count: a rook alone besides them
  // is one piece, and a king next to it is not bared.
  koma::Game one = at(sfen({{"2f", "R"}, {"2b", "p"}, {"6i", "P"}, {"7i", "I"}}));
  one.play("2f2b");
  CHECK_FALSE(one.over());
  // With two counted pieces, a king next to one of them is bared all the same.
  koma::Game two = at(sfen({{"2f", "R"}, {"2b", "p"}, {"6i", "G"}}));
  two.play("2f2b");
  CHECK(two.result()->reason == koma::Reason::bare_king);
  // Without the rule, play goes on.
  koma::Game off = at(sfen({{"6h", "R"}, {"8h", "G"}, {"6e", "p"}}), {{"bare_king", "none"}});
  off.play("6h6e");
  CHECK_FALSE(off.over());
  // Two lone royals, neither attacked: a draw.
  koma::Game lone = at(sfen({{"6f", "K"}, {"6e", "g"}, {"1a", "k"}, {"3a", "P"}}));
  lone.play("6f6e");
  REQUIRE(lone.over());
  CHECK(lone.result()->reason == koma::Reason::lone_royals);
  CHECK(lone.result()->places == std::vector<int>{1, 1});
}

TEST_CASE("end.repetition.perpetual_by: check_or_attack, the fourth occurrence in chu") {
  // Sente's rook attacks Gote's silver from 3c and 4c in turn while Gote's
  // king steps 1a-1b and back: the fourth occurrence is lost by Sente, every
  // one of whose moves attacked.
  const std::string start = sfen({{"3c", "R"}, {"5c", "s"}});
  auto cycle = [](koma::Game& g) {
    for (const char* m : {"3c4c", "1a1b", "4c3c", "1b1a"}) g.play(m);
  };
  koma::Game g = at(start);
  cycle(g);
  cycle(g);
  CHECK_FALSE(g.over());
  cycle(g);
  REQUIRE(g.over());
  CHECK(g.result()->reason == koma::Reason::perpetual_check);
  CHECK(g.result()->places == std::vector<int>{2, 1});
  // Counting checks only, it is a draw.
  koma::Game draw = at(start, {{"perpetual_by", "check"}});
  for (int i = 0; i < 3; ++i) cycle(draw);
  CHECK(draw.result()->reason == koma::Reason::repetition);
  CHECK(draw.result()->places == std::vector<int>{1, 1});
}

TEST_CASE("chushogi: a king taken ends the game, no check, a side without moves loses") {
  // No check: Sente may leave its king attacked, and Gote takes it.
  koma::Game g = at(sfen({{"6h", "K"}, {"6a", "r"}, {"1l", "G"}}));
  CHECK(test::has_move(g, "6h6g"));
  g.play("1l1k");
  g.play("6a6h");
  REQUIRE(g.over());
  CHECK(g.result()->places == std::vector<int>{2, 1});
}

// Positions reached by seeded random play with shogiops 0.18.0, its moves
// built as its parseUsi shapes them (tests/data/shogiops-chu-positions.jsonl,
// tests/data/README.md): a third random, a third with lions, falcons and
// eagles near each other, a third right after a piece that is no lion took
// a lion (their SFEN carries the counter-strike square). Every move of the
// game is legal here, the SFEN reads as the position reached, each root
// move's count at depth 2 and the totals at depths 1 and 2 are shogiops',
// and the lion captures the rules refuse are refused.
TEST_CASE("chushogi: positions reached by play match shogiops move by move") {
  auto v = chu();
  std::map<std::string, int> kinds;
  int refused = 0, struck = 0;
  for (const YAML::Node& row : test::jsonl("shogiops-chu-positions.jsonl")) {
    const std::string seed = row["seed"].as<std::string>();
    CAPTURE(seed);
    koma::Game g(v);
    for (const auto& m : row["moves"]) g.play(m.as<std::string>());
    const std::string sfen_text = row["sfen"].as<std::string>();
    CHECK(koma::Position::from_text(v, sfen_text) == g.position());
    CHECK(g.position().text() == sfen_text);
    std::map<std::string, std::uint64_t> divide, expected;
    for (const auto& [m, n] : koma::perft_divide(g, 2)) divide[g.position().move_text(m)] = n;
    for (const auto& kv : row["divide1"])
      expected[kv.first.as<std::string>()] = kv.second.as<std::uint64_t>();
    CHECK(divide == expected);
    for (int d = 1; d <= 2; ++d)
      CHECK(koma::perft(g, d) == row["perft"][d - 1].as<std::uint64_t>());
    for (const auto& m : row["refused_lion_captures"]) {
      const koma::Move move = g.position().parse_move(m.as<std::string>());
      CHECK_FALSE(g.is_legal(move));
      CHECK(g.why_illegal(move).find("lion") != std::string::npos);
      ++refused;
    }
    struck += sfen_text.find(" - ") == std::string::npos ? 1 : 0;
    ++kinds[row["kind"].as<std::string>()];
  }
  CHECK(kinds["random"] >= 100);
  CHECK(kinds["lions"] >= 100);
  CHECK(kinds["counter_strike"] >= 100);
  CHECK(struck >= 100);
  CHECK(refused >= 100);
}
