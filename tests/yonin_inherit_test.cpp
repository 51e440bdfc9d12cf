// Yonin shogi with the inherit-pieces local rules (docs/variants/yonin-inherit.md,
// variants/yonin-inherit.yaml). Every expectation below is worked out from the
// rules by hand; the comment above each check gives the reasoning.
//
// Geometry used throughout: squares are shogi names as South sees the board,
// file digit 9..1 left to right, rank letter a..i top to bottom. South (1)
// faces up (towards rank a), West (2) right (towards file 1), North (3) down
// (towards rank i), East (4) left (towards file 9). In position text a piece
// facing another way than its owner's default carries a mark: `P1v` is a
// South pawn facing down, `R2v` a West rook facing down, `P3^` a North pawn
// facing up. A gold facing up on 6a covers 5a and 7a (sideways) and 6b
// (back); a West gold on 6b covers 5b (forward), 5a and 5c (forward
// diagonals), 6a and 6c (sideways) and 7b (back).
//
// Reminders from the rules: a seat is mated on its own turn when it has no
// legal move (in check or not); its king is overturned and its hand and board
// pieces pass to the mater; its turn is consumed and the next seat is chosen
// as if it had just moved (check priority included). For a loaded position
// the seats are assumed to have moved in plain turn order before it: with
// South to move, East moved last, North before it, West before that.
#include <doctest/doctest.h>

#include <map>

#include "support.hpp"

using koma::Facing;
using koma::Game;
using koma::Position;
using koma::Reason;
using koma::Result;

namespace {

using test::at;
using test::from;
using test::hand;
using test::overturned_king_of;
using test::text9;

auto inherit(const koma::Options& o = {}) {
  return test::variant("yonin-inherit.yaml", o);
}

// True if `square` holds an active (not overturned) piece of this kind, owner
// and facing.
bool holds(const Game& g, const std::string& square, const std::string& letter, int owner,
           Facing facing) {
  auto p = at(g, square);
  auto kind = g.variant().kind_by_letter(letter);
  REQUIRE(kind.has_value());
  return p.has_value() && !p->overturned && p->kind == *kind && p->owner == owner &&
         p->facing == facing;
}

using Seats = std::vector<int>;
using Moves = std::vector<std::string>;

}  // namespace

TEST_CASE("yonin inherit: no resignation and no ply limit by default") {
  auto v = inherit();
  CHECK_FALSE(v->has_resignation());
  CHECK(v->options().at("max_plies") == "0");
  CHECK(v->places_by_score());
  // "No resignation": the action is refused with IllegalMove and the game is
  // unchanged.
  Game g(v);
  CHECK_THROWS_AS(g.play("resign"), koma::IllegalMove);
  CHECK_THROWS_AS(g.resign(), koma::IllegalMove);
  CHECK_FALSE(g.over());
  CHECK(g.history().empty());
  CHECK(g.position().to_move() == 1);

  // "No ply limit": the start position loaded at ply 600 and 5000 (599 and
  // 4999 plies already played) goes on after further moves. In Standard the
  // 600th ply would end the game.
  for (int ply : {600, 5000}) {
    CAPTURE(ply);
    std::string start = v->start_position().generic_text();
    REQUIRE(start.size() > 3);
    REQUIRE(start.substr(start.size() - 5) == "- 1 -");
    start = start.substr(0, start.size() - 3) + std::to_string(ply) + " -";
    Game late(Position::from_text(v, start));
    late.play("5g5f");
    late.play("7e6e");
    CHECK_FALSE(late.over());
    CHECK(late.position().ply() == ply + 2);
  }
}

TEST_CASE("yonin inherit: every first seat moves first, perft 9, 81, 729") {
  // The first seat rotates game by game: start_position(N) and the option
  // first_seat=N put seat N to move. From the start every army has 9 moves
  // (left and right silver 2 each, each gold 1, each pawn 1, king and rook
  // boxed in) and the armies do not meet within three plies, so every node
  // has 9 children, whichever seat starts.
  auto v = inherit();
  for (int first = 1; first <= 4; ++first) {
    CAPTURE(first);
    Game rotated(v->start_position(first));
    CHECK(rotated.position().to_move() == first);
    CHECK(koma::perft(rotated, 1) == 9);
    CHECK(koma::perft(rotated, 2) == 81);
    CHECK(koma::perft(rotated, 3) == 729);

    Game option(inherit({{"first_seat", std::to_string(first)}}));
    CHECK(option.position().to_move() == first);
    CHECK(option.legal_moves().size() == 9);
    CHECK(koma::perft(option, 3) == 729);
  }
}

TEST_CASE("promotion.by: inherited pawns promote toward their own facing (yonin inherit)") {
  // South owns pawns facing other ways (as after an inheritance). The zone is
  // the three rows farthest in the piece's facing: ranks g-i for a pawn facing
  // down, files 1-3 for one facing right, ranks a-c for one facing up.
  // - P1v 5f -> 5g enters its zone: 5f5g and 5f5g+.
  // - P1v 3h -> 3i is its last row (nothing below): only 3h3i+.
  // - P1v 8c -> 8d: rank c is South's own zone but not this pawn's: 8c8d only.
  // - P1> 2g -> 1g is its last row (file 1): only 2g1g+.
  // - P1 (facing up) 7c -> 7b: South's ordinary zone: 7c7b and 7c7b+.
  // - King 9i: 8i, 9h, 8h (West's king on 9e is two ranks away).
  // The hand is empty: 10 moves.
  const auto t = text9({{"9i", "K1"},
                        {"5f", "P1v"},
                        {"3h", "P1v"},
                        {"8c", "P1v"},
                        {"2g", "P1>"},
                        {"7c", "P1"},
                        {"9e", "K2"},
                        {"5a", "K3"},
                        {"1e", "K4"}},
                       1);
  Game g = from(inherit(), t);
  CHECK(test::sorted_texts(g) ==
        Moves{"2g1g+", "3h3i+", "5f5g", "5f5g+", "7c7b", "7c7b+", "8c8d", "9i8h", "9i8i", "9i9h"});
  CHECK_THROWS_AS(g.play("3h3i"), koma::IllegalMove);
  CHECK_THROWS_AS(g.play("8c8d+"), koma::IllegalMove);
  // The tokin keeps the pawn's owner and facing.
  g.play("5f5g+");
  CHECK(holds(g, "5g", "+P", 1, Facing::down));

  // Rooks: a South rook facing down (R1v on 6d) may promote entering ranks
  // g-i but not ranks a-c; South's ordinary rook (4f) the other way round.
  const auto rooks = text9(
      {{"9i", "K1"}, {"6d", "R1v"}, {"4f", "R1"}, {"9a", "K2"}, {"1a", "K3"}, {"1i", "K4"}}, 1);
  Game r = from(inherit(), rooks);
  CHECK(test::has_move(r, "6d6g+"));
  CHECK(test::has_move(r, "6d6i+"));
  CHECK(test::has_move(r, "6d6c"));
  CHECK_FALSE(test::has_move(r, "6d6c+"));
  CHECK_FALSE(test::has_move(r, "6d6a+"));
  CHECK(test::has_move(r, "4f4c+"));
  CHECK_FALSE(test::has_move(r, "4f4g+"));
  CHECK_FALSE(test::has_move(r, "4f4i+"));
}

TEST_CASE(
    "drops.P.nifu: only own unpromoted pawns facing the dropper's forward count (yonin inherit)") {
  // South holds a pawn. File 5 holds South's pawn facing down (5d): it does
  // not count, drops on file 5 are fine. File 3 holds South's pawn facing up
  // (3f): no drop on file 3. File 7 holds North's pawn turned up (7e): not
  // South's, drops on file 7 are fine.
  // Count: 7 pieces, 74 empty squares; rank a is South's last row (8 empty
  // squares there, 1a holds North's king); file 3 below rank a has 7 empty
  // squares. No overturned king; P*1b and P*9f check kings that can take the
  // pawn, so no pawn-drop mate: 74 - 8 - 7 = 59 drops. Board moves: king 9i
  // to 8i, 9h, 8h; 5d5e (rank e is not in a down-facing pawn's zone); 3f3e.
  // Total 64.
  const auto t = text9({{"9i", "K1"},
                        {"5d", "P1v"},
                        {"3f", "P1"},
                        {"9e", "K2"},
                        {"1a", "K3"},
                        {"7e", "P3^"},
                        {"1i", "K4"}},
                       1, "1:P");
  Game g = from(inherit(), t);
  CHECK(test::has_move(g, "P*5b"));
  CHECK(test::has_move(g, "P*5e"));
  CHECK(test::has_move(g, "P*5f"));
  CHECK(test::has_move(g, "P*5i"));
  CHECK(test::has_move(g, "P*7c"));
  CHECK(test::has_move(g, "P*7f"));
  CHECK_FALSE(test::has_move(g, "P*3d"));
  CHECK_FALSE(test::has_move(g, "P*3g"));
  CHECK_FALSE(test::has_move(g, "P*5a"));  // last row
  CHECK(g.legal_moves().size() == 64);
  // The dropped pawn faces its new owner's forward.
  g.play("P*5f");
  CHECK(holds(g, "5f", "P", 1, Facing::up));
}

TEST_CASE(
    "elimination.pieces, elimination.hand: double check - mated on its turn, pieces and hand go to "
    "the latest checker (yonin inherit)") {
  // North's king on 5a is in check from West's rook on 9a along rank a (as
  // loaded). South's silver on 5c stands between East's rook (5e) and the king.
  // North holds +S on 4b and a pawn on 6b (both facing down) and G, P in hand.
  const std::map<std::string, std::string> before = {{"7i", "K1"}, {"5c", "S1"}, {"9a", "R2"},
                                                     {"9g", "K2"}, {"5a", "K3"}, {"4b", "+S3"},
                                                     {"6b", "P3"}, {"5e", "R4"}, {"1e", "K4"}};
  // Loaded at ply 21 (20 plies played): in plain turn order before it East
  // moved last (ply 20), North at 19, West at 18, South at 17.
  const auto t = text9(before, 1, "3:GP", 21);

  SUBCASE("the checkers are West and East: East moved more recently") {
    // South's silver steps back 5c6d and uncovers East's rook: North is in
    // check from West (rank a) and East (file 5). Nobody else is in check, so
    // North (the first checked seat clockwise from South) is next. Its king:
    // 4a and 6a are on West's rank (4a behind the king), 5b on East's file,
    // 4b and 6b hold its own pieces. No single move or drop answers two
    // checks: North has no legal move and is mated on its turn.
    // The loaded position had South to move, so East moved before it (then
    // North, then West): of the checkers, East moved most recently. East
    // gets the +S and the pawn on their squares, still facing down, and G, P
    // in hand. North's turn is consumed; nobody is in check (the inherited
    // pieces attack no king), so the next seat clockwise from North: East.
    Game g = from(inherit(), t);
    g.play("5c6d");
    CHECK(g.position().eliminated() == Seats{3});
    CHECK(overturned_king_of(g, "5a", 3));
    CHECK(holds(g, "4b", "+S", 4, Facing::down));
    CHECK(holds(g, "6b", "P", 4, Facing::down));
    CHECK(hand(g, 4, "G") == 1);
    CHECK(hand(g, 4, "P") == 1);
    CHECK(hand(g, 3, "G") == 0);
    CHECK(g.position().seats_in_check().empty());
    CHECK(g.position().to_move() == 4);
    CHECK_FALSE(g.over());
    CHECK(g.position().generic_text() == text9({{"7i", "K1"},
                                                {"6d", "S1"},
                                                {"9a", "R2"},
                                                {"9g", "K2"},
                                                {"5a", "X3"},
                                                {"4b", "+S4v"},
                                                {"6b", "P4v"},
                                                {"5e", "R4"},
                                                {"1e", "K4"}},
                                               4, "4:GP", 22, "3"));
    CHECK(g.position().score(4).mates == 1);
    CHECK(g.position().score(2).mates == 0);
    // The inherited pieces move in their old facing: the pawn 6b6c (not 6b7b,
    // East's forward), the +S (a gold mover facing down) to 3c but not 3a.
    CHECK(test::has_move(g, "6b6c"));
    CHECK_FALSE(test::has_move(g, "6b7b"));
    CHECK(test::has_move(g, "4b3c"));
    CHECK(test::has_move(g, "4b4a"));
    CHECK_FALSE(test::has_move(g, "4b3a"));
  }

  SUBCASE("the checkers are West and South: South has just moved") {
    // South's silver goes 5c5b instead: it checks 5a itself and still blocks
    // East's rook, which now guards it. North: 4a and 6a are covered by
    // West's rook and the silver, 5b is the guarded silver; +S4b may take the
    // silver but West's check remains. Mated on its turn; the checkers are
    // West and South, and South moved most recently. South gets everything.
    // Next: nobody in check, so East.
    Game g = from(inherit(), t);
    g.play("5c5b");
    CHECK(g.position().eliminated() == Seats{3});
    CHECK(g.position().to_move() == 4);
    CHECK(g.position().generic_text() == text9({{"7i", "K1"},
                                                {"5b", "S1"},
                                                {"9a", "R2"},
                                                {"9g", "K2"},
                                                {"5a", "X3"},
                                                {"4b", "+S1v"},
                                                {"6b", "P1v"},
                                                {"5e", "R4"},
                                                {"1e", "K4"}},
                                               4, "1:GP", 22, "3"));
    CHECK(g.position().score(1).mates == 1);
    CHECK(g.position().score(4).mates == 0);
  }
}

TEST_CASE("yonin inherit: inherited pieces check at once, the next seat follows check priority") {
  // West to move. North's rook on 7a looks down file 7 at South's king on 7i,
  // blocked by West's gold on 7c. North's king 5a has its own tokin on 4a and
  // pawn on 4b; South's silver on 6c covers 5b and 6b.
  // West plays 7c6b (a forward diagonal for a gold facing right): the gold
  // checks 5a and uncovers North's rook onto South's king. Checked: North and
  // South; North comes first clockwise from West. North's king: 4a, 4b own
  // pieces, 5b and 6a covered by the gold, 6b is the gold (guarded by the
  // silver); nothing else of North's reaches 6b and drops cannot answer a
  // contact check. North is mated on its turn by West (the only checker).
  // West gets the rook (facing down), the tokin, the pawn and S, P in hand.
  // North's turn is consumed; the inherited rook on 7a now checks South for
  // West. Clockwise from North: East is not in check, South is: South moves
  // (plain turn order would have given East the move).
  const auto t = text9({{"7i", "K1"},
                        {"6c", "S1"},
                        {"7c", "G2"},
                        {"9e", "K2"},
                        {"5a", "K3"},
                        {"4a", "+P3"},
                        {"4b", "P3"},
                        {"7a", "R3"},
                        {"1e", "K4"}},
                       2, "3:SP");
  Game g = from(inherit(), t);
  g.play("7c6b");
  CHECK(g.position().eliminated() == Seats{3});
  CHECK(g.position().generic_text() == text9({{"7i", "K1"},
                                              {"6c", "S1"},
                                              {"6b", "G2"},
                                              {"9e", "K2"},
                                              {"5a", "X3"},
                                              {"4a", "+P2v"},
                                              {"4b", "P2v"},
                                              {"7a", "R2v"},
                                              {"1e", "K4"}},
                                             1, "2:SP", 2, "3"));
  CHECK(g.position().seats_in_check() == Seats{1});
  CHECK(g.position().to_move() == 1);
  // South: the king to 6h, 6i, 8h, 8i (7h is on the rook's file), or the
  // silver interposes on 7b or 7d, promoting or not (it starts in South's
  // zone). Taking the gold on 6b leaves the check.
  CHECK(test::sorted_texts(g) ==
        Moves{"6c7b", "6c7b+", "6c7d", "6c7d+", "7i6h", "7i6i", "7i8h", "7i8i"});
}

TEST_CASE("yonin inherit: a stalemated seat is mated on its turn, the last mover inherits") {
  // West's king on 8a is boxed in, not in check: 9a holds its own pawn (which
  // faces right, into the king), 7a is covered by South's gold on 6a, 7b-9b
  // by South's rook on 5b. West has no hand. North's king on 1b has 1c and 2c
  // free (2a and 2b are covered by South's gold on 3b, 1a holds North's pawn).
  const std::map<std::string, std::string> pieces = {
      {"5i", "K1"}, {"5b", "R1"}, {"5d", "R1"}, {"6a", "G1"}, {"3b", "G1"},
      {"8a", "K2"}, {"9a", "P2"}, {"1b", "K3"}, {"1a", "P3"}, {"1i", "K4"}};
  // South plays a quiet king move; nobody is in check, so West is next. It
  // has no legal move: mated on its turn. Not in check, so the mater is the
  // seat that moved last: South. The pawn on 9a becomes South's, still facing
  // right. Next, as if West had moved: North, not in check, with two moves.
  Game g = from(inherit(), text9(pieces, 1));
  g.play("5i6h");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(overturned_king_of(g, "8a", 2));
  CHECK(holds(g, "9a", "P", 1, Facing::right));
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);
  CHECK(g.position().ply() == 2);
  CHECK(test::sorted_texts(g) == Moves{"1b1c", "1b2c"});
  // South: one mate; pieces: K, R, R, G, G, the inherited pawn, and West's
  // overturned king = 7.
  CHECK(g.position().score(1).mates == 1);
  CHECK(g.position().score(1).pieces == 7);
  CHECK(g.position().score(1).last_mate > 0);
  CHECK(g.position().score(3).mates == 0);
  CHECK(g.position().score(3).pieces == 2);
  CHECK(g.position().score(3).last_mate == 0);
}

TEST_CASE(
    "end.mates: two stalemates in a row end the game, the consumed turn is no move (yonin "
    "inherit)") {
  // The board of the previous case; South's rook goes 5d5c and covers rank c:
  // North's king on 1b loses 1c and 2c and is boxed in too, not in check.
  // West is next and is mated on its turn (mater: South, who moved last).
  // Next, as if West had moved: North, with no legal move: mated too. Its
  // mater is the active seat that moved most recently; West's consumed turn
  // is not a move (and West is out): South again. North's pawn on 1a becomes
  // South's, facing down. Two mates: the game ends (two_mates).
  // Places: South made 2 mates, East none: South 1st, East 2nd, although East
  // has more pieces (king + R, 2G, 2S, 4P in hand = 10, against South's
  // K, R, R, G, G, two inherited pawns and two overturned kings = 9).
  // North, mated later, is 3rd; West 4th.
  const std::map<std::string, std::string> pieces = {
      {"5i", "K1"}, {"5b", "R1"}, {"5d", "R1"}, {"6a", "G1"}, {"3b", "G1"},
      {"8a", "K2"}, {"9a", "P2"}, {"1b", "K3"}, {"1a", "P3"}, {"1i", "K4"}};
  Game g = from(inherit(), text9(pieces, 1, "4:R2G2S4P"));
  g.play("5d5c");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{2, 3});
  CHECK(overturned_king_of(g, "8a", 2));
  CHECK(overturned_king_of(g, "1b", 3));
  CHECK(holds(g, "9a", "P", 1, Facing::right));
  CHECK(holds(g, "1a", "P", 1, Facing::down));
  CHECK(g.result() == Result{{1, 4, 3, 2}, Reason::two_mates});
  CHECK(g.position().score(1).mates == 2);
  CHECK(g.position().score(1).pieces == 9);
  CHECK(g.position().score(4).mates == 0);
  CHECK(g.position().score(4).pieces == 10);
  CHECK(g.legal_moves().empty());
}

TEST_CASE("yonin inherit: the mated seat is never its own mater") {
  // South's pawn 1g1f checks East's king on 1e: 1d and 2d are covered by
  // North's gold on 2c, 2d, 2e and 2f by West's gold on 3e (facing right), and
  // the pawn is guarded by West's rook on 5f. East is the only seat in check,
  // so it moves next (West and North are skipped) and is mated by South.
  // Next, as if East had moved: nobody in check, so South. South's king on 9i
  // is boxed in (9h by North's pawn on 9g, 8h and 8i by North's rook on 8c),
  // its pawn on 1f is stuck under East's overturned king, its hand is empty:
  // no legal move, not in check: mated. The mater is the active seat, other
  // than South, that moved most recently. South moved last, then East (out);
  // before the loaded position North moved after West. North gets the pawn on
  // 1f, still facing up. Two mates: North (1 mate) 1st, West (none) 2nd,
  // South 3rd, East 4th. Loaded at ply 21, so that every seat has a move
  // before it (East at ply 20, North 19, West 18).
  const auto t = text9({{"9i", "K1"},
                        {"1g", "P1"},
                        {"9a", "K2"},
                        {"5f", "R2"},
                        {"3e", "G2"},
                        {"4a", "K3"},
                        {"8c", "R3"},
                        {"2c", "G3"},
                        {"9g", "P3"},
                        {"1e", "K4"}},
                       1, "-", 21);
  Game g = from(inherit(), t);
  g.play("1g1f");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{4, 1});
  CHECK(overturned_king_of(g, "1e", 4));
  CHECK(overturned_king_of(g, "9i", 1));
  CHECK(holds(g, "1f", "P", 3, Facing::up));
  CHECK(g.result() == Result{{3, 2, 1, 4}, Reason::two_mates});
  // North: K, R, G, two pawns and South's overturned king.
  CHECK(g.position().score(3).mates == 1);
  CHECK(g.position().score(3).pieces == 6);
  // West: K, R, G and no mate.
  CHECK(g.position().score(2).mates == 0);
  CHECK(g.position().score(2).pieces == 3);
}

TEST_CASE(
    "places: score - mates, then pieces (the last transfer counted), then last mate (yonin "
    "inherit)") {
  // West's king on 8a is boxed in as before (own pawn 9a facing into it,
  // South's gold 6a and rook 5b). North's king on 2a: 3a is covered by
  // South's gold on 4a, 1b-3b by the rook on 5b; 1a is free.
  //  1. South 5i6h (quiet). West, next, has no legal move: mated by South
  //     (the last mover). Next as if West had moved: North.
  //  2. North 7d7e.                  Next: East.
  //  3. East 3e3a: the rook checks 2a at contact and is guarded by South's
  //     gold on 4a; 1a is behind the king on the rook's rank, 1b-3b covered:
  //     North (next, the only seat in check) is mated by East, the only
  //     checker. East gets the pawn (7e, facing down) and North's hand.
  // Two mates: the game ends; West (first mated) 4th, North 3rd. South and
  // East made one mate each; East's was the later one.
  // Pieces: South K, R, G, G, the inherited pawn and West's overturned king =
  // 6 plus its hand; East K, R, the inherited pawn, North's hand and North's
  // overturned king = 4 plus North's hand.
  const std::map<std::string, std::string> pieces = {
      {"5i", "K1"}, {"5b", "R1"}, {"6a", "G1"}, {"4a", "G1"}, {"8a", "K2"},
      {"9a", "P2"}, {"2a", "K3"}, {"7d", "P3"}, {"3e", "R4"}, {"1i", "K4"}};
  auto play = [&](const std::string& hands) {
    Game g = from(inherit(), text9(pieces, 1, hands));
    g.play("5i6h");
    CHECK(g.position().eliminated() == Seats{2});
    CHECK(g.position().to_move() == 3);
    g.play("7d7e");
    CHECK(g.position().to_move() == 4);
    g.play("3e3a");
    REQUIRE(g.over());
    CHECK(g.position().eliminated() == Seats{2, 3});
    CHECK(overturned_king_of(g, "2a", 3));
    CHECK(holds(g, "7e", "P", 4, Facing::down));
    CHECK(g.position().score(1).mates == 1);
    CHECK(g.position().score(4).mates == 1);
    CHECK(g.position().score(4).last_mate > g.position().score(1).last_mate);
    return g;
  };

  SUBCASE("more pieces beat the later mate") {
    // South 6 + 2G = 8; East 4 + G, S = 6: South 1st.
    Game g = play("1:2G,3:GS");
    CHECK(g.position().score(1).pieces == 8);
    CHECK(g.position().score(4).pieces == 6);
    CHECK(g.result() == Result{{1, 4, 3, 2}, Reason::two_mates});
  }
  SUBCASE("the second mate's pieces are counted") {
    // South 6 + P = 7; East 4 + G, S, 2P = 8, of which 6 came with the last
    // mate (without them East would have 2): East 1st.
    Game g = play("1:P,3:GS2P");
    CHECK(hand(g, 4, "P") == 2);
    CHECK(g.position().score(1).pieces == 7);
    CHECK(g.position().score(4).pieces == 8);
    CHECK(g.result() == Result{{2, 4, 3, 1}, Reason::two_mates});
  }
  SUBCASE("equal mates and pieces: the later last mate is better") {
    // South 6, East 4 + G, S = 6: East's mate came later: East 1st.
    Game g = play("3:GS");
    CHECK(g.position().score(1).pieces == 6);
    CHECK(g.position().score(4).pieces == 6);
    CHECK(g.result() == Result{{2, 4, 3, 1}, Reason::two_mates});
  }
}

TEST_CASE("yonin inherit: checks skip a seat's turn, a loaded position is its first occurrence") {
  // South's rook checks North's king from 1e and 2e in turn while the king
  // walks 1a-2a-1a. After each check North answers at once (West, next in
  // plain order, loses its turn); after North's reply nobody is in check, so
  // East (clockwise from North) moves its king 9i-9h-9i, then South again.
  // Six plies bring the loaded position back: its second occurrence.
  const auto t =
      text9({{"5i", "K1"}, {"2e", "R1"}, {"9c", "K2"}, {"1a", "K3"}, {"9i", "K4"}, {"5g", "P4"}}, 1,
            "2:GS");
  Game g = from(inherit(), t);
  CHECK(g.occurrences() == 1);
  g.play("2e1e");
  CHECK(g.position().seats_in_check() == Seats{3});
  CHECK(g.position().to_move() == 3);
  g.play("1a2a");
  CHECK(g.position().to_move() == 4);
  g.play("9i9h");
  CHECK(g.position().to_move() == 1);
  g.play("1e2e");
  CHECK(g.position().seats_in_check() == Seats{3});
  CHECK(g.position().to_move() == 3);
  g.play("2a1a");
  CHECK(g.position().to_move() == 4);
  g.play("9h9i");
  CHECK(g.position().to_move() == 1);
  CHECK(g.position() == g.start());
  CHECK(g.occurrences() == 2);
  CHECK_FALSE(g.over());
}
TEST_CASE("yonin inherit: repetition before two mates places every survivor, ties share") {
  // South's rook checks North's king from 1e and 2e in turn while the king
  // walks 1a-2a-1a; each check skips West, and after North's reply East
  // (nobody in check) moves its king 9i-9h-9i. West never moves. The loaded
  // position (South to move) comes back every 6 plies; its 4th appearance is
  // made by East's 18th-ply move. East did not check: the game ends by
  // repetition (South's checks do not matter to it).
  // Places by the comparison: no mates anywhere; pieces: South K, R = 2;
  // West K and G, S in hand = 3; North K = 1; East K, P = 2. West 1st,
  // South and East share 2nd, North 4th.
  const auto t =
      text9({{"5i", "K1"}, {"2e", "R1"}, {"9c", "K2"}, {"1a", "K3"}, {"9i", "K4"}, {"5g", "P4"}}, 1,
            "2:GS");
  Game g = from(inherit(), t);
  CHECK(g.occurrences() == 1);
  for (int cycle = 1; cycle <= 3; ++cycle) {
    CAPTURE(cycle);
    REQUIRE_FALSE(g.over());
    g.play("2e1e");
    CHECK(g.position().to_move() == 3);
    g.play("1a2a");
    CHECK(g.position().to_move() == 4);
    g.play("9i9h");
    CHECK(g.position().to_move() == 1);
    g.play("1e2e");
    CHECK(g.position().to_move() == 3);
    g.play("2a1a");
    g.play("9h9i");
    CHECK(g.occurrences() == cycle + 1);
  }
  REQUIRE(g.over());
  CHECK(g.position().eliminated().empty());
  CHECK(g.result() == Result{{2, 1, 4, 2}, Reason::repetition});
}

TEST_CASE(
    "end.repetition.perpetual_check: a perpetual checker may not make the fourth occurrence (yonin "
    "inherit)") {
  // West is out (credited to no one), its king overturned on 9c. Loaded:
  // North to move, in check from South's rook on 1e. The cycle "A":
  // 1a2a, 9i9h (East), 1e2e+check, 2a1a, 9h9i, 2e1e+check returns to it in 6
  // plies, South checking with both its moves. The cycle "B": 1a2a, 9i9h,
  // 1e3e (no check; West is out so North moves next), 2a1a, 9h9i, 3e1e
  // (check) returns to it too.
  const auto t =
      text9({{"5i", "K1"}, {"1e", "R1"}, {"9c", "X2"}, {"1a", "K3"}, {"9i", "K4"}, {"5g", "P4"}}, 3,
            "-", 1, "2");
  const Moves a = {"1a2a", "9i9h", "1e2e", "2a1a", "9h9i", "2e1e"};
  const Moves b = {"1a2a", "9i9h", "1e3e", "2a1a", "9h9i", "3e1e"};
  const Moves a_but_last(a.begin(), a.end() - 1);

  SUBCASE("South checked with every move since the first occurrence: 2e1e is illegal") {
    // After A, A the loaded position has appeared 3 times; after five more
    // plies South's 2e1e would make the 4th, and every South move since the
    // first occurrence (this one included) gave check: illegal. Other moves
    // stay legal and the game goes on.
    Game g = from(inherit(), t);
    g = test::play_all(g, a);
    g = test::play_all(g, a);
    CHECK(g.occurrences() == 3);
    g = test::play_all(g, a_but_last);
    REQUIRE_FALSE(g.over());
    CHECK(g.position().to_move() == 1);
    CHECK_FALSE(test::has_move(g, "2e1e"));
    CHECK_FALSE(g.is_legal(g.position().parse_move("2e1e")));
    CHECK(g.is_legal(g.position().parse_move("2e3e")));
    CHECK_FALSE(g.why_illegal(g.position().parse_move("2e1e")).empty());
    CHECK_THROWS_AS(g.play("2e1e"), koma::IllegalMove);
    CHECK(test::has_move(g, "2e3e"));
    g.play("2e3e");
    CHECK_FALSE(g.over());
  }

  SUBCASE("South once played without check: the 4th occurrence ends the game") {
    // B, A, then the same five plies: South's 1e3e in B did not check, so
    // South is no perpetual checker and 2e1e is legal; it makes the 4th
    // occurrence and the game ends by repetition. Places: no mates; pieces
    // South K, R = 2, North K = 1, East K, P = 2: South and East share 1st,
    // North 3rd; West, the only mated seat, 4th.
    Game g = from(inherit(), t);
    g = test::play_all(g, b);
    CHECK(g.occurrences() == 2);
    g = test::play_all(g, a);
    CHECK(g.occurrences() == 3);
    g = test::play_all(g, a_but_last);
    REQUIRE(test::has_move(g, "2e1e"));
    g.play("2e1e");
    REQUIRE(g.over());
    CHECK(g.occurrences() == 4);
    CHECK(g.result() == Result{{1, 4, 3, 1}, Reason::repetition});
  }
}

TEST_CASE("yonin inherit: two mates after one move - the later-mated seat's mater mated later") {
  // South's rook 5c8c checks West's king on 8a along file 8 (9a its own pawn,
  // 7a covered by South's gold 6a, 7b-9b by South's rook 5b); North's king on
  // 2a is in check from East's rook on 2g (as loaded). West comes first
  // clockwise from South: mated by South. Next, as if West had moved: North,
  // still in check, with no move (1a covered by South's pawn 1b, 3a by the
  // gold 4a, 1b guarded by the rook 5b, 2b and 3b on its rank; nothing can
  // block file 2): mated by East. Two mates.
  // South and East made one mate each; pieces: South K, R, R, G, G, P, the
  // inherited pawn and West's king = 8; East K, R, 2S, 2P in hand, North's
  // pawn and North's king = 8. East's mate (North) came after South's (West),
  // as the places of the mated seats say: East 1st, South 2nd.
  const auto t = text9({{"5i", "K1"},
                        {"5b", "R1"},
                        {"5c", "R1"},
                        {"6a", "G1"},
                        {"4a", "G1"},
                        {"1b", "P1"},
                        {"8a", "K2"},
                        {"9a", "P2"},
                        {"2a", "K3"},
                        {"8d", "P3"},
                        {"2g", "R4"},
                        {"1i", "K4"}},
                       1, "4:2S2P");
  Game g = from(inherit(), t);
  g.play("5c8c");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{2, 3});
  CHECK(holds(g, "9a", "P", 1, Facing::right));
  CHECK(holds(g, "8d", "P", 4, Facing::down));
  CHECK(g.position().score(1).mates == 1);
  CHECK(g.position().score(4).mates == 1);
  CHECK(g.position().score(1).pieces == 8);
  CHECK(g.position().score(4).pieces == 8);
  CHECK(g.result() == Result{{2, 4, 3, 1}, Reason::two_mates});
}
