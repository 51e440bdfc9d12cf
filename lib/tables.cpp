#include "tables.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>

namespace koma::detail {
namespace {

using Moves = std::vector<std::vector<MoveComponent>>;

// Piece-relative (x right, y forward) to screen (dx right, dy down).
std::array<int, 2> to_screen(int x, int y, int facing) {
  switch (facing) {
    case 0:
      return {x, -y};
    case 1:
      return {y, x};
    case 2:
      return {-x, y};
    default:
      return {-y, -x};
  }
}

// The square one screen step from `sq`, or -1 off the board or on a void.
int step(const VariantData& v, int sq, int dx, int dy) {
  const int x = sq % v.width + dx, y = sq / v.width + dy;
  if (x < 0 || y < 0 || x >= v.width || y >= v.height) return -1;
  const int t = y * v.width + x;
  return v.board.test(t) ? t : -1;
}

// The squares `limit` steps (or fewer) from `sq` along (dx, dy), nearest
// first, into `out`.
void walk(const VariantData& v, int sq, int dx, int dy, int limit, std::vector<int>& out) {
  out.clear();
  for (int s = sq, n = 0; n < limit; ++n) {
    s = step(v, s, dx, dy);
    if (s < 0) break;
    out.push_back(s);
  }
}

int limit_of(const MoveComponent& m) {
  return m.range == 0 ? 255 : m.range;
}

// The kind of a ray that is not plain (VariantData::xrays).
std::uint8_t ray_kind(const MoveComponent& m) {
  return static_cast<std::uint8_t>((m.move ? VariantData::kRayMove : 0) |
                                   (m.capture ? VariantData::kRayCapture : 0) |
                                   (m.hop ? VariantData::kRayHop : 0));
}

// Vectors: the distinct screen steps of every kind and facing (vecs), each
// code's attacking range along each (range for the plain and capture-only
// moves, hop_range for the hops that capture), and the longest attack along
// each, which this returns.
std::vector<int> compile_vectors(VariantData& v, const Moves& moves) {
  const int nk = static_cast<int>(v.kinds.size());
  for (int k = 0; k < nk; ++k)
    for (int f = 0; f < 4; ++f)
      for (const auto& m : moves[k]) {
        const auto sv = to_screen(m.x, m.y, f);
        if (std::find(v.vecs.begin(), v.vecs.end(), sv) == v.vecs.end()) v.vecs.push_back(sv);
      }
  v.nvec = static_cast<int>(v.vecs.size());
  // Every cell code has a row, the empty, overturned and void ones all
  // zero: an attack test reads its cell's row without asking what it holds.
  v.range.assign(std::size_t{256} * v.nvec, 0);
  std::vector<int> max_range(v.nvec, 0);
  for (int k = 0; k < nk; ++k)
    for (int f = 0; f < 4; ++f)
      for (const auto& m : moves[k]) {
        if (!m.capture) continue;
        if (m.hop && v.hop_range.empty()) {
          v.hop_range.assign(std::size_t{256} * v.nvec, 0);
          v.hoppers = true;
        }
        const auto sv = to_screen(m.x, m.y, f);
        const auto vi = std::find(v.vecs.begin(), v.vecs.end(), sv) - v.vecs.begin();
        auto& slot =
            (m.hop ? v.hop_range : v.range)[static_cast<std::size_t>(code_of(k, f)) * v.nvec + vi];
        slot = static_cast<std::uint8_t>(std::max(static_cast<int>(slot), limit_of(m)));
        max_range[vi] = std::max(max_range[vi], limit_of(m));
      }
  return max_range;
}

// Whether two rays of one piece may list one move: they share a square,
// unless they go along one vector and one hops and the other does not (the
// one stops at the first piece, the other passes it), or one only moves and
// the other only captures.
bool may_repeat(const MoveComponent& a, const MoveComponent& b, const SquareSet& a_squares,
                const SquareSet& b_squares) {
  if (a.x == b.x && a.y == b.y && (a.hop != b.hop || (a.move != b.move && a.capture != b.capture)))
    return false;
  return (a_squares & b_squares).any();
}

// Rays: per code and square, the squares along each of its moves (rays,
// ray_at for the plain ones; xrays, xray_at for the others), those it may
// capture on (reach_from), whether two rays may list one move
// (rays_overlap), whether some ray is longer than a step (rides), and the
// squares where the piece has no move at all (dead).
void compile_rays(VariantData& v, const Moves& moves) {
  const int nk = static_cast<int>(v.kinds.size());
  // One buffer for every ray: a vector per ray made loading slow (and
  // Variant::load is on koma-usi's path for every rule change).
  std::vector<int> squares;
  squares.reserve(16);
  std::vector<SquareSet> ray_squares;
  v.ray_at.assign(static_cast<std::size_t>(v.ncodes) * v.nsq, 0);
  v.xray_at.assign(static_cast<std::size_t>(v.ncodes) * v.nsq, 0);
  v.reach_from.assign(static_cast<std::size_t>(v.ncodes) * v.nsq, SquareSet{});
  v.dead.assign(static_cast<std::size_t>(v.ncodes), SquareSet{});
  v.rides.assign(static_cast<std::size_t>(v.ncodes), 0);
  v.rays_overlap.assign(static_cast<std::size_t>(v.ncodes), 0);
  v.rays.push_back(0);   // code 0 / voids: no rays
  v.xrays.push_back(0);  // nor other ones
  for (int k = 0; k < nk; ++k)
    for (int f = 0; f < 4; ++f) {
      const auto code = static_cast<std::size_t>(code_of(k, f));
      for (int sq = 0; sq < v.nsq; ++sq) {
        if (!v.board.test(sq)) continue;
        v.ray_at[code * v.nsq + sq] = static_cast<std::uint32_t>(v.rays.size());
        v.xray_at[code * v.nsq + sq] = static_cast<std::uint32_t>(v.xrays.size());
        const std::size_t count_at = v.rays.size(), xcount_at = v.xrays.size();
        v.rays.push_back(0);
        v.xrays.push_back(0);
        SquareSet& reach = v.reach_from[code * v.nsq + sq];
        ray_squares.assign(moves[k].size(), SquareSet{});
        bool moves_somewhere = false;
        for (std::size_t i = 0; i < moves[k].size(); ++i) {
          const MoveComponent& m = moves[k][i];
          const auto sv = to_screen(m.x, m.y, f);
          walk(v, sq, sv[0], sv[1], limit_of(m), squares);
          // A hop needs a screen and a square beyond it.
          if (squares.size() < (m.hop ? 2u : 1u)) continue;
          std::vector<std::uint8_t>& table = m.plain() ? v.rays : v.xrays;
          ++table[m.plain() ? count_at : xcount_at];
          if (!m.plain()) table.push_back(ray_kind(m));
          table.push_back(static_cast<std::uint8_t>(squares.size()));
          for (int s : squares) {
            table.push_back(static_cast<std::uint8_t>(s));
            ray_squares[i].set(s);
          }
          if (m.capture) reach |= ray_squares[i];
          moves_somewhere = true;
          if (squares.size() > 1) v.rides[code] = 1;
          for (std::size_t j = 0; j < i; ++j)
            if (may_repeat(m, moves[k][j], ray_squares[i], ray_squares[j]))
              v.rays_overlap[code] = 1;
        }
        if (v.xrays[xcount_at] > 0) {
          v.rays[count_at] |= VariantData::kMoreRays;
          v.all_plain = false;
        }
        if (!moves_somewhere) v.dead[code].set(sq);
      }
    }
}

// Walks back: from each square along each vector reversed, the squares a
// piece attacking it along that vector could stand on (rev, rev_at,
// rev_first, rev_bits on boards of at most 64 squares), and which vectors
// are leaps and which slides.
void compile_walks_back(VariantData& v, const std::vector<int>& max_range) {
  std::vector<int> squares;
  for (int vi = 0; vi < v.nvec; ++vi) {
    const int dx = -v.vecs[vi][0], dy = -v.vecs[vi][1];
    v.rev_delta.push_back(static_cast<std::int16_t>(dy * v.width + dx));
    v.rev_up.push_back(dy > 0 || (dy == 0 && dx > 0));
    (max_range[vi] > 1 ? v.slide_vecs : v.leap_vecs).push_back(vi);
  }
  if (v.nsq <= 64) v.rev_bits.assign(static_cast<std::size_t>(v.nsq) * v.nvec, 0);
  v.rev_at.assign(static_cast<std::size_t>(v.nsq) * v.nvec, 0);
  v.rev_first.assign(static_cast<std::size_t>(v.nsq) * v.nvec, -1);
  v.rev.push_back(0);
  for (int sq = 0; sq < v.nsq; ++sq) {
    if (!v.board.test(sq)) continue;
    for (int vi = 0; vi < v.nvec; ++vi) {
      walk(v, sq, -v.vecs[vi][0], -v.vecs[vi][1], max_range[vi], squares);
      if (squares.empty()) continue;
      const std::size_t at = static_cast<std::size_t>(sq) * v.nvec + vi;
      v.rev_at[at] = static_cast<std::uint32_t>(v.rev.size());
      v.rev.push_back(static_cast<std::uint8_t>(squares.size()));
      v.rev_first[at] = static_cast<std::int16_t>(squares[0]);
      for (int s : squares) v.rev.push_back(static_cast<std::uint8_t>(s));
      if (!v.rev_bits.empty())
        for (int s : squares) v.rev_bits[at] |= std::uint64_t{1} << s;
    }
  }
}

// Near lists: per square, only the vectors along which something can stand
// (the leap vectors with their first square, the slide vectors with a walk).
void compile_near_lists(VariantData& v) {
  for (int sq = 0; sq <= v.nsq; ++sq) {
    v.leaps_near_at.push_back(static_cast<std::uint32_t>(v.leaps_near.size()));
    v.slides_near_at.push_back(static_cast<std::uint32_t>(v.slides_near.size()));
    if (sq == v.nsq || !v.board.test(sq)) continue;
    const std::size_t at = static_cast<std::size_t>(sq) * v.nvec;
    for (int vi : v.leap_vecs)
      if (v.rev_first[at + vi] >= 0)
        v.leaps_near.push_back({static_cast<std::int16_t>(vi), v.rev_first[at + vi]});
    for (int vi : v.slide_vecs)
      if (v.rev_first[at + vi] >= 0) v.slides_near.push_back(static_cast<std::int16_t>(vi));
  }
}

// Check lines: per square, the squares from which some piece could attack
// it (reach_to), and the one slide line or leap that joins two squares
// (line_to, leap_to), from the walks back.
void compile_check_lines(VariantData& v) {
  const auto nsq = static_cast<std::size_t>(v.nsq);
  v.reach_to.assign(nsq, SquareSet{});
  v.line_to.assign(nsq * nsq, VariantData::kNoLine);
  v.leap_to.assign(nsq * nsq, VariantData::kNoLine);
  for (std::size_t at = 0; at < nsq; ++at) {
    SquareSet& r = v.reach_to[at];
    for (auto i = v.leaps_near_at[at]; i < v.leaps_near_at[at + 1]; ++i) {
      const VariantData::Near& near = v.leaps_near[i];
      r.set(near.q);
      std::int16_t& leap = v.leap_to[at * nsq + static_cast<std::size_t>(near.q)];
      leap = leap == VariantData::kNoLine ? near.vi : VariantData::kManyLines;
    }
    for (auto i = v.slides_near_at[at]; i < v.slides_near_at[at + 1]; ++i) {
      const std::uint8_t* back = &v.rev[v.rev_at[at * v.nvec + v.slides_near[i]]];
      for (int k = 1; k <= back[0]; ++k) {
        r.set(back[k]);
        std::int16_t& line = v.line_to[at * nsq + back[k]];
        line = line == VariantData::kNoLine ? v.slides_near[i] : VariantData::kManyLines;
      }
    }
  }
}

// The `depth` rows (or columns) at the far edge along `facing`.
SquareSet far_rows(const VariantData& v, int facing, int depth) {
  SquareSet z;
  for (int sq = 0; sq < v.nsq; ++sq) {
    if (!v.board.test(sq)) continue;
    const int x = sq % v.width, y = sq / v.width;
    const bool in = facing == 0   ? y < depth
                    : facing == 2 ? y >= v.height - depth
                    : facing == 1 ? x >= v.width - depth
                                  : x < depth;
    if (in) z.set(sq);
  }
  return z;
}

// Zones: promotion zones by facing and by owner, goals by owner, and which
// axis is a file for each facing (drops' per_file).
void compile_zones(VariantData& v) {
  const PromotionRules& p = v.rules.promotion;
  v.file_axis = {0, 1, 0, 1};
  for (int f = 0; f < 4; ++f)
    v.zone_of_facing[f] = p.zone == ZoneRule::far_rows ? far_rows(v, f, p.depth) : SquareSet{};
  for (int s = 0; s < v.nseats; ++s) {
    if (v.rules.end.goal.depth > 0)
      v.goal_of_owner[s] = far_rows(v, v.seat_facing[s], v.rules.end.goal.depth);
    if (p.zone == ZoneRule::far_rows) v.zone_of_owner[s] = far_rows(v, v.seat_facing[s], p.depth);
    if (p.zone == ZoneRule::enemy_homes)
      for (int o = 0; o < v.nseats; ++o)
        if (v.enemies(s, o)) v.zone_of_owner[s] |= v.home[o];
  }
}

// The evaluation's tables: each square's column and row, king steps between
// squares, the squares within two steps, and each kind's value.
void compile_evaluation_tables(VariantData& v) {
  for (int sq = 0; sq < v.nsq; ++sq) {
    v.col.push_back(static_cast<std::uint8_t>(sq % v.width));
    v.row.push_back(static_cast<std::uint8_t>(sq / v.width));
  }
  for (std::size_t k = 0; k < v.kinds.size(); ++k)
    v.value100[k] = 100 * std::max(v.kinds[k].value, 1);
  for (int a = 0; a < v.nsq; ++a)
    for (int b = 0; b < v.nsq; ++b)
      v.steps.push_back(static_cast<std::uint8_t>(
          std::max(std::abs(v.col[a] - v.col[b]), std::abs(v.row[a] - v.row[b]))));
  v.near2.assign(static_cast<std::size_t>(v.nsq), SquareSet{});
  for (int a = 0; a < v.nsq; ++a)
    for (int b = 0; b < v.nsq; ++b)
      if (v.board.test(b) && v.king_steps(a, b) <= 2) v.near2[static_cast<std::size_t>(a)].set(b);
}

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Zobrist keys from a fixed seed: the same variant hashes alike everywhere.
void compile_hashing(VariantData& v) {
  std::uint64_t seed = 0x6B6F6D61ull;  // "koma"
  v.z_cell.assign(static_cast<std::size_t>(v.ncodes) * v.nseats * v.nsq, 0);
  for (auto& z : v.z_cell) z = splitmix(seed);
  v.z_overturned.assign(static_cast<std::size_t>(v.nseats) * v.nsq, 0);
  for (auto& z : v.z_overturned) z = splitmix(seed);
  // The hand keys of the first 32 kinds come where they came when there
  // could be no more (so the keys, and the CPU players' games that draw
  // on them, stayed as they were), the others last.
  constexpr std::size_t kFirstKinds = 32;
  for (auto& seat : v.z_hand)
    for (std::size_t k = 0; k < kFirstKinds; ++k) seat[k] = splitmix(seed);
  for (auto& z : v.z_turn) z = splitmix(seed);
  for (auto& z : v.z_elim) z = splitmix(seed);
  for (auto& seat : v.z_hand)
    for (std::size_t k = kFirstKinds; k < seat.size(); ++k) seat[k] = splitmix(seed);
  v.z_strike.assign(static_cast<std::size_t>(v.nsq), 0);
  for (auto& z : v.z_strike) z = splitmix(seed);
}

// Double moves: per code and square, each first step's square and the
// second steps' squares from there, cut to the board (VariantData::doubles).
void compile_doubles(VariantData& v, const std::vector<std::vector<DoubleStep>>& doubles) {
  v.double_movers = std::any_of(doubles.begin(), doubles.end(),
                                [](const std::vector<DoubleStep>& d) { return !d.empty(); });
  v.doubles.assign(1, 0);
  if (!v.double_movers) return;
  v.all_plain = false;
  v.double_at.assign(static_cast<std::size_t>(v.ncodes) * static_cast<std::size_t>(v.nsq), 0);
  for (std::size_t k = 0; k < doubles.size(); ++k) {
    if (doubles[k].empty()) continue;
    for (int f = 0; f < 4; ++f) {
      const auto code = static_cast<std::size_t>(code_of(static_cast<int>(k), f));
      for (int sq = 0; sq < v.nsq; ++sq) {
        if (!v.board.test(sq)) continue;
        const std::size_t count_at = v.doubles.size();
        v.double_at[code * static_cast<std::size_t>(v.nsq) + static_cast<std::size_t>(sq)] =
            static_cast<std::uint32_t>(count_at);
        v.doubles.push_back(0);
        for (const DoubleStep& d : doubles[k]) {
          const auto first = to_screen(d.x, d.y, f);
          const int mid = step(v, sq, first[0], first[1]);
          if (mid < 0) continue;
          ++v.doubles[count_at];
          v.doubles.push_back(static_cast<std::uint8_t>(mid));
          const std::size_t then_at = v.doubles.size();
          v.doubles.push_back(0);
          for (const auto& [x, y] : d.then) {
            const auto second = to_screen(x, y, f);
            const int to = step(v, mid, second[0], second[1]);
            if (to < 0) continue;
            ++v.doubles[then_at];
            v.doubles.push_back(static_cast<std::uint8_t>(to));
          }
        }
      }
    }
  }
}

}  // namespace

// The square behind each square for each facing (VariantData::behind).
void compile_behind(VariantData& v) {
  v.borrows = v.rules.moves_as == MovesAs::behind;
  if (v.borrows) v.all_plain = false;
  const auto nsq = static_cast<std::size_t>(v.nsq);
  v.behind.assign(4 * nsq, -1);
  for (int f = 0; f < 4; ++f) {
    const auto back = to_screen(0, -1, f);
    for (int sq = 0; sq < v.nsq; ++sq)
      if (v.board.test(sq))
        v.behind[static_cast<std::size_t>(f) * nsq + static_cast<std::size_t>(sq)] =
            static_cast<std::int16_t>(step(v, sq, back[0], back[1]));
  }
}

void compile_tables(VariantData& v, const Moves& moves,
                    const std::vector<std::vector<DoubleStep>>& doubles) {
  v.ncodes = static_cast<int>(v.kinds.size()) * 4 + 1;
  compile_behind(v);
  compile_doubles(v, doubles);
  // The lion-trading rules are tested where the generator tests what is
  // not plain.
  if (v.rules.lions.lions) v.all_plain = false;
  v.unusual_moves = v.double_movers || v.counter_strike();
  const std::vector<int> max_range = compile_vectors(v, moves);
  compile_rays(v, moves);
  compile_walks_back(v, max_range);
  compile_near_lists(v);
  compile_check_lines(v);
  compile_zones(v);
  compile_evaluation_tables(v);
  compile_hashing(v);
}

}  // namespace koma::detail
