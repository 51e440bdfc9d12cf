// koma-bench: benchmarks of the game record itself (not of the search).
//   koma-bench --variant variants/shogi.yaml --cycle "5i5h 5a5b 5h5i 5b5a" --plies 100000
// plays the cycle of moves over and over in one game whose referee is outside
// (Game::Referee::outside), so that repetition is reported and play goes on,
// and prints the cost of a ply — legal moves listed, then the move played —
// in ten blocks of the game. A flat column shows that a ply costs the same
// late in a long game as early.
//   koma-bench --variant shogi --random-games 2000 --seed 1
// plays games of random legal moves from the start position to their end
// (legal moves listed, one drawn, played) and prints games and plies per
// second: the loop examples/python/bench.py times through the Python module.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <random>

#include "driver.hpp"

namespace po = boost::program_options;

// --random-games: N games of random moves, each to its end.
static int random_games(const std::shared_ptr<const koma::Variant>& variant, int games,
                        std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  long plies = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int g = 0; g < games; ++g) {
    koma::Game game(variant);
    while (!game.over()) {
      std::vector<koma::Move> moves = game.legal_moves();
      game.play(moves[rng() % moves.size()]);
      ++plies;
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  char buf[160];
  std::snprintf(buf, sizeof buf,
                "games %d  plies %ld  seconds %.3f  games/s %.1f  plies/s %.0f  us/ply %.3f", games,
                plies, s, games / s, static_cast<double>(plies) / s,
                s * 1e6 / static_cast<double>(plies));
  std::cout << buf << "\n";
  return 0;
}

static int bench_main(int argc, char** argv) {
  po::options_description desc("Options");
  driver::add_common(desc);
  desc.add_options()("cycle", po::value<std::string>(),
                     "moves (in the variant's notation) that return to the position they start "
                     "from, played over and over")(
      "plies", po::value<long>(), "plies to play, from 10 to 10000000 (default 100000)")(
      "random-games", po::value<int>(),
      "instead of a cycle: play N games of random legal moves, 1 to 1000000")(
      "seed", po::value<long long>(), "the random games' seed, 0 to 10^15 (default 1)");
  auto vm = driver::parse(argc, argv, desc,
                          "usage: koma-bench --variant FILE [--option k=v]... [--position TEXT] "
                          "--cycle \"MOVES\" [--plies N]\n"
                          "       koma-bench --variant FILE [--option k=v]... --random-games N "
                          "[--seed S]");
  if (vm.count("random-games"))
    return random_games(
        driver::load_variant(vm), driver::checked(vm, "random-games", 1, 1, 1000000),
        static_cast<std::uint64_t>(driver::checked(vm, "seed", 1LL, 0LL, driver::kMaxSeed)));
  if (!vm.count("cycle")) throw driver::Failure("--cycle \"MOVES\" is required", "command line");
  long plies = vm.count("plies") ? vm["plies"].as<long>() : 100000;
  if (plies < 10 || plies > 10000000)
    throw driver::Failure("--plies must be from 10 to 10000000", "command line");
  auto variant = driver::load_variant(vm);
  koma::Game game(driver::start_position(variant, vm), koma::Game::Referee::outside);
  std::vector<std::string> cycle;
  for (std::string_view rest = vm["cycle"].as<std::string>(); !rest.empty();) {
    auto cut = rest.find(' ');
    if (cut != 0) cycle.emplace_back(rest.substr(0, cut));
    rest = cut == std::string_view::npos ? std::string_view{} : rest.substr(cut + 1);
  }
  if (cycle.empty()) throw driver::Failure("--cycle names no move", "command line");
  std::cout << "plies            us/ply   legal moves\n";
  const long block = plies / 10;
  std::size_t moves_seen = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (long ply = 0; ply < plies; ++ply) {
    moves_seen = game.legal_moves().size();
    const std::string& text = cycle[static_cast<std::size_t>(ply) % cycle.size()];
    try {
      game.play(text);
    } catch (const koma::Error& e) {
      throw driver::Failure("ply " + std::to_string(ply + 1) + " '" + text + "': " + e.what(),
                            "--cycle");
    }
    if ((ply + 1) % block == 0) {
      auto t1 = std::chrono::steady_clock::now();
      double us =
          std::chrono::duration<double, std::micro>(t1 - t0).count() / static_cast<double>(block);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%7ld-%-8ld %8.2f   %zu", ply + 2 - block, ply + 1, us,
                    moves_seen);
      std::cout << buf << "\n";
      t0 = std::chrono::steady_clock::now();
    }
  }
  auto ending = game.rule_ending();
  std::cout << "occurrences " << game.occurrences() << "\nrule ending "
            << (ending ? koma::reason_name(ending->reason) : std::string_view("none")) << "\n";
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-bench", bench_main, argc, argv);
}
