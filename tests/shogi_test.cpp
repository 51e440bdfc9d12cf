#include <doctest/doctest.h>

#include "koma/koma.hpp"

TEST_CASE("shogi start position perft") {
  auto v = koma::Variant::load(KOMA_VARIANTS_DIR "/shogi.yaml", {{"impasse", "none"}});
  koma::Game g(v);
  CHECK(koma::perft(g, 1) == 30);
  CHECK(koma::perft(g, 2) == 900);
  CHECK(koma::perft(g, 3) == 25470);
}
