// Yonin shogi (docs/variants/yonin.md): Standard and King-capture modes. Every
// expectation below is worked out from the rules by hand; the comment above
// each check gives the reasoning.
//
// Geometry used throughout: squares are shogi names as South sees the board,
// file digit 9..1 left to right, rank letter a..i top to bottom. South (1)
// faces up (towards rank a), West (2) right (towards file 1), North (3) down
// (towards rank i), East (4) left (towards file 9). A South pawn on 5e attacks
// 5d, a West pawn on 5e attacks 4e, a North pawn 5f, an East pawn 6e.
#include <doctest/doctest.h>

#include <map>

#include "support.hpp"

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

auto yonin(const koma::Options& o = {}) {
  return test::variant("yonin.yaml", o);
}
auto king_capture(const koma::Options& o = {}) {
  return test::variant("yonin-king-capture.yaml", o);
}

// Owner of the piece on a square, 0 if it is empty.
int owner(const Game& g, const std::string& square) {
  auto p = at(g, square);
  return p.has_value() ? p->owner : 0;
}

using Seats = std::vector<int>;

}  // namespace

TEST_CASE("yonin: every first seat has 9 moves, perft(3) = 729 and perft(4) = 6561") {
  // From the start position each army has: the left silver 2 moves (one
  // diagonal and one straight ahead; its other forward diagonal holds its own
  // pawn), each gold 1 (the forward diagonal away from the king), the right
  // silver 2, each of the three pawns 1, king and rook 0 (boxed in): 9. The
  // armies do not meet within four plies (a silver may capture a neighbour's
  // silver that came next to it, which replaces a move without adding one), so
  // every node has 9 children: 9^3 and 9^4, whichever seat starts.
  for (int first = 1; first <= 4; ++first) {
    CAPTURE(first);
    Game g(yonin({{"first_seat", std::to_string(first)}}));
    CHECK(g.position().to_move() == first);
    CHECK(g.legal_moves().size() == 9);
    CHECK(koma::perft(g, 1) == 9);
    CHECK(koma::perft(g, 2) == 81);
    CHECK(koma::perft(g, 3) == 729);
    CHECK(koma::perft(g, 4) == 6561);
  }
}

TEST_CASE(
    "check.priority: two seats checked at once - the first clockwise answers, then the other "
    "(yonin)") {
  // South's rook goes 5g5e onto the empty rank e, between West's king (9e) and
  // East's king (1e): both are in check. North (1a) is not.
  auto t = text9({{"9i", "K1"}, {"5g", "R1"}, {"9e", "K2"}, {"1a", "K3"}, {"1e", "K4"}}, 1);
  Game g = from(yonin(), t);
  g.play("5g5e");
  CHECK(g.position().seats_in_check() == Seats{2, 4});
  // First seat in check clockwise from the mover (South): West.
  CHECK(g.position().to_move() == 2);
  // West's king on 9e may go to 9d, 8d, 8f, 9f; 8e stays on the rook's rank.
  CHECK(test::sorted_texts(g) == std::vector<std::string>{"9e8d", "9e8f", "9e9d", "9e9f"});
  g.play("9e9d");
  // East is still in check: it is the first checked seat clockwise from the
  // responder (West), so it moves now and North's turn is lost.
  CHECK(g.position().seats_in_check() == Seats{4});
  CHECK(g.position().to_move() == 4);
  // East's king: 1d, 2d, 1f, 2f (2e is on the rook's rank).
  CHECK(test::sorted_texts(g) == std::vector<std::string>{"1e1d", "1e1f", "1e2d", "1e2f"});
  g.play("1e1f");
  // Nobody in check: plain turn order from East, i.e. South. North was skipped.
  CHECK(g.position().seats_in_check().empty());
  CHECK(g.position().to_move() == 1);
}

TEST_CASE("check.priority: a check skips the turn of the seats in between (yonin)") {
  // South's rook 2g5g opens file 5 up to North's king on 5a: North, not West,
  // moves next.
  auto t = text9({{"9i", "K1"}, {"2g", "R1"}, {"9e", "K2"}, {"5a", "K3"}, {"1e", "K4"}}, 1);
  Game g = from(yonin(), t);
  g.play("2g5g");
  CHECK(g.position().seats_in_check() == Seats{3});
  CHECK(g.position().to_move() == 3);
  // North's king: 4a, 6a, 4b, 6b (5b is on the file).
  CHECK(g.legal_moves().size() == 4);
  g.play("5a4a");
  // No check: next clockwise from North is East. West has lost its turn.
  CHECK(g.position().to_move() == 4);
  g.play("1e1d");
  CHECK(g.position().to_move() == 1);
}

TEST_CASE("elimination.pieces: an elimination releases a seat its pieces were checking (yonin)") {
  // West's rook 1d checks North's king on 1a along file 1; West's gold on 3b
  // (facing right) covers 2a and 2b: with West active, North is in check with
  // no legal move. South plays 5c9c: the rook on 9c checks West's king on 9a;
  // 9b is on the rook's file, 8a and 8b on the file of South's rook 8i; West's
  // rook and gold can neither capture the checker nor block 9b. West is mated.
  // The scan starts clockwise from South, so West is found and eliminated
  // first; its rook and gold turn inactive, North is no longer in check and
  // is not eliminated. Next seat: West is out, so North.
  const std::map<std::string, std::string> pieces = {{"5i", "K1"}, {"8i", "R1"}, {"5c", "R1"},
                                                     {"9a", "K2"}, {"1d", "R2"}, {"3b", "G2"},
                                                     {"1a", "K3"}, {"3g", "K4"}};
  Game g = from(yonin(), text9(pieces, 1));
  CHECK(g.position().seats_in_check() == Seats{3});  // as loaded
  g.play("5c9c");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(overturned_king_of(g, "9a", 2));
  CHECK(g.position().active(3));
  CHECK(g.position().seats_in_check().empty());
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);
  // The inactive West pieces stay on the board but attack nothing: North's
  // king may go to 1b, 2a and 2b.
  CHECK(owner(g, "1d") == 2);
  CHECK(test::sorted_texts(g) == std::vector<std::string>{"1a1b", "1a2a", "1a2b"});
}

TEST_CASE("yonin: an elimination mates another seat (the new overturned king bans its pawn drop)") {
  // North's king on 9a is in check from South's rook 6a along rank a. 8a (on
  // the rank) is covered by that rook; once South drops a gold on 8c, 9b and
  // 8b are covered by it. North's only defence is a pawn drop between: 8a is
  // nifu (North's pawn on 8f), so only P*7a, which attacks 7b.
  // South drops G*8c, checking West's king on 7b (the gold's forward-right
  // diagonal). West: 8a and 7a on the rook's rank, 6a is the rook (guarded by
  // South's rook 3a), 6b and 6c on the rook's file, 8b and 7c covered by the
  // gold, 8c is the gold (guarded by South's pawn 8d): mated, eliminated first
  // (clockwise from South). Its king is overturned on 7b, so North's P*7a now
  // attacks an overturned king and is illegal: North has no legal move and is
  // eliminated in the same scan. East (1e) is untouched and moves next.
  const std::map<std::string, std::string> before = {{"5i", "K1"}, {"6a", "R1"}, {"3a", "R1"},
                                                     {"8d", "P1"}, {"7b", "K2"}, {"9a", "K3"},
                                                     {"8f", "P3"}, {"1e", "K4"}};
  for (const char* pdm : {"forbidden", "allowed"}) {
    CAPTURE(pdm);
    Game g = from(yonin({{"pawn_drop_mate", pdm}}), text9(before, 1, "1:G,3:P"));
    g.play("G*8c");
    CHECK(g.position().eliminated() == Seats{2, 3});
    CHECK(overturned_king_of(g, "7b", 2));
    CHECK(overturned_king_of(g, "9a", 3));
    CHECK_FALSE(g.over());
    CHECK(g.position().to_move() == 4);
  }
  // Control: the same board after the drop, but West's king away from 7b and
  // North to move: P*7a is then North's one legal move.
  auto control = before;
  control.erase("7b");
  control["9i"] = "K2";
  control["8c"] = "G1";
  Game c = from(yonin(), text9(control, 3, "3:P"));
  CHECK(test::sorted_texts(c) == std::vector<std::string>{"P*7a"});
}

TEST_CASE("drops.P.mate: pawn-drop mate is forbidden by default and allowed by option (yonin)") {
  // North's king on 5a between its own pawns (6a, 4a); South's gold on 5c
  // covers 5b, 6b and 4b. P*5b checks; the king cannot take the pawn (the
  // gold guards it), 4b and 6b are covered, 4a and 6a hold its own pawns, and
  // the pawns' moves do not answer the check: North would have no legal move.
  const auto t = text9({{"5i", "K1"},
                        {"5c", "G1"},
                        {"5a", "K3"},
                        {"6a", "P3"},
                        {"4a", "P3"},
                        {"9e", "K2"},
                        {"1e", "K4"}},
                       1, "1:P");
  Game forbidden = from(yonin(), t);
  CHECK_FALSE(test::has_move(forbidden, "P*5b"));
  CHECK_FALSE(forbidden.why_illegal(forbidden.position().parse_move("P*5b")).empty());
  CHECK(test::has_move(forbidden, "P*5d"));  // another pawn drop on the file is fine

  Game allowed = from(yonin({{"pawn_drop_mate", "allowed"}}), t);
  REQUIRE(test::has_move(allowed, "P*5b"));
  allowed.play("P*5b");
  // North is mated and eliminated; West is next after South.
  CHECK(allowed.position().eliminated() == Seats{3});
  CHECK(overturned_king_of(allowed, "5a", 3));
  CHECK(allowed.position().to_move() == 2);
  CHECK_FALSE(allowed.over());

  // King-capture mode has no mate, so no pawn-drop-mate rule; turns are plain.
  Game kc = from(king_capture(), t);
  REQUIRE(test::has_move(kc, "P*5b"));
  kc.play("P*5b");
  CHECK(kc.position().eliminated().empty());
  CHECK(kc.position().to_move() == 2);
}

TEST_CASE(
    "drops.P.overturned_king_attack: a pawn drop attacking an overturned king is illegal (yonin)") {
  // West is out, its king overturned on 5d. South's P*5e would attack 5d.
  // South's legal moves: king 5i to 4i, 6i, 4h, 5h, 6h (5); pawn drops on the
  // 77 empty squares except rank a (8 empty, a South pawn there could never
  // move) and 5e: 68. P*1b checks North's king on 1a but it can take the
  // pawn or step to 2a or 2b, so it is no mate. Total 73.
  const std::map<std::string, std::string> pieces = {
      {"5i", "K1"}, {"5d", "X2"}, {"1a", "K3"}, {"1i", "K4"}};
  Game g = from(yonin(), text9(pieces, 1, "1:P", 1, "2"));
  CHECK_FALSE(test::has_move(g, "P*5e"));
  CHECK(test::has_move(g, "P*5f"));
  CHECK(test::has_move(g, "P*4e"));
  CHECK(test::has_move(g, "P*1b"));
  CHECK(g.legal_moves().size() == 73);
  // The same holds in King-capture mode (the ban is kept there). With no
  // check, the king may step anywhere: the same 73.
  Game kc = from(king_capture(), text9(pieces, 1, "1:P", 1, "2"));
  CHECK_FALSE(test::has_move(kc, "P*5e"));
  CHECK(kc.legal_moves().size() == 73);
}

TEST_CASE("drops.P.nifu: nifu along West's and East's rows (yonin)") {
  // West (faces right) has an unpromoted pawn on 7e, so its "file" is rank e:
  // no West pawn drop anywhere on rank e, while file 7 is fine. Its last row
  // is file 1. Empty squares: 81 - 5 = 76; rank e leaves 8 out, file 1 leaves
  // 8 out, 1e is in both: 61 drops. None is a pawn-drop mate (P*6i, P*6a and
  // P*2a check kings that can step away or take). King 9i: 8i, 9h, 8h; pawn
  // 7e6e. Total 65.
  Game west =
      from(yonin(),
           text9({{"9i", "K2"}, {"7e", "P2"}, {"5i", "K1"}, {"5a", "K3"}, {"1a", "K4"}}, 2, "2:P"));
  CHECK_FALSE(test::has_move(west, "P*9e"));
  CHECK_FALSE(test::has_move(west, "P*5e"));
  CHECK_FALSE(test::has_move(west, "P*2e"));
  CHECK(test::has_move(west, "P*7c"));  // same column as its pawn: allowed
  CHECK(test::has_move(west, "P*7h"));
  CHECK(test::has_move(west, "P*2c"));
  CHECK_FALSE(test::has_move(west, "P*1c"));  // last row
  CHECK(west.legal_moves().size() == 65);

  // East (faces left), pawn on 3e: no drop on rank e; last row is file 9.
  // Mirror image: 61 drops, king 1i to 2i, 1h, 2h, pawn 3e4e. Total 65.
  Game east =
      from(yonin(),
           text9({{"1i", "K4"}, {"3e", "P4"}, {"5i", "K1"}, {"5a", "K3"}, {"9a", "K2"}}, 4, "4:P"));
  CHECK_FALSE(test::has_move(east, "P*1e"));
  CHECK_FALSE(test::has_move(east, "P*5e"));
  CHECK_FALSE(test::has_move(east, "P*8e"));
  CHECK(test::has_move(east, "P*3c"));
  CHECK(test::has_move(east, "P*3h"));
  CHECK(test::has_move(east, "P*8c"));
  CHECK_FALSE(test::has_move(east, "P*9c"));  // last row
  CHECK(east.legal_moves().size() == 65);
}

TEST_CASE("elimination.pieces: an eliminated seat's rook blocks but gives no check (yonin)") {
  // West is out. Its rook on 5e stands on South's king's file (5f-5h empty)
  // and on East's king's rank: inactive, it checks neither. It blocks North's
  // rook on 5b, which would otherwise check South along file 5.
  std::map<std::string, std::string> pieces = {{"5i", "K1"}, {"9a", "X2"}, {"5e", "R2"},
                                               {"5b", "R3"}, {"1a", "K3"}, {"1e", "K4"}};
  Game g = from(yonin(), text9(pieces, 1, "-", 1, "2"));
  CHECK(g.position().seats_in_check().empty());
  // South's king may go to all five squares, 5h (on both rooks' file) too.
  CHECK(test::sorted_texts(g) == std::vector<std::string>{"5i4h", "5i4i", "5i5h", "5i6h", "5i6i"});
  // Without the inactive rook, North's rook checks South: 5h is then barred.
  pieces.erase("5e");
  Game open = from(yonin(), text9(pieces, 1, "-", 1, "2"));
  CHECK(open.position().seats_in_check() == Seats{1});
  CHECK(test::sorted_texts(open) == std::vector<std::string>{"5i4h", "5i4i", "5i6h", "5i6i"});
}

TEST_CASE(
    "elimination.pieces, elimination.hand: inactive pieces can be captured, unpromoted into the "
    "captor's hand, a frozen hand stays (yonin)") {
  // West is out with a dragon on 5c, a pawn on 3f and a gold in its frozen
  // hand. South's rook takes the dragon (5h5c): South gets a rook (unpromoted);
  // West's frozen hand is not transferred.
  const auto t = text9({{"9i", "K1"},
                        {"5h", "R1"},
                        {"3g", "G1"},
                        {"9e", "X2"},
                        {"5c", "+R2"},
                        {"3f", "P2"},
                        {"1a", "K3"},
                        {"1i", "K4"}},
                       1, "2:G", 1, "2");
  Game g = from(yonin(), t);
  g.play("5h5c");
  CHECK(hand(g, 1, "R") == 1);
  CHECK(hand(g, 1, "+R") == 0);
  CHECK(hand(g, 2, "G") == 1);
  CHECK(owner(g, "5c") == 1);
  // No check: North (1a) and East (1i) move, then South takes the pawn with
  // its gold and later drops it: the dropped pawn faces South's forward.
  CHECK(g.position().to_move() == 3);
  g.play("1a1b");
  g.play("1i1h");
  g.play("3g3f");
  CHECK(hand(g, 1, "P") == 1);
  CHECK(hand(g, 2, "P") == 0);
  g.play("1b1a");
  g.play("1h1i");
  CHECK(test::has_move(g, "R*5e"));
  g.play("P*4e");
  auto p = at(g, "4e");
  REQUIRE(p.has_value());
  CHECK(p->owner == 1);
  CHECK(p->facing == koma::Facing::up);
}

TEST_CASE(
    "kings.capture, elimination.king: kings are never captured in Standard, active or overturned "
    "(yonin)") {
  // South's rook on 5e sees North's active king on 5a (5b-5d empty) and, along
  // rank e, West's overturned king on 2e. It may not land on either, nor pass
  // the overturned king. Rook: 5d, 5c, 5c+, 5b, 5b+ up (5c and 5b are in
  // South's zone), 5f-5i down (4), 6e-9e (4), 4e and 3e (2): 15. King 9i: 8i,
  // 9h, 8h. Total 18.
  const auto t =
      text9({{"9i", "K1"}, {"5e", "R1"}, {"2e", "X2"}, {"5a", "K3"}, {"1i", "K4"}}, 1, "-", 1, "2");
  Game g = from(yonin(), t);
  CHECK_FALSE(test::has_move(g, "5e5a"));
  CHECK_FALSE(test::has_move(g, "5e2e"));
  CHECK_FALSE(test::has_move(g, "5e1e"));
  CHECK(test::has_move(g, "5e3e"));
  CHECK(test::has_move(g, "5e5b+"));
  CHECK(g.legal_moves().size() == 18);
  CHECK_THROWS_AS(g.play("5e5a"), koma::IllegalMove);
}

TEST_CASE(
    "kings.capture: capturing a king eliminates its seat, its pieces freeze (yonin king-capture)") {
  // South's rook takes West's king along rank e (8e-6e empty). The king leaves
  // the game (into no hand), West is eliminated at once and its rook on 3b
  // stays, inactive, never to move: turns are plain clockwise without West.
  const auto t = text9(
      {{"5i", "K1"}, {"5e", "R1"}, {"9e", "K2"}, {"3b", "R2"}, {"4a", "K3"}, {"1i", "K4"}}, 1);
  Game g = from(king_capture(), t);
  REQUIRE(test::has_move(g, "5e9e"));
  g.play("5e9e");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(owner(g, "9e") == 1);
  CHECK(hand(g, 1, "K") == 0);
  CHECK(owner(g, "3b") == 2);
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);
  // North's king takes the inactive rook: a rook into North's hand.
  g.play("4a3b");
  CHECK(hand(g, 3, "R") == 1);
  CHECK(g.position().to_move() == 4);
  g.play("1i1h");
  CHECK(g.position().to_move() == 1);
  g.play("5i5h");
  CHECK(g.position().to_move() == 3);  // West never moves again
}

TEST_CASE(
    "check.enabled: no check, no check priority, kings may be left attacked (yonin king-capture)") {
  // North's rook on 4a covers file 4. In Standard South's king may not step
  // to 4i or 4h; in King-capture mode it may. South's rook 8g5g attacks
  // North's king on 5a (5b-5f empty): in Standard North answers next, in
  // King-capture mode West simply follows South.
  const auto t = text9(
      {{"5i", "K1"}, {"8g", "R1"}, {"9c", "K2"}, {"5a", "K3"}, {"4a", "R3"}, {"1c", "K4"}}, 1);
  Game standard = from(yonin(), t);
  CHECK_FALSE(test::has_move(standard, "5i4h"));
  CHECK_FALSE(test::has_move(standard, "5i4i"));
  standard.play("8g5g");
  CHECK(standard.position().seats_in_check() == Seats{3});
  CHECK(standard.position().to_move() == 3);

  Game kc = from(king_capture(), t);
  CHECK(test::has_move(kc, "5i4h"));
  CHECK(test::has_move(kc, "5i4i"));
  kc.play("8g5g");
  CHECK(kc.position().seats_in_check().empty());
  CHECK(kc.position().to_move() == 2);
}

TEST_CASE("yonin king-capture: overturned kings stay, the last king capture ends the game") {
  // West was eliminated with its king overturned on 9e (no legal move or
  // resignation), North by a king capture (no king left). South's rook on 5e
  // may not take the overturned king on 9e, and P*9f would attack it.
  const auto t =
      text9({{"5i", "K1"}, {"5e", "R1"}, {"9e", "X2"}, {"1e", "K4"}}, 1, "1:P", 1, "2,3");
  Game g = from(king_capture(), t);
  CHECK_FALSE(test::has_move(g, "5e9e"));
  CHECK(test::has_move(g, "5e6e"));
  CHECK_FALSE(test::has_move(g, "P*9f"));
  CHECK(test::has_move(g, "P*8f"));
  // 5e1e captures East's king: South is the last seat standing. Places by
  // elimination order: West 4th, North 3rd, East 2nd.
  g.play("5e1e");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{2, 3, 4});
  CHECK(g.result() == Result{{1, 4, 3, 2}, Reason::last_seat_standing});
}

TEST_CASE("yonin: a seat with no legal move, not in check, is eliminated on its turn") {
  // After South's 1c1b the rook on 1b covers rank b (9b, 8b) and South's rook
  // 8i covers file 8 (8a, 8b): West's lone king on 9a, not in check, has no
  // move. West is next (nobody in check); it is eliminated on its turn, which
  // is consumed: North moves next. No ply is added for the consumed turn.
  const std::map<std::string, std::string> pieces = {{"5i", "K1"}, {"8i", "R1"}, {"1c", "R1"},
                                                     {"9a", "K2"}, {"5a", "K3"}, {"3e", "K4"}};
  Game g = from(yonin(), text9(pieces, 1));
  g.play("1c1b");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(overturned_king_of(g, "9a", 2));
  CHECK(g.position().to_move() == 3);
  CHECK(g.position().ply() == 2);
  // North's king: 4a and 6a; 4b, 5b and 6b are on the rook's rank.
  CHECK(test::sorted_texts(g) == std::vector<std::string>{"5a4a", "5a6a"});

  // Loaded as written: the same position with West to move has no legal move
  // and nothing happens until a move is played.
  auto after = pieces;
  after.erase("1c");
  after["1b"] = "R1";
  Game loaded = from(yonin(), text9(after, 2));
  CHECK(loaded.legal_moves().empty());
  CHECK_FALSE(loaded.over());
  CHECK(loaded.position().eliminated().empty());
}

TEST_CASE("yonin: fourfold repetition is a draw, survivors share 1st") {
  // West and East are out (West first). South and North walk their kings out
  // and back: the loaded position is the first occurrence, it recurs after
  // every 4 plies, and its 4th appearance (ply 12) ends the game. South and
  // North share 1st; East keeps 3rd, West 4th: places 1, 4, 1, 3.
  const auto t = text9({{"5i", "K1"}, {"9e", "X2"}, {"5a", "K3"}, {"1e", "X4"}}, 1, "-", 1, "2,4");
  Game g = from(yonin(), t);
  CHECK(g.occurrences() == 1);
  for (int cycle = 1; cycle <= 3; ++cycle) {
    CAPTURE(cycle);
    CHECK_FALSE(g.over());
    g.play("5i5h");
    CHECK(g.position().to_move() == 3);  // West and East are skipped
    g.play("5a5b");
    CHECK(g.position().to_move() == 1);
    g.play("5h5i");
    g.play("5b5a");
    CHECK(g.occurrences() == cycle + 1);
  }
  REQUIRE(g.over());
  CHECK(g.result() == Result{{1, 4, 1, 3}, Reason::repetition});
  g.undo();
  CHECK_FALSE(g.over());
}

TEST_CASE("yonin: the 600-ply limit draws, survivors share 1st") {
  // Same board as the no-legal-move case: after 1c1b West would have no move.
  const std::map<std::string, std::string> pieces = {{"5i", "K1"}, {"8i", "R1"}, {"1c", "R1"},
                                                     {"9a", "K2"}, {"5a", "K3"}, {"3e", "K4"}};
  // Ply 600: 599 plies played, 1c1b is the 600th. The limit is judged before
  // the elimination on turn, so West is not eliminated: all four share 1st.
  Game at_limit = from(yonin(), text9(pieces, 1, "-", 600));
  CHECK_FALSE(at_limit.over());
  at_limit.play("1c1b");
  REQUIRE(at_limit.over());
  CHECK(at_limit.position().eliminated().empty());
  CHECK(at_limit.result() == Result{{1, 1, 1, 1}, Reason::max_plies});

  // Ply 599: 1c1b is the 599th ply, West is eliminated on its turn; North's
  // reply is the 600th: South, North, East share 1st, West is 4th.
  Game before = from(yonin(), text9(pieces, 1, "-", 599));
  before.play("1c1b");
  CHECK_FALSE(before.over());
  CHECK(before.position().eliminated() == Seats{2});
  before.play("5a4a");
  REQUIRE(before.over());
  CHECK(before.result() == Result{{1, 4, 1, 1}, Reason::max_plies});

  // max_plies=0 lifts the limit.
  Game unlimited = from(yonin({{"max_plies", "0"}}), text9(pieces, 1, "-", 600));
  unlimited.play("1c1b");
  CHECK_FALSE(unlimited.over());
  CHECK(unlimited.position().eliminated() == Seats{2});

  // A mate on the 600th ply is applied first (immediate elimination comes
  // before the limit): the release position above, West mated by 5c9c.
  Game mate = from(yonin(), text9({{"5i", "K1"},
                                   {"8i", "R1"},
                                   {"5c", "R1"},
                                   {"9a", "K2"},
                                   {"1d", "R2"},
                                   {"3b", "G2"},
                                   {"1a", "K3"},
                                   {"3g", "K4"}},
                                  1, "-", 600));
  mate.play("5c9c");
  REQUIRE(mate.over());
  CHECK(mate.position().eliminated() == Seats{2});
  CHECK(mate.result() == Result{{1, 4, 1, 1}, Reason::max_plies});
}

TEST_CASE("yonin: last seat standing - places follow the elimination order") {
  // West then East are out. South drops a gold on 5b, guarded by its pawn on
  // 5c: the gold covers 4a, 6a, 4b, 6b, so North's king on 5a is mated.
  // South is the last active seat: 1st; North, out last, 2nd; East 3rd; West 4th.
  const auto t = text9({{"5i", "K1"}, {"5c", "P1"}, {"9e", "X2"}, {"5a", "K3"}, {"1e", "X4"}}, 1,
                       "1:G", 1, "2,4");
  Game g = from(yonin(), t);
  g.play("G*5b");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{2, 4, 3});
  CHECK(g.result() == Result{{1, 4, 2, 3}, Reason::last_seat_standing});
  CHECK(g.legal_moves().empty());
}

TEST_CASE("resignation: eliminates the resigning seat and consumes its turn (yonin)") {
  // From the start, South plays 5g5f and West resigns on its turn: West is
  // eliminated (king overturned on 9e), the action counts one ply, and the
  // turn passes as if West had moved: North, whose 9 start moves are intact.
  Game g(yonin());
  g.play("5g5f");
  CHECK_FALSE(test::has_move(g, "resign"));
  g.play("resign");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(overturned_king_of(g, "9e", 2));
  CHECK(g.position().to_move() == 3);
  CHECK(g.position().ply() == 3);
  CHECK(g.history() == std::vector<std::string>{"5g5f", "resign"});
  CHECK(g.legal_moves().size() == 9);
  CHECK_FALSE(g.over());

  // The game's reason is that of the ending the resignation leads to: with
  // West and East out, North resigns and South is the last seat standing.
  const auto t = text9({{"5i", "K1"}, {"9e", "X2"}, {"5a", "K3"}, {"1e", "X4"}}, 3, "-", 1, "2,4");
  Game last = from(yonin(), t);
  last.resign();
  REQUIRE(last.over());
  CHECK(last.result() == Result{{1, 4, 2, 3}, Reason::last_seat_standing});

  // Option resignation=forbidden: no resigning.
  Game no(yonin({{"resignation", "forbidden"}}));
  CHECK_THROWS_AS(no.resign(), koma::IllegalMove);
  CHECK_FALSE(no.over());
}

// Bug (issue 13, item 3): with check priority, a seat in check whose turn
// comes without a legal move was chosen anyway where the descriptor says
// such a seat passes, and the game stalled. Teams South+North against
// West+East; mates are not scanned, a seat without moves passes.
TEST_CASE("check priority honours no_legal_move: pass") {
  const std::string yaml = std::string("koma: 1\nextends: ") + KOMA_VARIANTS_DIR +
                           "/yonin.yaml\nname: priority-pass\n"
                           "teams: [[South, North], [West, East]]\n"
                           "mate: on_turn\nno_legal_move: pass\n";
  auto v = koma::Variant::parse(yaml, "priority-pass.yaml");
  koma::Game g(koma::Position::from_text(v, "K23K34/9/1G17/9/8K4/9/9/1R17/4K14 1 - 1 -"));
  g.play("8c8b");  // the gold checks West's king on 9a; 9b, 8a and 8b are covered
  CHECK(g.position().in_check(2));
  // West, in check with no legal move, is skipped; the choice goes on from
  // South: West again (no move), then North.
  CHECK(g.position().to_move() == 3);
  CHECK_FALSE(g.over());
  CHECK(g.position().active(2));
  CHECK(g.legal_moves().size() > 0);
}
