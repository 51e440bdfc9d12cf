// Internal: the one door from the library's modules to what the public API
// hides (a variant's compiled rules, a position's state, a game's line, the
// constructors that take them). The public classes name it as their friend;
// hosts and bindings never include it.
#pragma once
#include <memory>

#include "koma/game.hpp"
#include "koma/position.hpp"
#include "koma/variant.hpp"
#include "variant_data.hpp"

namespace koma::detail {

struct Access {
  static const VariantData& data(const Variant& v) { return v.data(); }
  static const State& state(const Position& p) { return p.state(); }
  static Position position(std::shared_ptr<const Variant> v, const State& s) {
    return {std::move(v), s};
  }
  static std::shared_ptr<const Variant> variant(std::unique_ptr<const VariantData> data) {
    return std::shared_ptr<const Variant>(new Variant(std::move(data)));
  }
  static const Game::Impl& impl(const Game& g) { return g.impl(); }
};

}  // namespace koma::detail
