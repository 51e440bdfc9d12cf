// koma-match's USI seats (usi_seat.hpp).
#include "usi_seat.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace usi_seat {
namespace {

// The longest line an engine may send: a USI line is a few hundred bytes,
// an `info pv` line a few thousand.
constexpr std::size_t kMaxLine = 1 << 16;

std::string system_error(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

}  // namespace

void ignore_broken_pipes() {
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ignore, nullptr);
}

Engine::Engine(const EngineSpec& spec, double timeout) : name_(spec.name) {
  int in[2], out[2];  // in: koma -> engine, out: engine -> koma
  if (pipe2(in, O_CLOEXEC) != 0) throw EngineFault(system_error("cannot make a pipe"));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    throw EngineFault(system_error("cannot make a pipe"));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::string command = spec.command;
  char sh[] = "sh", dash_c[] = "-c";
  char* argv[] = {sh, dash_c, command.data(), nullptr};
  const int spawned = posix_spawn(&pid_, "/bin/sh", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  to_engine_ = in[1];
  from_engine_ = out[0];
  if (spawned != 0) {
    pid_ = -1;
    stop();
    errno = spawned;
    throw EngineFault(system_error("cannot start /bin/sh"));
  }
  try {
    send("usi");
    await("usiok", timeout);
    for (const auto& [key, value] : spec.options) send("setoption name " + key + " value " + value);
    send("isready");
    await("readyok", timeout);
    send("usinewgame");
  } catch (...) {
    stop();
    throw;
  }
}

Engine::~Engine() {
  stop();
}

void Engine::stop() {
  if (to_engine_ >= 0) {
    if (pid_ > 0) {
      const char quit[] = "quit\n";
      [[maybe_unused]] ssize_t ignored = write(to_engine_, quit, sizeof quit - 1);
    }
    close(to_engine_);
    to_engine_ = -1;
  }
  if (from_engine_ >= 0) {
    close(from_engine_);
    from_engine_ = -1;
  }
  if (pid_ <= 0) return;
  // A second to leave on its own, then it is killed.
  for (int i = 0; i < 100; ++i) {
    if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

void Engine::send(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t sent = 0;
  while (sent < text.size()) {
    ssize_t n = write(to_engine_, text.data() + sent, text.size() - sent);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw EngineFault("the engine stopped reading its input (" + line + ")");
    sent += static_cast<std::size_t>(n);
  }
}

std::string Engine::read_line(Clock::time_point deadline, const char* waiting_for) {
  for (;;) {
    if (auto end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buffer_.size() > kMaxLine) throw EngineFault("the engine sent a line over 64 KiB");
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0)
      throw EngineFault(std::string("the engine did not answer in time (waiting for ") +
                        waiting_for + ")");
    pollfd p{from_engine_, POLLIN, 0};
    int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) throw EngineFault(system_error("poll"));
    if (ready <= 0) continue;
    char chunk[4096];
    ssize_t n = read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw EngineFault(std::string("the engine closed its output (it exited or crashed) while "
                                    "koma waited for ") +
                        waiting_for);
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::string Engine::await(const std::string& word, double timeout) {
  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout * 1e6));
  for (;;) {
    std::string line = read_line(deadline, word.c_str());
    if (line == word || line.rfind(word + " ", 0) == 0) return line;
  }
}

Answer Engine::bestmove(const std::string& position, const std::string& go, double timeout) {
  send(position);
  send(go);
  const auto deadline =
      Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout * 1e6));
  Answer answer;
  for (;;) {
    std::string line = read_line(deadline, "bestmove");
    if (line.rfind("info ", 0) == 0) {
      // "... nodes N ...": the engine's count so far.
      if (auto at = line.find(" nodes "); at != std::string::npos) try {
          answer.nodes = std::stoull(line.substr(at + 7));
        } catch (const std::exception&) {
        }
      continue;
    }
    if (line.rfind("bestmove ", 0) != 0) continue;
    std::string move = line.substr(9);
    if (auto space = move.find(' '); space != std::string::npos) move.resize(space);  // ponder
    if (move.empty()) throw EngineFault("the engine answered 'bestmove' without a move");
    answer.move = move;
    return answer;
  }
}

void Engine::gameover(const std::string& outcome) {
  try {
    send("gameover " + outcome);
  } catch (const EngineFault&) {
  }
}

}  // namespace usi_seat
