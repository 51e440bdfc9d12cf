// CPU players for any descriptor-defined variant. A Player picks a legal move
// for the seat to move of a Game, within limits; it never returns an illegal
// move and is deterministic for a fixed seed under depth or node limits.
//
//   koma::Player cpu(koma::Level::strong, {.nodes = 20000, .seed = 7});
//   game.play(cpu.choose(game));
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "koma/game.hpp"
#include "koma/move.hpp"

namespace koma {

namespace detail {
struct ExpertMemory;
}

// Levels as the rule pages describe them. Two-player games use easy, medium,
// hard, expert; games of more seats use easy, normal, strong, expert. A level
// of the other family is mapped to the nearest one (docs/ai.md).
enum class Level { easy, normal, medium, strong, hard, expert };

std::string_view level_name(Level level);
std::optional<Level> level_from_name(std::string_view name);

// The longest time limit a Player takes: a million seconds, over 11 days.
inline constexpr double kMaxSeconds = 1e6;
// The deepest depth limit a Player takes (each ply is a frame of recursion).
inline constexpr int kMaxDepth = 64;

struct Limits {
  int depth = 0;  // plies (2 players) or rounds (more), 0 to kMaxDepth; 0 = the level's own
  std::uint64_t nodes = 0;  // positions visited; 0 = no limit
  double seconds = 0;       // wall time, 0 to kMaxSeconds; 0 = the level's own (expert: 2 s)
  std::uint64_t seed = 1;   // for the randomness of the easier levels
};

// A SearchInfo::score at or beyond +kWinScore is a game the mover wins (at
// or below -kWinScore, loses), no longer centi-pawns.
inline constexpr int kWinScore = 500'000;

struct SearchInfo {
  Move move{};
  int depth = 0;  // completed depth
  std::uint64_t nodes = 0;
  double seconds = 0;
  int score = 0;  // in centi-pawns from the mover's view; see kWinScore
  // A stop() ended this choose(): it returned the best move found so far, or,
  // for a stop() made before it started, its first legal move unsearched
  // (depth 0, nodes 0, score 0).
  bool stopped = false;
};

class Player {
 public:
  // Throws Error for limits out of range: seconds not a number, negative or
  // over kMaxSeconds; a depth negative or over kMaxDepth.
  explicit Player(Level level, Limits limits = {});
  // A legal move for the seat to move. Throws IllegalMove if the game is over
  // or the seat has no legal move.
  Move choose(const Game& game);
  // What the last choose() that returned a move found. Any thread may call it
  // while choose() runs on another: it gets a whole copy of the one before.
  SearchInfo info() const;

  // Stopping a search from another thread. Every stop() made before a
  // choose() returns is consumed by that choose(), whichever way it ends:
  // - made while it searches, it returns the best move found so far;
  // - made before it starts (while no choose() runs, e.g. before the thread
  //   that will call it got there), it is kept, and that next choose() returns
  //   at once its first legal move (Game::legal_moves order) unsearched.
  // info().stopped says whether a stop() ended the last choose(). Stops do not
  // add up: several before one choose() end that one only. A stop() made after
  // the choose() it meant returned is kept all the same and would end the
  // next, unrelated one: cancel_stop() withdraws it (call it, e.g., once the
  // choosing thread is joined, before choosing again).
  void stop();
  // Withdraws a stop() that no choose() has consumed yet (none if there is none).
  void cancel_stop();

  Level level() const { return level_; }
  const Limits& limits() const { return limits_; }
  // Frees the memory the two-seat expert keeps between moves (its table,
  // move statistics and evaluation cache, below); the next choose()
  // allocates it again. For a Player kept while it does not play, as between
  // games. Not while choose() runs.
  void release() { expert_.reset(); }

 private:
  Level level_;
  Limits limits_;
  // What another thread may touch while choose() runs: the stop request and
  // the last search's info (behind a mutex, so that a copy is whole); held
  // apart so that a Player stays movable.
  struct Shared {
    std::atomic<bool> stop{false};
    mutable std::mutex mutex;
    SearchInfo info;
  };
  std::unique_ptr<Shared> shared_ = std::make_unique<Shared>();
  std::uint64_t games_ = 0;  // mixed into the seed so successive calls differ
  // The two-seat expert's table, move statistics and evaluation cache,
  // allocated at its first choose() (about 14 MiB for shogi, at most about
  // 46 MiB) and reused (the cache's exact scores kept for the same variant
  // and seat).
  std::shared_ptr<detail::ExpertMemory> expert_;
};

}  // namespace koma
