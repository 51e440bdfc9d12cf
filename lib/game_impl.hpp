// Internal: what a Game holds. Search and perft start from its line, which
// carries the past the rules need (repetition, perpetual check).
#pragma once
#include <memory>
#include <string>
#include <vector>

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
      : variant(s.variant_ptr()), start(s), current(s), line(s.variant_ptr()->data(), s.state()) {}
  const detail::VariantData& v() const { return variant->data(); }
  void sync() { current = Position(variant, line.back()); }
};

}  // namespace koma
