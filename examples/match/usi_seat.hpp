// koma-match's USI seats (docs/ai.md#usi-seats): an outside USI engine
// (Fairy-Stockfish, YaneuraOu, koma-usi) run as a child process, one process
// a game, and spoken to over pipes. koma stays the referee: the driver plays
// every bestmove through the game, so an illegal move is refused by the rules.
// POSIX only (posix_spawn, poll).
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

// An engine that broke the protocol: it died, closed its pipes, answered
// garbage or not in time. The seat loses the game; what() says why.
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

class Engine {
 public:
  // Starts the engine and does the handshake: usi / usiok, the options,
  // isready / readyok, usinewgame, each answer within `timeout` seconds.
  // Throws EngineFault (the process is stopped again).
  Engine(const EngineSpec& spec, double timeout);
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
  void send(const std::string& line);
  // The next line, without its end; throws EngineFault at the deadline or EOF.
  std::string read_line(Clock::time_point deadline, const char* waiting_for);
  // Reads lines until one that starts with `word`; returns it.
  std::string await(const std::string& word, double timeout);
  void stop();

  std::string name_;
  pid_t pid_ = -1;
  int to_engine_ = -1, from_engine_ = -1;
  std::string buffer_;
};

// Makes writing to an engine that died fail with EPIPE instead of ending the
// process with SIGPIPE. Call once before the first engine starts.
void ignore_broken_pipes();

}  // namespace usi_seat
