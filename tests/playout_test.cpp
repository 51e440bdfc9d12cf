// Invariant playouts: seeded random games on every shipped variant, checking
// after every ply that undo restores the exact position and hash, the text
// round-trips (so the incremental hash equals one recomputed from the text),
// every listed move survives its own text, illegal moves are refused without
// changing the game, pieces are conserved, and the seat to move is active.
#include <doctest/doctest.h>

#include <chrono>
#include <random>

#include "support.hpp"

namespace {

// Board pieces (overturned kings included) and hand pieces of every seat.
int total_pieces(const koma::Position& p) {
  const koma::Variant& v = p.variant();
  int n = 0;
  for (koma::Square sq = 0; sq < v.squares(); ++sq) n += p.at(sq).has_value();
  for (int seat = 1; seat <= v.seats(); ++seat)
    for (int k = 0; k < v.kinds(); ++k) n += p.in_hand(seat, k);
  return n;
}

// Plays one seeded game of at most `max_plies` plies; returns the plies played.
int playout(const std::string& file, const koma::Options& o, std::uint64_t seed, int max_plies) {
  CAPTURE(file);
  CAPTURE(seed);
  auto v = test::variant(file, o);
  koma::Game g(v);
  std::mt19937_64 rng(seed);
  int pieces = total_pieces(g.position());
  int ply = 0;
  for (; ply < max_plies && !g.over(); ++ply) {
    CAPTURE(ply);
    const koma::Position before = g.position();
    REQUIRE(before.active(before.to_move()));
    koma::Position reread = koma::Position::from_text(v, before.text());
    REQUIRE(reread == before);
    REQUIRE(reread.hash() == before.hash());
    auto legal = g.legal_moves();
    if (legal.empty()) break;  // only a loaded position can get here
    for (koma::Move m : legal) REQUIRE(before.parse_move(before.move_text(m)) == m);
    // An illegal move: a legal one sent to a square it cannot reach.
    koma::Move probe = legal[rng() % legal.size()];
    probe.to = static_cast<std::uint8_t>(rng() % static_cast<std::uint64_t>(v->squares()));
    if (v->is_square(probe.to) && std::find(legal.begin(), legal.end(), probe) == legal.end()) {
      CHECK_THROWS_AS(g.play(probe), koma::IllegalMove);
      REQUIRE(g.position().text() == before.text());
    }
    koma::Move m = legal[rng() % legal.size()];
    std::size_t eliminated = before.eliminated().size();
    // What the move takes: on its last square, and a double move on its
    // middle square too (a double move back to its start takes nothing there).
    int taken = 0;
    if (!m.is_drop()) {
      taken += m.to != m.from && before.at(m.to).has_value() ? 1 : 0;
      taken += m.is_double() && before.at(m.middle()).has_value() ? 1 : 0;
    }
    const int removes = v->captures_to_hand() ? 0 : taken;
    g.play(m);
    int now = total_pieces(g.position());
    // Pieces leave the game only with an eliminated seat (a captured king,
    // a removed hand), or captured where captures do not go to hand.
    if (g.position().eliminated().size() == eliminated)
      CHECK(now == pieces - removes);
    else
      CHECK(now <= pieces);
    pieces = now;
    g.undo();
    REQUIRE(g.position().text() == before.text());
    REQUIRE(g.position().hash() == before.hash());
    g.play(m);
  }
  return ply;
}

// Every shipped variant with every option set its row lists
// (tests/data/variants.jsonl).
std::vector<std::pair<std::string, koma::Options>> variants() {
  std::vector<std::pair<std::string, koma::Options>> all;
  for (const YAML::Node& row : test::shipped())
    for (const koma::Options& options : test::option_sets(row))
      all.emplace_back(test::file_of(row), options);
  return all;
}

}  // namespace

TEST_CASE("invariant playouts on every shipped variant") {
  for (const auto& [file, options] : variants())
    for (std::uint64_t seed = 1; seed <= 5; ++seed) playout(file, options, seed, 300);
}

// The long run: games of up to 1000 plies until every variant has had 10^6
// plies; prints each variant's games, plies and time.
//   ./koma_tests -tc='*long*' --no-skip
TEST_CASE("invariant playouts, long" * doctest::skip()) {
  for (const auto& [file, options] : variants()) {
    auto t0 = std::chrono::steady_clock::now();
    long plies = 0, games = 0;
    for (std::uint64_t seed = 100; plies < 1000000; ++seed, ++games)
      plies += playout(file, options, seed, 1000);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    MESSAGE(test::describe(file, options)
            << ": " << games << " games, " << plies << " plies, " << secs << " s");
  }
}
