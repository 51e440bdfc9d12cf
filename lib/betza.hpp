// Betza notation for piece moves, relative to the piece: x to its right, y
// forward. Supported: atoms W F D A N (and K = WF, R = WW, B = FF, Q = RB),
// a doubled atom or a range number for riders (R, WW, W0 = unlimited; W2 =
// at most two steps), the directional modifiers f b l r v s h, including
// the pairs that pick single oblique moves (ffN = the two narrow forward
// knight jumps), and the modifiers of what a move does: m (move only), c
// (capture only), p (hop over one piece first). See docs/descriptor.md for
// the exact table.
#pragma once
#include <string>
#include <vector>

namespace koma::detail {

struct MoveComponent {
  int x, y;   // one step, piece-relative
  int range;  // 1 for a leap, n for at most n steps, 0 for unlimited
  // What the piece does at the squares it reaches (Betza m, c, p): move to
  // an empty one, capture on an enemy's; a hopper first passes exactly one
  // piece of either side (the screen), its range counted from its own
  // square, the screen's included.
  bool move = true, capture = true, hop = false;
  // A plain component: moves and captures, without hopping.
  bool plain() const { return move && capture && !hop; }
  bool same_kind(const MoveComponent& o) const {
    return move == o.move && capture == o.capture && hop == o.hop;
  }
  bool operator==(const MoveComponent&) const = default;
};

struct BetzaResult {
  std::vector<MoveComponent> moves;
  std::string error;  // empty on success
  int error_at = 0;   // character index of the problem
};

BetzaResult parse_betza(const std::string& text);

// A double move (pieces.<letter>.double, chu shogi's lion): `<first>a<then>`
// in the spirit of XBetza's `a` chain. The first leg is one or more single
// steps (W, F or K with directions, range 1: `K`, `fW`, `fF`); the second
// leg's steps are read from the first one's end, its directions relative
// to the first step: none, every step of its atom (W, F or K: the lion's
// `KaK`); or f (straight on), b (back to the start), v (both), s (the two
// steps square to it), on an atom of the first step's shape (the falcon's
// `fWavW`, the eagle's `fFavF`).
struct DoubleStep {
  int x, y;                               // the first step, piece-relative
  std::vector<std::pair<int, int>> then;  // the second steps from there
};
struct DoubleResult {
  std::vector<DoubleStep> steps;
  std::string error;  // empty on success
  int error_at = 0;   // character index of the problem
};
DoubleResult parse_double(const std::string& text);

}  // namespace koma::detail
