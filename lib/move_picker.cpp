#include "move_picker.hpp"

#include "rules.hpp"

#include <algorithm>

namespace koma::detail {

// ---------------------------------------------------------------- statistics

void MoveStats::reset(const VariantData& v) {
  nsq_ = v.nsq;
  nk_ = static_cast<int>(v.kinds.size());
  pieces_ = nk_ * nsq_;
  main_.assign(static_cast<std::size_t>(2) * (nsq_ + nk_) * nsq_, 0);
  captures_.assign(static_cast<std::size_t>(2) * pieces_ * nk_, 0);
  zero_.assign(static_cast<std::size_t>(pieces_), 0);
  // Two seats' rows of every (kind, square) against every (kind, square):
  // 5 MB for shogi; beyond 16 M entries (32 MB) the board goes without.
  const std::size_t rows = static_cast<std::size_t>(2) * pieces_;
  if (rows * pieces_ > (std::size_t{1} << 24)) {
    cont_.clear();
    return;
  }
  // Every row reads as cleared for the new epoch (row()); a new size, or an
  // epoch count come round, starts from zeros.
  if (cont_.size() != rows * pieces_ || ++epoch_ == 0) {
    cont_.assign(rows * pieces_, 0);
    row_epoch_.assign(rows, 0);
    epoch_ = 1;
  }
}

void MoveStats::nudge(std::int16_t& e, int bonus, int range) {
  bonus = std::clamp(bonus, -range, range);
  e = static_cast<std::int16_t>(e + bonus - e * std::abs(bonus) / range);
}

// ---------------------------------------------------------------- exchange

namespace {

// The pieces that may take on one square, and the exchange played out there
// cheapest piece first: leapers once each, and along each slide line the
// nearest piece, then the one behind it. Arrays are left unfilled beyond
// their counts (zeroing them cost a fifth of the exchange's time).
class Exchange {
 public:
  Exchange(const VariantData& v, const State& s, Move m)
      : v_(v), s_(s), from_(m.is_drop() ? -1 : m.from) {
    const int to = m.to;
    const int us = s.to_move;
    enemy_ = v.attackers_of(s, us);
    for (int o = 0; o < v.nseats; ++o)
      if (!v.enemies(us, o) && s.active(o)) own_ |= 1u << o;
    const unsigned both = own_ | enemy_;
    const auto* base = v.leaps_near.data();
    for (auto* p = base + v.leaps_near_at[static_cast<std::size_t>(to)];
         p != base + v.leaps_near_at[static_cast<std::size_t>(to) + 1]; ++p) {
      const Cell c = s.cells[p->q];
      if (p->q == from_ || !is_piece(c.code) || !((both >> c.owner) & 1u)) continue;
      if (v.range[static_cast<std::size_t>(c.code) * v.nvec + p->vi] > 0 && nleapers_ < kLeapers)
        leapers_[static_cast<std::size_t>(nleapers_++)] = Leaper{p->q, false};
    }
    const auto* sbase = v.slides_near.data();
    for (auto* p = sbase + v.slides_near_at[static_cast<std::size_t>(to)];
         p != sbase + v.slides_near_at[static_cast<std::size_t>(to) + 1] && nlines_ < kLines; ++p) {
      const std::uint8_t* walk = &v.rev[v.rev_at[static_cast<std::size_t>(to) * v.nvec + *p]];
      Slider l{walk + 1, *walk, *p, -1};
      advance(l);
      if (l.front < l.len) lines_[static_cast<std::size_t>(nlines_++)] = l;
    }
  }

  unsigned own() const { return own_; }
  unsigned enemy() const { return enemy_; }

  // The cheapest piece of a seat in `seats` that can take now: how to take
  // it away (a leaper's index, or a line's + 64; -1 for none), its value
  // (kWin for a royal).
  int cheapest(unsigned seats, int& value) const {
    int best = -1;
    value = 0;
    for (int i = 0; i < nleapers_; ++i) {
      const Leaper& l = leapers_[static_cast<std::size_t>(i)];
      if (l.used) continue;
      const Cell c = s_.cells[l.sq];
      if (!((seats >> c.owner) & 1u)) continue;
      const int val = worth(c.code);
      if (best < 0 || val < value) best = i, value = val;
    }
    for (int i = 0; i < nlines_; ++i) {
      const Slider& l = lines_[static_cast<std::size_t>(i)];
      if (l.front >= l.len) continue;
      const Cell c = s_.cells[l.squares[l.front]];
      if (!((seats >> c.owner) & 1u)) continue;
      const int val = worth(c.code);
      if (best < 0 || val < value) best = 64 + i, value = val;
    }
    return best;
  }

  void take_away(int which) {
    if (which < 64)
      leapers_[static_cast<std::size_t>(which)].used = true;
    else
      advance(lines_[static_cast<std::size_t>(which - 64)]);
  }

 private:
  struct Leaper {
    int sq;
    bool used;
  };
  // One line of pieces behind one another that may take on the square,
  // walked back from it along a slide vector: the next one to come is `front`.
  struct Slider {
    const std::uint8_t* squares;
    int len, vi, front;
  };
  static constexpr int kLeapers = 32, kLines = 16;

  int worth(std::uint8_t code) const {
    return v_.kinds[kind_of(code)].royal ? kWin : piece_value(v_, kind_of(code));
  }
  // Moves the line's front to its next piece; past its end where that one
  // cannot take along the line (nor can any behind it, then).
  void advance(Slider& l) const {
    for (++l.front; l.front < l.len; ++l.front) {
      const int q = l.squares[l.front];
      const Cell c = s_.cells[q];
      if (q == from_ || c.code == kEmpty) continue;
      if (!is_piece(c.code) ||
          v_.range[static_cast<std::size_t>(c.code) * v_.nvec + l.vi] <= l.front)
        l.front = l.len;
      return;
    }
  }

  const VariantData& v_;
  const State& s_;
  int from_;
  unsigned own_ = 0, enemy_ = 0;
  int nleapers_ = 0, nlines_ = 0;
  std::array<Leaper, kLeapers> leapers_;  // NOLINT(cppcoreguidelines-pro-type-member-init)
  std::array<Slider, kLines> lines_;      // NOLINT(cppcoreguidelines-pro-type-member-init)
};

}  // namespace

bool exchange_at_least(const VariantData& v, const State& s, Move m, int threshold) {
  // What the move takes at once (with a promotion's gain) and the value of
  // the piece it leaves on the square.
  int first = 0;
  int at_risk = 0;
  const Cell target = s.cells[m.to];
  if (m.is_double()) [[unlikely]]
    first = captured_value(v, s, m);
  else if (is_piece(target.code))
    first = piece_value(v, kind_of(target.code));
  if (m.is_drop()) {
    at_risk = piece_value(v, m.kind);
  } else {
    const int kind = kind_of(s.cells[m.from].code);
    at_risk = piece_value(v, kind);
    if (m.promote) {
      const int promoted = piece_value(v, v.flip_of(kind));
      first += promoted - at_risk;
      at_risk = promoted;
    }
  }
  // The exchange is worth at most what the move takes, and at least that
  // less the piece left on the square (the mover may stop after one
  // recapture): most moves are decided here without looking at the square.
  if (first < threshold) return false;
  if (first - at_risk >= threshold) return true;

  Exchange x(v, s, m);
  std::array<int, 40> gain;  // NOLINT(cppcoreguidelines-pro-type-member-init): filled up to d
  gain[0] = first;
  int d = 0;
  unsigned side = x.enemy();
  for (;;) {
    int value = 0;
    const int which = x.cheapest(side, value);
    if (which < 0) break;
    const bool royal = value == kWin;
    x.take_away(which);
    // A royal may take only where nothing takes it back.
    int other = 0;
    if (royal && x.cheapest(side == x.enemy() ? x.own() : x.enemy(), other) >= 0) break;
    ++d;
    gain[static_cast<std::size_t>(d)] = at_risk - gain[static_cast<std::size_t>(d) - 1];
    at_risk = royal ? 0 : value;
    if (d + 1 >= static_cast<int>(gain.size())) break;
    side = side == x.enemy() ? x.own() : x.enemy();
  }
  while (d > 0) {
    gain[static_cast<std::size_t>(d) - 1] =
        -std::max(-gain[static_cast<std::size_t>(d) - 1], gain[static_cast<std::size_t>(d)]);
    --d;
  }
  return gain[0] >= threshold;
}

// ---------------------------------------------------------------- picker

namespace {

// Best first; ties in generation order.
// (A function object, not a function: std::sort inlines its calls.)
struct Before {
  bool operator()(const MovePicker::Scored& a, const MovePicker::Scored& b) const {
    return a.score != b.score ? a.score > b.score : a.index < b.index;
  }
};

}  // namespace

MovePicker::MovePicker(const VariantData& v, const Line& line, MoveStats& stats,
                       std::vector<Scored>& pool, MoveList& scratch, Move table_move,
                       const std::array<Move, 2>& killers,
                       const std::array<const std::int16_t*, 3>& cont)
    : v_(v),
      line_(line),
      s_(line.back()),
      stats_(stats),
      pool_(pool),
      scratch_(scratch),
      table_(table_move),
      killers_(killers),
      cont_(cont),
      us_(line.back().to_move),
      base_(pool.size()) {}

void MovePicker::list_moves() {
  legal_moves(v_, line_, scratch_);
  any_legal_ = any_legal_ || !scratch_.empty();
  // The tactical moves go to the pool, the quiet ones to the front of the
  // list (in order) until they follow them.
  int index = 0;
  std::size_t quiet = 0;
  for (Move m : scratch_) {
    const int captured = captured_kind(s_, m);
    if (captured < 0 && !m.promote) {
      scratch_[quiet++] = m;
      continue;
    }
    const int gain = captured >= 0 ? piece_value(v_, captured) : 0;
    const int kind = moved_kind(s_, m);
    const int score = 6 * gain + stats_.capture(us_, kind, m.to, captured >= 0 ? captured : kind);
    pool_.push_back(Scored{m, score, index++});
  }
  std::sort(pool_.begin() + static_cast<std::ptrdiff_t>(base_), pool_.end(), Before{});
  cur_ = bad_end_ = base_;
  tactical_end_ = pool_.size();
  for (std::size_t i = 0; i < quiet; ++i) pool_.push_back(Scored{scratch_[i], 0, index++});
}

bool MovePicker::next_tactical(Move& m) {
  while (cur_ < tactical_end_) {
    const Scored x = pool_[cur_++];
    if (table_legal_ && x.m == table_) continue;
    const int captured = captured_kind(s_, x.m);
    const int gain = captured >= 0 ? piece_value(v_, captured) : 0;
    if (exchange_at_least(v_, s_, x.m, -gain / 16)) {
      m = x.m;
      return true;
    }
    pool_[bad_end_++] = x;  // in the order passed: the bad stage's order
  }
  return false;
}

bool MovePicker::next_killer(Move& m) {
  while (killer_ < 2) {
    const Move k = killers_[static_cast<std::size_t>(killer_++)];
    if ((table_legal_ && k == table_) || (killer_ == 2 && k == killers_[0])) continue;
    if (passed_over(k)) continue;
    for (std::size_t i = tactical_end_; i < pool_.size(); ++i)
      if (pool_[i].m == k) {
        killers_given_[static_cast<std::size_t>(nkillers_given_++)] = k;
        m = k;
        return true;
      }
  }
  return false;
}

bool MovePicker::next_quiet(Move& m) {
  if (!quiets_scored_) {
    quiets_scored_ = true;
    const auto [c1, c2, c4] = cont_;
    for (std::size_t i = tactical_end_; i < pool_.size(); ++i) {
      const Move q = pool_[i].m;
      const int pt = stats_.piece_to(moved_kind(s_, q), q.to);
      pool_[i].score = stats_.quiet(us_, q) + 2 * c1[pt] + 2 * c2[pt] + c4[pt];
    }
  }
  if (skip_quiets_ && check_reach_ && !quiets_pruned_) {
    // The moves passed over from now on need no place in the order.
    quiets_pruned_ = true;
    pool_.erase(std::remove_if(pool_.begin() + static_cast<std::ptrdiff_t>(cur_), pool_.end(),
                               [&](const Scored& x) { return passed_over(x.m); }),
                pool_.end());
  }
  while (cur_ < pool_.size()) {
    // The first few by selection (most nodes are cut or stop trying quiet
    // moves early), the rest sorted: the same order either way, as no two
    // moves compare equal.
    const auto at = pool_.begin() + static_cast<std::ptrdiff_t>(cur_);
    if (!quiets_sorted_ && quiets_selected_ < kSelected) {
      std::iter_swap(at, std::min_element(at, pool_.end(), Before{}));
      ++quiets_selected_;
    } else if (!quiets_sorted_) {
      std::sort(at, pool_.end(), Before{});
      quiets_sorted_ = true;
    }
    const Move q = pool_[cur_++].m;
    if ((table_legal_ && q == table_) || passed_over(q)) continue;
    bool given = false;
    for (int i = 0; i < nkillers_given_; ++i)
      given = given || killers_given_[static_cast<std::size_t>(i)] == q;
    if (given) continue;
    m = q;
    return true;
  }
  return false;
}

bool MovePicker::next(Move& m) {
  switch (stage_) {
    case Stage::table:
      stage_ = Stage::tactical;
      table_legal_ = table_ != Move{} && legal_move(v_, line_, table_);
      if (table_legal_) {
        any_legal_ = true;
        m = table_;
        given_ = Stage::table;
        return true;
      }
      [[fallthrough]];
    case Stage::tactical:
      if (!listed_) {
        listed_ = true;
        list_moves();
      }
      if (next_tactical(m)) return give(Stage::tactical);
      cur_ = tactical_end_;
      stage_ = Stage::killers;
      [[fallthrough]];
    case Stage::killers:
      if (next_killer(m)) return give(Stage::killers);
      stage_ = Stage::quiet;
      [[fallthrough]];
    case Stage::quiet:
      if (next_quiet(m)) return give(Stage::quiet);
      stage_ = Stage::bad;
      cur_ = base_;
      [[fallthrough]];
    case Stage::bad:
      if (cur_ < bad_end_) {
        m = pool_[cur_++].m;
        return give(Stage::bad);
      }
      stage_ = Stage::done;
      [[fallthrough]];
    case Stage::done:
      break;
  }
  return false;
}

}  // namespace koma::detail
