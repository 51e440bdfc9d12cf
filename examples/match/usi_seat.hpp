// koma-match's USI seats (docs/ai.md#usi-seats): an outside USI engine
// (Fairy-Stockfish, YaneuraOu, koma-usi) run as a child process, one process
// a game, and spoken to over pipes. koma stays the referee: the driver plays
// every bestmove through the game, so an illegal move is refused by the rules.
// POSIX only (posix_spawn, poll, process groups).
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace usi_seat {

// An engine as --usi NAME=COMMAND and --usi-option NAME:KEY=VALUE give it.
struct EngineSpec {
  std::string name;
  std::string command;  // run with /bin/sh -c
  std::vector<std::pair<std::string, std::string>> options;
};

// An engine that broke the protocol: it died, closed its pipes, stopped
// reading, answered garbage or not in time. The seat loses the game; what()
// says why.
class EngineFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a bestmove came with: the move text and the last node count the
// engine reported in an `info` line (0 if none).
struct Answer {
  std::string move;  // a move, "resign" or "win"
  std::uint64_t nodes = 0;
};

// The time an engine has to leave after `quit` (and after its input is
// closed) before its process group is killed.
inline constexpr std::chrono::seconds kQuitGrace{1};

class Engine {
 public:
  // Starts the engine, `/bin/sh -c COMMAND` in a process group of its own,
  // and does the handshake: usi / usiok, the options, isready / readyok,
  // usinewgame, each answer within `start_timeout` seconds. Every line koma
  // writes to the engine must be taken within `write_timeout` seconds (an
  // engine that stops reading fills the pipe). Throws EngineFault (the
  // process group is stopped again).
  Engine(const EngineSpec& spec, double start_timeout, double write_timeout);
  // stop()
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Sends `position` and `go` and waits up to `timeout` seconds for the
  // bestmove. Throws EngineFault.
  Answer bestmove(const std::string& position, const std::string& go, double timeout);
  // Tells the engine the game is over: "win", "lose" or "draw" (errors ignored).
  void gameover(const std::string& outcome);

 private:
  using Clock = std::chrono::steady_clock;
  // Writes one line within the write timeout; throws EngineFault.
  void send(const std::string& line);
  // The next line, without its end; throws EngineFault at the deadline or EOF.
  std::string read_line(Clock::time_point deadline, const char* waiting_for);
  // Reads lines until one that starts with `word`; returns it.
  std::string await(const std::string& word, double timeout);
  // Sends `quit` (unless the engine stopped reading), closes the pipes,
  // gives the engine kQuitGrace to leave, then kills its process group, so
  // that nothing it started outlives it, and reaps it.
  void stop();

  std::string name_;
  pid_t pid_ = -1;  // the process started, and its process group's id
  int to_engine_ = -1, from_engine_ = -1;
  bool reading_ = true;  // false once a write failed: nothing more is sent
  std::chrono::microseconds write_timeout_{0};
  std::string buffer_;
};

// Prepares the process for engines; call once before the first one starts.
// Writing to an engine that died then fails with EPIPE instead of ending the
// process with SIGPIPE, and SIGINT, SIGTERM and SIGHUP (unless ignored) kill
// the process groups of the engines running before they end koma-match, as
// they would have reached the engines without groups of their own.
void prepare_signals();

}  // namespace usi_seat
