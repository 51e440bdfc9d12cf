// koma-perft: counts the leaves of the legal move tree (docs/api.md#the-koma-perft-driver).
//   koma-perft --variant variants/shogi.yaml --option impasse=none --depth 5
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "driver.hpp"

namespace po = boost::program_options;

constexpr int kMaxDepth = 64;

static int perft_main(int argc, char** argv) {
  po::options_description desc("Options");
  driver::add_common(desc);
  desc.add_options()("depth", po::value<int>(), "depth in plies, 1 to 64")(
      "divide", "print each root move's count, sorted by move text")(
      "full", "play and take back every leaf instead of counting the last ply in bulk");
  auto vm = driver::parse(
      argc, argv, desc,
      "usage: koma-perft --variant FILE [--option k=v]... [--first-seat N] [--position TEXT] "
      "--depth N [--divide] [--full]");
  if (!vm.count("depth")) throw driver::Failure("--depth N is required", "--depth");
  const int depth = driver::checked(vm, "depth", 0, 1, kMaxDepth);
  auto variant = driver::load_variant(vm);
  koma::Game game(driver::start_position(variant, vm));
  koma::PerftMode mode = vm.count("full") ? koma::PerftMode::full : koma::PerftMode::bulk;
  auto t0 = std::chrono::steady_clock::now();
  std::uint64_t nodes = 0;
  std::vector<std::pair<std::string, std::uint64_t>> lines;
  if (vm.count("divide")) {
    for (auto& [m, n] : koma::perft_divide(game, depth, mode)) {
      lines.emplace_back(game.position().move_text(m), n);
      nodes += n;
    }
    std::sort(lines.begin(), lines.end());
  } else {
    nodes = koma::perft(game, depth, mode);
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (const auto& [text, n] : lines) std::cout << text << " " << n << "\n";
  char buf[96];
  std::snprintf(buf, sizeof buf, "time %.3f nps %.0f", secs,
                secs > 0 ? static_cast<double>(nodes) / secs : 0.0);
  std::cout << buf << "\nnodes " << nodes << "\n";
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-perft", perft_main, argc, argv);
}
