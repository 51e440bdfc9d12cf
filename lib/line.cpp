#include "line.hpp"

namespace koma::detail {

namespace {

std::uint64_t hash_of(const State& s) {
  return s.board_key ^ s.hand_key;
}

}  // namespace

Line::Line(const VariantData& v, const State& start) : v_(&v), states_{start} {
  table_.resize(64);
  Entry e;
  e.cls = 0;
  e.peak = 1;
  e.serial = ++pushes_;
  entries_.push_back(e);
  classes_.push_back(Class{0, 1, -1});
  table_[slot_of(hash_of(start))] = Slot{hash_of(start), 0};
  used_ = 1;
}

void Line::reserve(std::size_t n) {
  states_.reserve(n);
  entries_.reserve(n);
}

std::size_t Line::slot_of(std::uint64_t hash) const {
  const std::size_t mask = table_.size() - 1;
  std::size_t i = static_cast<std::size_t>(hash * 0x9E3779B97F4A7C15ull >> 20) & mask;
  while (table_[i].cls >= 0 && table_[i].hash != hash) i = (i + 1) & mask;
  return i;
}

void Line::grow_table() {
  std::vector<Slot> old(table_.size() * 2);
  old.swap(table_);
  for (const Slot& s : old)
    if (s.cls >= 0) table_[slot_of(s.hash)] = s;
}

// Backward-shift deletion keeps every probe sequence unbroken.
void Line::erase_slot(std::size_t i) {
  const std::size_t mask = table_.size() - 1;
  std::size_t j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (table_[j].cls < 0) break;
    std::size_t home =
        static_cast<std::size_t>(table_[j].hash * 0x9E3779B97F4A7C15ull >> 20) & mask;
    // Move j back to i unless its home lies cyclically in (i, j].
    bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    table_[i] = table_[j];
    i = j;
  }
  table_[i] = Slot{};
  --used_;
}

int Line::find_class(const State& s, std::size_t slot) const {
  for (int c = table_[slot].cls; c >= 0; c = classes_[static_cast<std::size_t>(c)].prev)
    if (same_position(*v_, states_[classes_[static_cast<std::size_t>(c)].first], s)) return c;
  return -1;
}

void Line::push(const State& s, int mover, bool gave_check, KnownChecks checks) {
  if ((used_ + 1) * 2 > table_.size()) grow_table();
  states_.push_back(s);
  note_pushed(mover, gave_check, checks);
}

void Line::note_pushed(int mover, bool gave_check, KnownChecks checks) {
  const State& s = states_.back();
  self_check(*v_, s, checks);
  const std::uint64_t hash = hash_of(s);
  const std::size_t i = slot_of(hash);
  int c = find_class(s, i);
  const auto index = static_cast<std::uint32_t>(states_.size() - 1);
  if (c < 0) {
    Slot& slot = table_[i];
    if (slot.cls < 0) {
      slot.hash = hash;
      ++used_;
    }
    classes_.push_back(Class{index, 0, slot.cls});
    c = static_cast<int>(classes_.size() - 1);
    slot.cls = c;
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
    e.tally.checks[static_cast<std::size_t>(mover)] += gave_check;
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
    // Classes are made and emptied last in, first out: this is the newest.
    std::size_t i = slot_of(hash_of(states_.back()));
    if (cls.prev >= 0)
      table_[i].cls = cls.prev;
    else
      erase_slot(i);
    classes_.pop_back();
  }
  if (first_rule_ending_ == index) first_rule_ending_ = 0;
  states_.pop_back();
  entries_.pop_back();
}

int Line::occurrences(const State& s, std::size_t* first) const {
  int c = find_class(s, slot_of(hash_of(s)));
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
  if (a.to_move != b.to_move || a.eliminated_mask != b.eliminated_mask) return false;
  for (int seat = 0; seat < v.nseats; ++seat)
    if (a.hand[seat] != b.hand[seat]) return false;
  for (int sq = 0; sq < v.nsq; ++sq)
    if (!(a.cells[sq] == b.cells[sq])) return false;
  return true;
}

}  // namespace koma::detail
