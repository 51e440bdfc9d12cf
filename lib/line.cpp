#include "line.hpp"

namespace koma::detail {

namespace {

std::uint64_t hash_of(const State& s) {
  return s.board_key ^ s.hand_key;
}

}  // namespace

Line::Line(const VariantData& v, const State& start) : v_(&v), states_{start} {
  buckets_.assign(64, -1);
  Entry e;
  e.cls = 0;
  e.peak = 1;
  e.serial = ++pushes_;
  entries_.push_back(e);
  classes_.push_back(Class{hash_of(start), 0, 1, -1});
  buckets_[bucket_of(hash_of(start))] = 0;
}

void Line::reserve(std::size_t n) {
  states_.reserve(n);
  entries_.reserve(n);
}

std::size_t Line::bucket_of(std::uint64_t hash) const {
  return static_cast<std::size_t>(hash * 0x9E3779B97F4A7C15ull >> 20) & (buckets_.size() - 1);
}

void Line::grow_buckets() {
  buckets_.assign(buckets_.size() * 2, -1);
  for (std::size_t c = 0; c < classes_.size(); ++c) {
    std::int32_t& head = buckets_[bucket_of(classes_[c].hash)];
    classes_[c].prev = head;
    head = static_cast<std::int32_t>(c);
  }
}

int Line::find_class(const State& s, std::uint64_t hash) const {
  for (int c = buckets_[bucket_of(hash)]; c >= 0; c = classes_[static_cast<std::size_t>(c)].prev) {
    const Class& cls = classes_[static_cast<std::size_t>(c)];
    if (cls.hash == hash && same_position(*v_, states_[cls.first], s)) return c;
  }
  return -1;
}

void Line::push(const State& s, int mover, bool gave_check, KnownChecks checks) {
  states_.push_back(s);
  note_pushed(mover, gave_check, checks);
}

void Line::note_pushed(int mover, bool gave_check, KnownChecks checks) {
  const State& s = states_.back();
  self_check(*v_, s, checks);
  const std::uint64_t hash = hash_of(s);
  int c = find_class(s, hash);
  const auto index = static_cast<std::uint32_t>(states_.size() - 1);
  if (c < 0) {
    if ((classes_.size() + 1) * 2 > buckets_.size()) grow_buckets();
    std::int32_t& head = buckets_[bucket_of(hash)];
    classes_.push_back(Class{hash, index, 0, head});
    c = static_cast<int>(classes_.size() - 1);
    head = c;
  }
  Class& cls = classes_[static_cast<std::size_t>(c)];
  ++cls.count;
  Entry e = entries_.back();
  e.mover = static_cast<std::int8_t>(mover);
  e.checked = gave_check;
  e.checks = checks;
  e.serial = ++pushes_;
  e.cls = static_cast<std::uint32_t>(c);
  e.peak = std::max(e.peak, cls.count);
  if (mover >= 0) {
    ++e.tally.moves[static_cast<std::size_t>(mover)];
    // (With end.repetition.perpetual_by: check_or_attack, an attack too.)
    e.tally.checks[static_cast<std::size_t>(mover)] += gave_check || s.pressed;
  }
  if (first_rule_ending_ == 0 && s.rule_ending && s.outcome == Outcome::ongoing)
    first_rule_ending_ = index;
  entries_.push_back(e);
}

void Line::pop() {
  const std::size_t index = states_.size() - 1;
  const std::uint32_t c = entries_.back().cls;
  Class& cls = classes_[c];
  if (--cls.count == 0) {
    // The newest class (last in, first out): the head of its bucket.
    buckets_[bucket_of(cls.hash)] = cls.prev;
    classes_.pop_back();
  }
  if (first_rule_ending_ == index) first_rule_ending_ = 0;
  states_.pop_back();
  entries_.pop_back();
}

int Line::occurrences(const State& s, std::size_t* first) const {
  int c = find_class(s, hash_of(s));
  if (c < 0) return 0;
  const Class& cls = classes_[static_cast<std::size_t>(c)];
  if (first) *first = cls.first;
  return static_cast<int>(cls.count);
}

bool Line::in_check_at(std::size_t i, int seat) const {
  const KnownChecks k = entries_[i].checks;
  return k.knows(seat) ? k.has_check(seat) : in_check(*v_, states_[i], seat);
}

Tally Line::since(std::size_t first) const {
  Tally t = entries_.back().tally;
  const Tally& before = entries_[first].tally;
  for (std::size_t seat = 0; seat < t.moves.size(); ++seat) {
    t.moves[seat] -= before.moves[seat];
    t.checks[seat] -= before.checks[seat];
  }
  return t;
}

bool same_position(const VariantData& v, const State& a, const State& b) {
  if (a.to_move != b.to_move || a.eliminated_mask != b.eliminated_mask || a.strike != b.strike)
    return false;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (a.hand[seat] != b.hand[seat]) return false;
  for (int sq = 0; sq < v.nsq; ++sq)
    if (!(a.cells[sq] == b.cells[sq])) return false;
  return true;
}

}  // namespace koma::detail
