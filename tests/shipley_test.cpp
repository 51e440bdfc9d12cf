// Shipley's Four Player Shogi (docs/variants/shipley.md): the cross board with void
// corners, the two team modes, the individual mode and the all-kings mode.
// Every expectation below is worked out from the rules by hand; the comment
// above each check gives the reasoning.
//
// Geometry used throughout: 15x15, algebraic squares, file letter a..o from
// the left, rank 1..15 from the bottom. The corners a1-c3, m1-o3, a13-c15 and
// m13-o15 are void. Seats: North 1 (home d13-l15, faces down, towards rank 1),
// East 2 (home m4-o12, faces left, towards file a), South 3 (home d1-l3, faces
// up, towards rank 15), West 4 (home a4-c12, faces right, towards file o).
// Team-orthogonal: North+South against East+West, turns N E S W.
// Team-diagonal: North+East against South+West, turns N S E W.
// Individual and all-kings: everyone for themselves, turns N E S W.
#include <doctest/doctest.h>

#include <map>

#include "support.hpp"

using koma::Game;
using koma::Position;
using koma::Reason;
using koma::Result;

namespace {

// Position text from {square name: piece token} (tests/support.hpp).
std::string text(const std::map<std::string, std::string>& pieces, int to_move,
                 const std::string& hands = "-", int ply = 1, const std::string& eliminated = "-") {
  return test::text(test::cross15(pieces), to_move, hands, ply, eliminated);
}
using test::from;
using test::hand;

auto orthogonal(const koma::Options& o = {}) {
  return test::variant("shipley-team-orthogonal.yaml", o);
}
auto diagonal(const koma::Options& o = {}) {
  return test::variant("shipley-team-diagonal.yaml", o);
}
auto individual(const koma::Options& o = {}) {
  return test::variant("shipley-individual.yaml", o);
}
auto all_kings(const koma::Options& o = {}) {
  return test::variant("shipley-kings.yaml", o);
}

koma::Square square(const Game& g, const std::string& name) {
  auto sq = g.variant().parse_square(name);
  REQUIRE(sq.has_value());
  return *sq;
}

using test::at;

// "K1" for North's king on the square, "" if it is empty.
std::string piece(const Game& g, const std::string& name) {
  auto p = at(g, name);
  if (!p.has_value()) return "";
  return g.variant().kind_info(p->kind).letter + std::to_string(p->owner);
}

using Strings = std::vector<std::string>;
using Seats = std::vector<int>;

// Sorted texts of the legal board moves starting on `from`.
Strings moves_from(const Game& g, const std::string& from) {
  const koma::Square sq = square(g, from);
  Strings out;
  for (koma::Move m : g.legal_moves())
    if (!m.is_drop() && m.from == sq) out.push_back(g.position().move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

// Number of legal drops of the piece with this letter.
int drops(const Game& g, const std::string& letter) {
  auto kind = g.variant().kind_by_letter(letter);
  REQUIRE(kind.has_value());
  int n = 0;
  for (koma::Move m : g.legal_moves())
    if (m.is_drop() && m.kind == *kind) ++n;
  return n;
}

}  // namespace

TEST_CASE("shipley: the start position text and perft 1-3 of every mode") {
  // From the start each army has shogi's 30 moves: 9 pawns, each lance 1,
  // each silver 2, each gold 3, the king 3, the rook 6 (one square towards
  // the void side, five towards the bishop), knights and bishop none.
  // No two armies meet within two plies (see the next case).
  //
  // Depth 3 differs between the team modes. The only early contact is a
  // pawn stepping in front of a neighbour's wing pawn: North's l13l12 blocks
  // East's pawn m12 (it moves to l12), South's l3l4 blocks East's m4, South's
  // d3d4 blocks West's c4 and North's d13d12 blocks West's c12. Against an
  // enemy the blocked pawn captures instead (same count); against a partner
  // it loses its move.
  // - Team-orthogonal, turns N E S: N-E and E-S are enemy pairs, so nothing
  //   is lost: 30^3 = 27000. Individual and all-kings likewise.
  // - Team-diagonal, turns N S E: North and East are partners, so after
  //   l13l12 East has 29 moves, whatever South played: 27000 - 30 = 26970.
  // At depth 4 (tests/data/variants.jsonl, a slow test): team-orthogonal,
  // individual and all-kings turn N E S W, every consecutive pair (N-E, E-S,
  // S-W) are enemies, so a blocked wing pawn captures instead and no move is
  // lost or gained: 30^4 = 810000. Team-diagonal (N S E W) loses more than at
  // depth 3 (E-W partners, N's l13l12 against E, ...): 808201 is the count of
  // the independent implementation.
  const std::string start =
      "***L1N1S1G1K1G1S1N1L1***/***1R15B11***/***P1P1P1P1P1P1P1P1P1***/L41P49P21L2/"
      "N4R4P49P2B2N2/S41P49P21S2/G41P49P21G2/K41P49P21K2/G41P49P21G2/S41P49P21S2/"
      "N4B4P49P2R2N2/L41P49P21L2/***P3P3P3P3P3P3P3P3P3***/***1B35R31***/"
      "***L3N3S3G3K3G3S3N3L3*** 1 - 1 -";
  struct Mode {
    std::shared_ptr<const koma::Variant> v;
    std::uint64_t depth3;
  };
  for (const Mode& mode : {Mode{orthogonal(), 27000}, Mode{diagonal(), 26970},
                           Mode{individual(), 27000}, Mode{all_kings(), 27000}}) {
    CAPTURE(mode.v->name());
    Game g(mode.v);
    CHECK(g.position().text() == start);
    CHECK(g.legal_moves().size() == 30);
    CHECK(koma::perft(g, 1) == 30);
    CHECK(koma::perft(g, 2) == 900);
    CHECK(koma::perft(g, 3) == mode.depth3);
  }
}

TEST_CASE("shipley: every seat moving first has 30 moves and perft(2) = 900") {
  // The four armies are the same army turned to face the centre, so whichever
  // seat starts has 30 moves. After it, the next seat in turn order is never
  // blocked by a partner within one ply: the only contacts are the wing-pawn
  // blocks listed above, and for every pair of consecutive seats
  // (orthogonal/individual/kings: N-E, E-S, S-W, W-N; diagonal: N-S, S-E,
  // E-W, W-N) the blocking pair is either absent or made of enemies.
  for (const auto& v : {orthogonal(), diagonal(), individual(), all_kings()}) {
    for (int first = 1; first <= 4; ++first) {
      CAPTURE(v->name());
      CAPTURE(first);
      auto rotated = test::variant(v->name() + ".yaml", {{"first_seat", std::to_string(first)}});
      Game g(rotated);
      CHECK(g.position().to_move() == first);
      CHECK(g.legal_moves().size() == 30);
      CHECK(koma::perft(g, 2) == 900);
    }
  }
}

TEST_CASE(
    "board.voids: sliders stop at voids and never pass through them, knights jump over them "
    "(shipley)") {
  // South to move (team-orthogonal). South's king g1.
  // - Rook j1: j2 holds its own pawn; left i1, h1 (g1 is its king); right
  //   k1, l1, then m1 is void: the ray stops.
  // - Bishop l2: k3 holds its own pawn; down-left k1; down-right m1 and
  //   up-right m3 are void. Beyond m3 lies n4 with an East silver: the
  //   bishop may not pass through the void to capture it.
  // - Knight d1 (forward is up): its targets are c3 (void, no landing) and e3.
  // - Knight d2: targets c4 and e4, jumping over the void c3 next to it.
  //   c4 is in West's wing, an enemy's in this mode: promotion optional.
  // No king is attacked (the East silver on n4 attacks m4, m5, o5).
  const std::map<std::string, std::string> pieces = {
      {"h15", "K1"}, {"o8", "K2"}, {"n4", "S2"}, {"g1", "K3"}, {"j1", "R3"}, {"j2", "P3"},
      {"l2", "B3"},  {"k3", "P3"}, {"d1", "N3"}, {"d2", "N3"}, {"a8", "K4"}};
  Game g = from(orthogonal(), text(pieces, 3));
  CHECK(g.position().seats_in_check().empty());
  CHECK(moves_from(g, "j1") == Strings{"j1h1", "j1i1", "j1k1", "j1l1"});
  CHECK(moves_from(g, "l2") == Strings{"l2k1"});
  CHECK(moves_from(g, "d1") == Strings{"d1e3"});
  CHECK(moves_from(g, "d2") == Strings{"d2c4", "d2c4+", "d2e4"});

  // West to move: its rook on c5 (d5 its own pawn, c7 its own gold) goes
  // down to c4, then c3 is void; up to c6; left to b5 and a5 (the edge).
  // Its own wing is no zone for it.
  const std::map<std::string, std::string> west = {{"h15", "K1"}, {"o8", "K2"}, {"h1", "K3"},
                                                   {"a8", "K4"},  {"c5", "R4"}, {"d5", "P4"},
                                                   {"c7", "G4"}};
  Game w = from(orthogonal(), text(west, 4));
  CHECK(moves_from(w, "c5") == Strings{"c5a5", "c5b5", "c5c4", "c5c6"});
}

TEST_CASE("dead_squares: dead squares come from the board shape - drops (shipley)") {
  // South (forward = up) has a lance and a knight in hand; only the four
  // kings are on the board (h15, o8, h1, a8): 189 - 4 = 185 empty squares.
  // A lance has no move on a square whose upper neighbour does not exist:
  // rank 15 (d15-l15, 9), the top row of West's wing a12-c12 (a13-c13 are
  // void) and of East's wing m12-o12: 15 squares, h15 occupied, so 171 drops.
  // A knight (two up, one aside) has no move on ranks 14 and 15 (18
  // squares), on a11, b11, a12, b12 (landing on ranks 13-14 of files a-c,
  // void) and n11, o11, n12, o12; but c11 and c12 reach d13 and d14, m11 and
  // m12 reach l13 and l14: 26 squares, h15 occupied, so 160 drops.
  // The team mode decides nothing here: drops are never promoted.
  const std::map<std::string, std::string> pieces = {
      {"h15", "K1"}, {"o8", "K2"}, {"h1", "K3"}, {"a8", "K4"}};
  for (const auto& v : {orthogonal(), diagonal()}) {
    CAPTURE(v->name());
    Game g = from(v, text(pieces, 3, "3:NL"));
    for (const char* sq : {"a12", "b12", "c12", "m12", "n12", "o12", "d15", "l15"})
      CHECK_FALSE(test::has_move(g, std::string("L*") + sq));
    for (const char* sq : {"a11", "b11", "c11", "m11", "h14", "d14"})
      CHECK(test::has_move(g, std::string("L*") + sq));
    for (const char* sq : {"a11", "b11", "a12", "b12", "n11", "o11", "n12", "o12", "h14", "e15"})
      CHECK_FALSE(test::has_move(g, std::string("N*") + sq));
    for (const char* sq : {"c11", "c12", "m11", "m12", "a10", "b10", "h13"})
      CHECK(test::has_move(g, std::string("N*") + sq));
    CHECK(drops(g, "L") == 171);
    CHECK(drops(g, "N") == 160);
  }
}

TEST_CASE(
    "dead_squares: dead squares on West's top row - promote in an enemy wing, else illegal "
    "(shipley)") {
  // South to move. Its lance b8 (forward up) can go b9, b10, b11, b12; its
  // pawn a11 can go a12; its knight c9 lands on b11 or d11. a12 and b12 have
  // void above (a13, b13), so an unpromoted lance or pawn there has no move;
  // an unpromoted knight on b11 would land on a13 or c13, both void: dead too.
  // - Team-orthogonal: West is an enemy, its wing a4-c12 a zone. Every lance
  //   and pawn move stays within it (optional promotion) and the dead
  //   squares take only the promoted form. The knight's c9d11 leaves the zone:
  //   optional too.
  // - Team-diagonal: West is South's partner, its wing no zone: no promotion,
  //   and the moves to the dead squares are illegal.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"o4", "K2"}, {"h1", "K3"},
                                                     {"a5", "K4"},  {"b8", "L3"}, {"a11", "P3"},
                                                     {"c9", "N3"}};
  Game orth = from(orthogonal(), text(pieces, 3));
  CHECK(moves_from(orth, "b8") ==
        Strings{"b8b10", "b8b10+", "b8b11", "b8b11+", "b8b12+", "b8b9", "b8b9+"});
  CHECK(moves_from(orth, "a11") == Strings{"a11a12+"});
  CHECK(moves_from(orth, "c9") == Strings{"c9b11+", "c9d11", "c9d11+"});
  CHECK_THROWS_AS(orth.play("b8b12"), koma::IllegalMove);

  Game diag = from(diagonal(), text(pieces, 3));
  CHECK(moves_from(diag, "b8") == Strings{"b8b10", "b8b11", "b8b9"});
  CHECK(moves_from(diag, "a11").empty());
  CHECK(moves_from(diag, "c9") == Strings{"c9d11"});
  CHECK_THROWS_AS(diag.play("b8b12"), koma::IllegalMove);
  CHECK_THROWS_AS(diag.play("b8b12+"), koma::IllegalMove);
}

TEST_CASE(
    "promotion.zone, seats[].home: promotion is offered in an enemy's wing, not in the partner's "
    "(shipley)") {
  // South to move; three South silvers (forward up: the four diagonals and
  // straight up).
  // - d8: to c7, c9 (West's wing), d9, e7, e9 (centre).
  // - h12: to g13, h13, i13 (North's wing), g11, i11 (centre).
  // - m9 (in East's wing): to l8, l10 (leaving it), m10, n8, n10 (within).
  // Orthogonal: West and East are enemies, North is the partner.
  // Diagonal: North and East are enemies, West is the partner.
  const std::map<std::string, std::string> pieces = {{"e15", "K1"}, {"o4", "K2"}, {"h1", "K3"},
                                                     {"a5", "K4"},  {"d8", "S3"}, {"h12", "S3"},
                                                     {"m9", "S3"}};
  const Strings m9_all = {"m9l10",  "m9l10+", "m9l8",   "m9l8+", "m9m10",
                          "m9m10+", "m9n10",  "m9n10+", "m9n8",  "m9n8+"};
  Game orth = from(orthogonal(), text(pieces, 3));
  CHECK(moves_from(orth, "d8") ==
        Strings{"d8c7", "d8c7+", "d8c9", "d8c9+", "d8d9", "d8e7", "d8e9"});
  CHECK(moves_from(orth, "h12") == Strings{"h12g11", "h12g13", "h12h13", "h12i11", "h12i13"});
  CHECK(moves_from(orth, "m9") == m9_all);

  Game diag = from(diagonal(), text(pieces, 3));
  CHECK(moves_from(diag, "d8") == Strings{"d8c7", "d8c9", "d8d9", "d8e7", "d8e9"});
  CHECK(moves_from(diag, "h12") ==
        Strings{"h12g11", "h12g13", "h12g13+", "h12h13", "h12h13+", "h12i11", "h12i13", "h12i13+"});
  CHECK(moves_from(diag, "m9") == m9_all);
}

TEST_CASE("teams: partners do not check each other (shipley)") {
  // A rook on h9 with h10-h14 empty stands on North's king's file (h15). The
  // other kings (o8, e1, a8) are off its lines. It checks North only when its
  // owner is North's enemy: South's rook checks in team-diagonal only, East's
  // in team-orthogonal only, West's in both.
  for (const char* rook : {"R3", "R2", "R4"}) {
    CAPTURE(rook);
    const std::map<std::string, std::string> pieces = {
        {"h15", "K1"}, {"o8", "K2"}, {"e1", "K3"}, {"a8", "K4"}, {"h9", rook}};
    const std::string owner = std::string(rook).substr(1);
    Game orth = from(orthogonal(), text(pieces, 1));
    CHECK(orth.position().seats_in_check() == (owner == "3" ? Seats{} : Seats{1}));
    Game diag = from(diagonal(), text(pieces, 1));
    CHECK(diag.position().seats_in_check() == (owner == "2" ? Seats{} : Seats{1}));
  }
}

TEST_CASE("teams: a partner's piece blocks like one's own and is never captured (shipley)") {
  // Team-orthogonal, North to move. West's rook on h5 looks up file h, but
  // South's rook on h9 stands between it and North's king on h15: no check.
  // North's king: g15, i15, i14 and h14 (behind the partner's rook, and only
  // on the partner's line); g14 holds South's gold, which it may not take.
  std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"g14", "G3"}, {"h9", "R3"},
                                               {"h5", "R4"},  {"o8", "K2"},  {"e1", "K3"},
                                               {"a8", "K4"}};
  Game g = from(orthogonal(), text(pieces, 1));
  CHECK(g.position().seats_in_check().empty());
  CHECK(test::sorted_texts(g) == Strings{"h15g15", "h15h14", "h15i14", "h15i15"});

  // Without South's rook West's rook checks along h6-h14: h14 is barred.
  pieces.erase("h9");
  Game open = from(orthogonal(), text(pieces, 1));
  CHECK(open.position().seats_in_check() == Seats{1});
  CHECK(test::sorted_texts(open) == Strings{"h15g15", "h15i14", "h15i15"});

  // South to move: its rook on h9 (own pawns on g9 and i9) goes up to h10 and
  // h11 but not onto North's gold on h12; down to h8 and h7, taking East's
  // silver there.
  const std::map<std::string, std::string> south = {{"h15", "K1"}, {"h12", "G1"}, {"h9", "R3"},
                                                    {"g9", "P3"},  {"i9", "P3"},  {"h7", "S2"},
                                                    {"o8", "K2"},  {"e1", "K3"},  {"a8", "K4"}};
  Game s = from(orthogonal(), text(south, 3));
  CHECK(moves_from(s, "h9") == Strings{"h9h10", "h9h11", "h9h7", "h9h8"});
  CHECK_THROWS_AS(s.play("h9h12"), koma::IllegalMove);
}

TEST_CASE(
    "end.team_checkmate: one mated king goes on passing, both enemy kings mated wins (shipley "
    "team)") {
  // Team-orthogonal, North to move. East's king sits in the top corner of its
  // wing, o12: its neighbours are o11, n11, n12 (n13, o13 are void). West's
  // king likewise on a12: a11, b11, b12.
  // North: rooks n4 (covering n5-n12) and k5. South: rook e5, lance b4
  // (covering b5-b12). West also has a pawn e8 (forward right).
  // 1. k5o5: the rook checks o12 along o6-o11 and covers o11; n11 and n12 are
  //    covered by the n4 rook. East has nothing else: mated. West is not, so
  //    the game goes on; East has no legal move and passes: South is next.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"n4", "R1"},  {"k5", "R1"},
                                                     {"o12", "K2"}, {"h1", "K3"},  {"e5", "R3"},
                                                     {"b4", "L3"},  {"a12", "K4"}, {"e8", "P4"}};
  Game g = from(orthogonal(), text(pieces, 1));
  CHECK(g.position().seats_in_check().empty());
  g.play("k5o5");
  CHECK_FALSE(g.over());
  CHECK(g.position().seats_in_check() == Seats{2});
  CHECK(g.position().to_move() == 3);
  CHECK(g.position().ply() == 2);

  // The same position loaded with East to move: it simply has no legal move.
  auto mated = pieces;
  mated.erase("k5");
  mated["o5"] = "R1";
  Game east = from(orthogonal(), text(mated, 2, "-", 2));
  CHECK(east.legal_moves().empty());
  CHECK_FALSE(east.over());

  // 2. Quiet moves round the table: South h1g1, West e8f8, North h15g15;
  //    East passes again, so South moves next. The passes add no ply.
  g.play("h1g1");
  CHECK(g.position().to_move() == 4);
  g.play("e8f8");
  CHECK(g.position().to_move() == 1);
  g.play("h15g15");
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);
  CHECK(g.position().ply() == 5);

  // 3. e5a5 (through d5, c5, b5): the rook checks a12 along a6-a11 and covers
  //    a11; the lance covers b11 and b12; West's pawn on f8 can neither take
  //    nor block. Both enemy kings are mated at once: North and South 1st,
  //    East and West 3rd.
  g.play("e5a5");
  REQUIRE(g.over());
  CHECK(g.result() == Result{{1, 3, 1, 3}, Reason::team_checkmate});
  CHECK(g.legal_moves().empty());
}

TEST_CASE(
    "kings.capture, elimination.hand: any seat attacking a checkmated king may capture it (shipley "
    "individual)") {
  // Individual, South to move. East's king o12 is checked by North's rook o5
  // (o6-o11) and by South's bishop k8 (l9, m10, n11); o11 is covered by the
  // rook, n11 by the bishop and the n4 rook, n12 by the n4 rook (n5-n11
  // empty). A double check no pawn drop from East's hand answers: mated.
  // South's king h1 is in check from East's gold i2 (forward is left, so it
  // attacks h1 and h3 diagonally, h2, j2, i1, i3 straight).
  // South's moves: king to g1, g2, or takes the gold on i2 (unguarded); h2
  // and i1 are covered by the gold. And the bishop may take East's king,
  // promoting or not (o12 is East's wing): after the capture East is
  // eliminated and its gold attacks nothing, so South's king is safe. No
  // other bishop move answers the check.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"n4", "R1"}, {"o5", "R1"},
                                                     {"o12", "K2"}, {"i2", "G2"}, {"h1", "K3"},
                                                     {"k8", "B3"},  {"a8", "K4"}};
  Game g = from(individual(), text(pieces, 3, "2:P"));
  CHECK(g.position().seats_in_check() == Seats{2, 3});
  CHECK(test::sorted_texts(g) == Strings{"h1g1", "h1g2", "h1i2", "k8o12", "k8o12+"});

  g.play("k8o12");
  // East is out: its king is gone (into no hand), its hand removed, its gold
  // stays on i2 but no longer checks South. West moves next.
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(piece(g, "o12") == "B3");
  CHECK(hand(g, 3, "K") == 0);
  CHECK(hand(g, 2, "P") == 0);
  CHECK(piece(g, "i2") == "G2");
  CHECK(g.position().seats_in_check().empty());
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 4);
  // The inactive gold stays until captured: West a8a9, North h15g15 (East is
  // skipped), South's king takes it into its hand.
  g.play("a8a9");
  g.play("h15g15");
  CHECK(g.position().to_move() == 3);
  g.play("h1i2");
  CHECK(hand(g, 3, "G") == 1);
  CHECK(g.position().to_move() == 4);
}

TEST_CASE("shipley individual: a king in check but not mated cannot be captured") {
  // The previous position without North's n4 rook: n12 is now free (the
  // bishop's diagonal runs l9, m10, n11), so East's king is in check but not
  // mated, and South's bishop may not take it.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"o5", "R1"}, {"o12", "K2"},
                                                     {"i2", "G2"},  {"h1", "K3"}, {"k8", "B3"},
                                                     {"a8", "K4"}};
  Game g = from(individual(), text(pieces, 3, "2:P"));
  CHECK(g.position().seats_in_check() == Seats{2, 3});
  CHECK(test::sorted_texts(g) == Strings{"h1g1", "h1g2", "h1i2"});
  CHECK_FALSE(g.why_illegal(g.position().parse_move("k8o12")).empty());
  CHECK_THROWS_AS(g.play("k8o12"), koma::IllegalMove);
}

TEST_CASE("shipley individual: the mater captures on its next turn, the mated seat passes") {
  // North's rooks n4 and k5; k5o5 mates East's lone king on o12 as in the
  // team case. The king stays, East passes, South (who does not attack it)
  // and West move, then North takes the king: East is eliminated and skipped.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"n4", "R1"}, {"k5", "R1"},
                                                     {"o12", "K2"}, {"h1", "K3"}, {"a8", "K4"}};
  Game g = from(individual(), text(pieces, 1));
  g.play("k5o5");
  CHECK_FALSE(g.over());
  CHECK(g.position().seats_in_check() == Seats{2});
  CHECK(g.position().eliminated().empty());
  CHECK(piece(g, "o12") == "K2");
  CHECK(g.position().to_move() == 3);
  g.play("h1g1");
  g.play("a8a9");
  CHECK(g.position().to_move() == 1);
  CHECK(test::has_move(g, "o5o12"));
  CHECK(test::has_move(g, "o5o12+"));
  g.play("o5o12");
  CHECK(g.position().eliminated() == Seats{2});
  CHECK(piece(g, "o12") == "R1");
  CHECK(hand(g, 1, "K") == 0);
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);
}

TEST_CASE("shipley individual: capturing the last other king ends the game") {
  // West then East are already out. North's king h15 is checked by South's
  // rook h9 (h10-h14) which covers h14; South's rooks g5 and i5 cover g14,
  // g15 and i14, i15: mated. South takes it: South 1st, North (out last)
  // 2nd, East 3rd, West 4th.
  const std::map<std::string, std::string> pieces = {
      {"h15", "K1"}, {"h9", "R3"}, {"g5", "R3"}, {"i5", "R3"}, {"h1", "K3"}};
  Game g = from(individual(), text(pieces, 3, "-", 1, "4,2"));
  CHECK(g.position().seats_in_check() == Seats{1});
  CHECK(test::has_move(g, "h9h15"));
  g.play("h9h15");
  REQUIRE(g.over());
  CHECK(g.position().eliminated() == Seats{4, 2, 1});
  CHECK(g.result() == Result{{2, 3, 1, 4}, Reason::last_seat_standing});
}

TEST_CASE("check.enabled: no check, a king may be left attacked (shipley all-kings)") {
  // South's king h1 stands on the file of North's rook h9 (h2-h8 empty).
  // Individual mode: South is in check; its king may go to g1, i1, g2, i2
  // but not h2, and its pawn d3 may not move.
  // All-kings mode: there is no check: all five king steps and d3d4.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"h9", "R1"}, {"o8", "K2"},
                                                     {"h1", "K3"},  {"d3", "P3"}, {"a8", "K4"}};
  Game ind = from(individual(), text(pieces, 3));
  CHECK(ind.position().seats_in_check() == Seats{3});
  CHECK(test::sorted_texts(ind) == Strings{"h1g1", "h1g2", "h1i1", "h1i2"});

  Game k = from(all_kings(), text(pieces, 3));
  CHECK(k.position().seats_in_check().empty());
  CHECK(test::sorted_texts(k) == Strings{"d3d4", "h1g1", "h1g2", "h1h2", "h1i1", "h1i2"});
}

TEST_CASE("shipley all-kings: a captured king goes to the captor's hand and drops as a king") {
  // North holds East's king in hand already; East has nothing left, so it
  // has no legal move and passes (it is not eliminated). North's rook takes
  // South's king on h1 (h8-h2 empty): a second king in North's hand. South,
  // without a king, plays on. North then drops a king.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"h9", "R1"}, {"h1", "K3"},
                                                     {"d3", "P3"},  {"a8", "K4"}, {"c10", "P4"}};
  Game g = from(all_kings(), text(pieces, 1, "1:K"));
  g.play("h9h1");
  CHECK(hand(g, 1, "K") == 2);
  CHECK(piece(g, "h1") == "R1");
  CHECK(g.position().eliminated().empty());
  CHECK_FALSE(g.over());
  CHECK(g.position().to_move() == 3);  // East passed
  CHECK(g.position().ply() == 2);
  g.play("d3d4");
  g.play("c10d10");
  CHECK(g.position().to_move() == 1);
  CHECK(test::has_move(g, "K*e8"));
  g.play("K*e8");
  CHECK(piece(g, "e8") == "K1");
  CHECK(piece(g, "h15") == "K1");
  CHECK(hand(g, 1, "K") == 1);
  CHECK(g.position().to_move() == 3);  // East passed again
  CHECK(g.position().ply() == 5);
  CHECK_FALSE(g.over());
}

TEST_CASE("shipley all-kings: holding all four kings wins") {
  // South has two kings on the board (h1 and a dropped one on e5) and one in
  // hand; its rook h9 takes North's king on h15 (h10-h14 empty): South holds
  // all four. South 1st, the others share 2nd. The finished position names
  // the next seat after South: West.
  const std::map<std::string, std::string> pieces = {
      {"h15", "K1"}, {"h9", "R3"}, {"h1", "K3"}, {"e5", "K3"}, {"a8", "P4"}};
  Game g = from(all_kings(), text(pieces, 3, "3:K"));
  CHECK_FALSE(g.over());
  g.play("h9h15");
  REQUIRE(g.over());
  CHECK(hand(g, 3, "K") == 2);
  CHECK(g.result() == Result{{2, 2, 1, 2}, Reason::all_kings});
  CHECK(g.position().to_move() == 4);
}

TEST_CASE(
    "drops.P.nifu: nifu runs along the dropper's forward lines, West's are the ranks (shipley)") {
  // Team-orthogonal, West (forward = right) to move with a pawn in hand and
  // an unpromoted pawn on e8: no West pawn drop anywhere on rank 8, while
  // file e is fine. A West pawn has no move where the cell to its right does
  // not exist: file o (o4-o12) and l1-l3, l13-l15 (m1-m3, m13-m15 are void).
  // Empty squares: 189 - 5 = 184; rank 8 leaves out 14 (e8 is occupied);
  // the dead squares leave out 13 more (o5 is occupied, o8 is on rank 8).
  // No drop is a pawn-drop mate (P*g15 and P*g1 check kings that can take the
  // pawn; P*n5 faces East's king, a partner's): 157 drops.
  const std::map<std::string, std::string> pieces = {
      {"h15", "K1"}, {"o5", "K2"}, {"h1", "K3"}, {"a5", "K4"}, {"e8", "P4"}};
  Game g = from(orthogonal(), text(pieces, 4, "4:P"));
  for (const char* sq : {"a8", "i8", "o8", "o7", "o12", "l14", "l1"})
    CHECK_FALSE(test::has_move(g, std::string("P*") + sq));
  for (const char* sq : {"e7", "e12", "k14", "k1", "n7", "g15"})
    CHECK(test::has_move(g, std::string("P*") + sq));
  CHECK(drops(g, "P") == 157);
}

TEST_CASE("drops.P.mate: pawn-drop mate is forbidden against an enemy king only (shipley)") {
  // South to move with a lance and a pawn in hand. West's king sits in its
  // corner a12 (a13, b13 void). South's gold b10 (forward up) guards a11 and
  // covers b11; South's bishop e9 covers b12 (through d10, c11).
  // Team-orthogonal: P*a11 checks West's king, which can neither take the
  // guarded pawn nor step to b11 or b12, and West has nothing else: a
  // pawn-drop mate, illegal. The same mate by a lance drop is legal; P*a10
  // checks nothing.
  // Team-diagonal: West is South's partner, so P*a11 is no check: legal.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"o4", "K2"},  {"h1", "K3"},
                                                     {"a12", "K4"}, {"b10", "G3"}, {"e9", "B3"}};
  Game orth = from(orthogonal(), text(pieces, 3, "3:LP"));
  CHECK(orth.position().seats_in_check().empty());
  CHECK_FALSE(test::has_move(orth, "P*a11"));
  CHECK_THROWS_AS(orth.play("P*a11"), koma::IllegalMove);
  CHECK(test::has_move(orth, "P*a10"));
  CHECK(test::has_move(orth, "L*a11"));
  Game diag = from(diagonal(), text(pieces, 3, "3:LP"));
  CHECK(test::has_move(diag, "P*a11"));

  // An already mated king counts too: East's king o12 is mated by North's
  // rooks o5 and n4 (team-orthogonal). P*o11 blocks the o5 rook but checks
  // o12 itself; the pawn is guarded by that rook and n11, n12 stay covered:
  // East would be mated by the drop, so it is illegal. P*o10 attacks the
  // empty o11: legal.
  const std::map<std::string, std::string> mated = {{"h15", "K1"}, {"n4", "R1"}, {"o5", "R1"},
                                                    {"o12", "K2"}, {"h1", "K3"}, {"a8", "K4"}};
  Game g = from(orthogonal(), text(mated, 3, "3:P"));
  CHECK(g.position().seats_in_check() == Seats{2});
  CHECK_FALSE(test::has_move(g, "P*o11"));
  CHECK(test::has_move(g, "P*o10"));
}

TEST_CASE("shipley team: fourfold repetition with a passing seat is a draw") {
  // Team-orthogonal, North to move. East's king o12 is not in check but has
  // no move: o11 is covered by North's rook d11 (along e11-n11), n11 and n12
  // by the rook n4. East passes on every turn. North, South and West walk
  // their kings out and back; the loaded position (North to move) recurs
  // every six moves and its 4th occurrence draws: all four share 1st.
  const std::map<std::string, std::string> pieces = {{"h15", "K1"}, {"n4", "R1"}, {"d11", "R1"},
                                                     {"o12", "K2"}, {"h1", "K3"}, {"a8", "K4"}};
  Game g = from(orthogonal(), text(pieces, 1));
  CHECK(g.position().seats_in_check().empty());
  CHECK(g.occurrences() == 1);
  for (int cycle = 1; cycle <= 3; ++cycle) {
    CAPTURE(cycle);
    CHECK_FALSE(g.over());
    g.play("h15g15");
    CHECK(g.position().to_move() == 3);  // East passed
    g.play("h1g1");
    g.play("a8a9");
    CHECK(g.position().to_move() == 1);
    g.play("g15h15");
    g.play("g1h1");
    g.play("a9a8");
    CHECK(g.occurrences() == cycle + 1);
  }
  REQUIRE(g.over());
  CHECK(g.result() == Result{{1, 1, 1, 1}, Reason::repetition});
}
