// Yonin perft: the four rotated armies, and perft's settling of a seat left
// without a legal move. The start counts, pinned to those of an independent
// implementation of the rules of docs/variants/yonin.md (Standard with either
// pawn-drop-mate setting; King-capture equal up to depth 5), are rows of
// tests/data/variants.jsonl.
#include <doctest/doctest.h>

#include "support.hpp"

TEST_CASE("yonin: the four rotated armies give the same counts, full and bulk") {
  // Each seat moving first from the start position faces the same tree.
  for (int seat = 1; seat <= 4; ++seat) {
    CAPTURE(seat);
    auto v = test::variant("yonin.yaml");
    koma::Game g(v->start_position(seat));
    CHECK(g.position().to_move() == seat);
    CHECK(koma::perft(g, 5) == 82134);
    CHECK(koma::perft(g, 4, koma::PerftMode::full) == 6561);
  }
}

namespace {

// Perft the slow way: every move played through Game::play, which settles
// each move completely (a seat left without a legal move is eliminated at
// once). koma::perft leaves that seat to move and settles it only when it
// lists no moves; both must count the same tree.
std::uint64_t perft_by_play(const koma::Game& g, int depth) {
  if (depth == 0) return 1;
  if (g.over()) return 0;
  std::uint64_t n = 0;
  for (koma::Move m : g.legal_moves()) {
    koma::Game next = g;
    next.play(m);
    n += perft_by_play(next, depth - 1);
  }
  return n;
}

}  // namespace

TEST_CASE("perft settles a seat left without a legal move as playing the move does") {
  // West's king on 9a cannot move (8a, 8b and 9b are South's golds'), and
  // is not in check: whatever South plays that leaves it so, West is
  // eliminated on its turn and North moves.
  auto v = test::variant("yonin.yaml");
  koma::Game g(koma::Position::from_text(v, "K23K34/2G16/1G17/9/8K4/9/9/9/4K14 1 - 1 -"));
  koma::Game after = g;
  after.play("5i5h");
  CHECK_FALSE(after.position().active(2));
  CHECK(after.position().to_move() == 3);
  for (int d = 1; d <= 3; ++d) {
    CAPTURE(d);
    CHECK(koma::perft(g, d) == perft_by_play(g, d));
    CHECK(koma::perft(g, d, koma::PerftMode::full) == perft_by_play(g, d));
  }
  // Two seats: Gote's king on 9a boxed in the same way has no move; Gote
  // loses at once, so the tree ends there.
  auto shogi = test::variant("shogi.yaml", {{"impasse", "none"}});
  koma::Game s(koma::Position::from_text(shogi, "k8/2G6/1G7/9/9/9/9/9/4K4 b - 1"));
  for (int d = 1; d <= 3; ++d) {
    CAPTURE(d);
    CHECK(koma::perft(s, d) == perft_by_play(s, d));
  }
  // And divide agrees with the total.
  std::uint64_t sum = 0;
  for (const auto& [m, n] : koma::perft_divide(g, 3)) sum += n;
  CHECK(sum == perft_by_play(g, 3));
}
