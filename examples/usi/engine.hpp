// The USI engine behind koma-usi: one object that reads USI commands a line at
// a time (handle) and writes its answers to a stream. The GUI is the referee:
// games follow koma::Game::Referee::outside, so no move list is refused because
// koma's rules would have ended the game earlier; only illegal moves are.
//
// Threads: handle() runs on the caller's thread (the one reading the GUI); a
// search runs on a worker thread, with a watchdog thread that stops it on time,
// so `stop`, `isready` and `quit` are answered while it thinks. handle() is
// meant to be called from one thread at a time.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <istream>
#include <memory>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "driver.hpp"
#include "koma/koma.hpp"

namespace usi {

// The USI option EnteringKingRule; each maps to a value of the descriptor's
// impasse option (none, csa24, csa27, try).
enum class Rule { none, csa24, csa27, try_rule };

// The longest command line read, in bytes without the line end (the
// drivers' driver::kMaxInputLine, 64 KiB). The longest line a GUI sends is a
// `position` of 4096 moves (the most read): "position sfen " and a SFEN
// (under 200 bytes) and " moves " and 4096 moves of at most 6 bytes with
// their space ("7g7f+ "): under 25 KiB. A longer line is read and dropped as
// it comes, never held whole (driver::read_line).
constexpr std::size_t kMaxLineBytes = driver::kMaxInputLine;

// Caps on every search, over whatever go, the Nodes option and the level ask
// for; 0 = no cap (koma-usi sets none). The fuzz target (tests/fuzz/usi.cpp)
// caps depth and nodes so that no input line can make a search long: `go
// infinite` then still holds its bestmove until stop, but its search is short.
struct SearchCap {
  int depth = 0;
  std::uint64_t nodes = 0;
};

class Engine {
 public:
  // Loads the descriptor at `variant_path` with `options` (the impasse option
  // excepted: the USI option EnteringKingRule sets it). Throws driver::Failure
  // when it is not two-player shogi written in SFEN/USI, and koma::Error for a
  // descriptor or option koma refuses.
  Engine(std::ostream& out, std::string variant_path, koma::Options options = {},
         SearchCap cap = {});
  // Stops a running search without printing its move.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Reads command lines from `in` and handles them until `quit` or the end of
  // the input, which counts as quit. A line longer than kMaxLineBytes is
  // answered with an `info string` as soon as it passes the limit, and the
  // rest of it is read and dropped.
  void serve(std::istream& in);
  // One line from the GUI. Never throws: anything malformed (a line longer
  // than kMaxLineBytes included) is answered with `info string <what was
  // wrong>` and otherwise ignored.
  void handle(std::string_view line);
  // True once `quit` was handled; the caller should stop reading then.
  bool quitting() const { return quitting_; }

 private:
  struct Go {
    std::optional<long long> btime, wtime, binc, winc, byoyomi, movetime;
    int depth = 0;
    std::uint64_t nodes = 0;
    bool infinite = false;
    bool ponder = false;
  };

  void write(std::string_view line);
  void info(std::string_view text);
  void refuse_long_line();

  void cmd_usi();
  void cmd_setoption(const std::vector<std::string_view>& args);
  void cmd_position(const std::vector<std::string_view>& args);
  void cmd_go(const std::vector<std::string_view>& args);
  // The parts of cmd_go. read_go: the parameters of `go`, or nullopt when the
  // command is answered already (refused, or `go mate`). budget_ms: the
  // move's time from movetime or the clock; none for infinite or an all-zero
  // clock. limits_of: the search's limits (Nodes, Seed, the cap, the time
  // left of the budget since `t0`). start_search: the search state and its
  // threads.
  void refuse_go(std::string_view why);
  std::optional<Go> read_go(const std::vector<std::string_view>& args);
  std::optional<long long> budget_ms(const Go& go) const;
  koma::Limits limits_of(const Go& go, std::optional<long long> budget,
                         std::chrono::steady_clock::time_point t0) const;
  void start_search(const Go& go, std::optional<long long> budget,
                    std::chrono::steady_clock::time_point t0);
  void cmd_stop();
  void cmd_ponderhit();

  // Makes the descriptor at `path` the game played, from its start position.
  // Throws driver::Failure when it is not two-player shogi in SFEN/USI.
  void select_variant(const std::string& path);
  // The USI_Variant choices: the two-player SFEN/USI descriptors beside the
  // one loaded (its folder's *.yaml), by name, found at the first `usi`.
  const std::vector<std::pair<std::string, std::string>>& usi_variants();
  void load_rule(Rule rule);
  // Builds the game a `position` command describes; throws koma::Error or
  // std::invalid_argument with the reason.
  koma::Game build_game(const std::shared_ptr<const koma::Variant>& variant,
                        const std::optional<std::string>& sfen,
                        const std::vector<std::string>& moves) const;

  // Ends a running search: `print` says whether its bestmove is still wanted
  // (stop, quit) or not (gameover, usinewgame). Returns once the worker is done.
  void end_search(bool print);
  void join_threads();
  void run_search(koma::Game game);
  void watch();
  // The answer to go for `game`: a move, "win" or "resign"; info lines for
  // the GUI go to `lines`. Runs on the worker thread.
  std::string reply(const koma::Game& game, std::vector<std::string>& lines);

  std::ostream& out_;
  std::mutex out_mutex_;

  std::string variant_path_;
  std::optional<std::vector<std::pair<std::string, std::string>>> usi_variants_;  // name, path
  koma::Options options_;
  SearchCap cap_;
  bool has_impasse_ = false;
  Rule rule_ = Rule::csa27;
  std::shared_ptr<const koma::Variant> variant_;

  // The last accepted position command, replayed when the impasse rule changes.
  std::optional<std::string> sfen_;
  std::vector<std::string> moves_;
  std::optional<koma::Game> game_;

  koma::Level level_ = koma::Level::expert;
  std::uint64_t nodes_option_ = 0;
  std::uint64_t seed_ = 1;
  bool quitting_ = false;

  // The search. Guarded by mutex_ unless noted.
  std::mutex mutex_;
  std::condition_variable changed_;
  bool searching_ = false;  // from go until the bestmove is written (or dropped)
  bool finished_ = false;   // the worker's choose() has returned
  bool halt_ = false;       // the search must return now
  bool hold_ = false;       // infinite or ponder: bestmove waits for stop/ponderhit
  bool infinite_ = false;   // go infinite: only stop releases the bestmove
  bool pondering_ = false;  // go ponder, until ponderhit
  bool silent_ = false;     // drop the bestmove (gameover, usinewgame, destruction)
  std::optional<std::chrono::steady_clock::time_point> deadline_;
  std::optional<long long> ponder_budget_ms_;  // the move's time, counted from ponderhit
  std::unique_ptr<koma::Player> player_;       // replaced only while no thread runs
  std::thread worker_, watchdog_;
};

// The time for one move, in milliseconds, from the mover's clock (see engine.cpp).
long long allocate_ms(long long remaining, long long increment, long long byoyomi);

}  // namespace usi
