// Internal: what a Game holds. Search and perft start from its line, which
// carries the past the rules need (repetition, perpetual check).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "access.hpp"
#include "koma/game.hpp"
#include "line.hpp"

namespace koma {

struct Game::Impl {
  std::shared_ptr<const Variant> variant;
  Position start;
  Position current;
  detail::Line line;
  std::vector<std::string> history;

  Impl(const Position& s)
      : variant(s.variant_ptr()),
        start(s),
        current(s),
        line(detail::Access::data(*s.variant_ptr()), detail::Access::state(s)) {}
  const detail::VariantData& v() const { return detail::Access::data(*variant); }
  void sync() { current = detail::Access::position(variant, line.back()); }
};

}  // namespace koma
