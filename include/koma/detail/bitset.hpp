// Internal: a 256-bit square set, one bit per cell of a board of at most 16x16.
#pragma once
#include <bit>
#include <cstdint>

namespace koma::detail {

struct SquareSet {
  // A plain array on purpose: as std::array (same instructions) the perft of
  // the shogi start position measured about 5% slower.
  std::uint64_t w[4] = {0, 0, 0, 0};  // NOLINT(modernize-avoid-c-arrays)

  bool test(int sq) const { return (w[sq >> 6] >> (sq & 63)) & 1u; }
  void set(int sq) { w[sq >> 6] |= std::uint64_t{1} << (sq & 63); }
  void reset(int sq) { w[sq >> 6] &= ~(std::uint64_t{1} << (sq & 63)); }
  bool any() const { return (w[0] | w[1] | w[2] | w[3]) != 0; }
  // Empty words skipped: without a popcount instruction in the baseline
  // x86-64 target each std::popcount is a library call, and boards up to 128
  // squares leave the last two words empty.
  int count() const {
    int n = 0;
    for (std::uint64_t word : w)
      if (word) n += std::popcount(word);
    return n;
  }
  SquareSet operator&(const SquareSet& o) const {
    return {{w[0] & o.w[0], w[1] & o.w[1], w[2] & o.w[2], w[3] & o.w[3]}};
  }
  SquareSet operator|(const SquareSet& o) const {
    return {{w[0] | o.w[0], w[1] | o.w[1], w[2] | o.w[2], w[3] | o.w[3]}};
  }
  SquareSet operator~() const { return {{~w[0], ~w[1], ~w[2], ~w[3]}}; }
  SquareSet& operator|=(const SquareSet& o) { return *this = *this | o; }
  SquareSet& operator&=(const SquareSet& o) { return *this = *this & o; }
  bool operator==(const SquareSet&) const = default;

  // Lowest and highest member; the set must not be empty.
  int lowest() const {
    for (int i = 0; i < 4; ++i)
      if (w[i]) return i * 64 + std::countr_zero(w[i]);
    return -1;
  }
  int highest() const {
    for (int i = 3; i >= 0; --i)
      if (w[i]) return i * 64 + 63 - std::countl_zero(w[i]);
    return -1;
  }

  // Calls f(square) for every member in increasing order.
  template <class F>
  void each(F&& f) const {
    for (int i = 0; i < 4; ++i)
      for (std::uint64_t b = w[i]; b; b &= b - 1) f(i * 64 + std::countr_zero(b));
  }
  // Calls f(square) for the members in increasing order until one returns
  // true; returns whether one did.
  template <class F>
  bool any_of(F&& f) const {
    for (int i = 0; i < 4; ++i)
      for (std::uint64_t b = w[i]; b; b &= b - 1)
        if (f(i * 64 + std::countr_zero(b))) return true;
    return false;
  }
};

}  // namespace koma::detail
