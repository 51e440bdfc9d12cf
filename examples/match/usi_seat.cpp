// koma-match's USI seats (usi_seat.hpp).
#include "usi_seat.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <string_view>
#include <thread>

#include "koma/error.hpp"

extern char** environ;

namespace usi_seat {
namespace {

using Clock = std::chrono::steady_clock;

// The longest line an engine may send: a USI line is a few hundred bytes,
// an `info pv` line a few thousand.
constexpr std::size_t kMaxLine = 1 << 16;

std::string system_error(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

std::chrono::microseconds seconds(double s) {
  return std::chrono::microseconds(static_cast<long long>(s * 1e6));
}

// Milliseconds from now to `deadline`, at most a second (for poll).
int poll_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 1000));
}

// The process groups of the engines running, for the signal handler: a
// group's id while its leader is not reaped, else 0. More engines than slots
// (2 seats x 256 jobs) run unlisted.
std::atomic<pid_t> g_groups[512];

void list_group(pid_t group, bool listed) {
  for (auto& slot : g_groups) {
    pid_t expected = listed ? 0 : group;
    if (slot.compare_exchange_strong(expected, listed ? group : 0)) return;
  }
}

void kill_engines_and_end(int signal_number) {
  for (auto& slot : g_groups)
    if (const pid_t group = slot.load(); group > 0) kill(-group, SIGKILL);
  signal(signal_number, SIG_DFL);
  raise(signal_number);  // delivered, with its default action, when the handler returns
}

enum class Sent { all, late, closed };

// Writes `text` to the non-blocking descriptor `fd`, waiting for room in the
// pipe until `deadline`.
Sent write_by(int fd, std::string_view text, Clock::time_point deadline) {
  while (!text.empty()) {
    const ssize_t n = write(fd, text.data(), text.size());
    if (n > 0) {
      text.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return Sent::closed;
    if (Clock::now() >= deadline) return Sent::late;
    pollfd p{fd, POLLOUT, 0};
    poll(&p, 1, poll_ms(deadline));
  }
  return Sent::all;
}

// Whether `pid` has ended; it is left unreaped (a zombie), so that its
// process id, which is also its group's, is not given to another process.
bool ended(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

}  // namespace

void prepare_signals() {
  struct sigaction action {};
  action.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &action, nullptr);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    sigaction(signal_number, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // nohup, a background job: leave it so
    action.sa_handler = kill_engines_and_end;
    sigaction(signal_number, &action, nullptr);
  }
}

Engine::Engine(const EngineSpec& spec, double start_timeout, double write_timeout)
    : name_(spec.name), write_timeout_(seconds(write_timeout)) {
  int in[2], out[2];  // in: koma -> engine, out: engine -> koma
  if (pipe2(in, O_CLOEXEC) != 0) throw EngineFault(system_error("cannot make a pipe"));
  if (pipe2(out, O_CLOEXEC) != 0) {
    close(in[0]);
    close(in[1]);
    throw EngineFault(system_error("cannot make a pipe"));
  }
  // koma's end of the input pipe never blocks: send() waits for room itself.
  fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  // A process group of its own (the engine's pid is its id), so that stop()
  // reaches whatever the shell and the engine start; SIGPIPE as it is by
  // default, not ignored as koma-match has it; no signal blocked.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attributes, 0);
  sigset_t signals;
  sigemptyset(&signals);
  posix_spawnattr_setsigmask(&attributes, &signals);
  sigaddset(&signals, SIGPIPE);
  posix_spawnattr_setsigdefault(&attributes, &signals);
  std::string command = spec.command;
  char sh[] = "sh", dash_c[] = "-c";
  char* argv[] = {sh, dash_c, command.data(), nullptr};
  // The group is listed before a signal can end koma-match without killing it.
  sigset_t ending, before;
  sigemptyset(&ending);
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&ending, signal_number);
  pthread_sigmask(SIG_BLOCK, &ending, &before);
  const int spawned = posix_spawn(&pid_, "/bin/sh", &actions, &attributes, argv, environ);
  if (spawned == 0) list_group(pid_, true);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  posix_spawnattr_destroy(&attributes);
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
    await("usiok", start_timeout);
    for (const auto& [key, value] : spec.options) send("setoption name " + key + " value " + value);
    send("isready");
    await("readyok", start_timeout);
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
  const auto grace = Clock::now() + kQuitGrace;
  if (to_engine_ >= 0) {
    if (pid_ > 0 && reading_) write_by(to_engine_, "quit\n", grace);
    close(to_engine_);
    to_engine_ = -1;
  }
  if (from_engine_ >= 0) {
    close(from_engine_);
    from_engine_ = -1;
  }
  if (pid_ <= 0) return;
  while (!ended(pid_) && Clock::now() < grace)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Whether or not it left, nothing of its group stays: a child it started
  // (or the engine itself, where the shell did not exec it) is killed too.
  kill(-pid_, SIGKILL);
  while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
  }
  list_group(pid_, false);
  pid_ = -1;
}

void Engine::send(const std::string& line) {
  if (!reading_) throw EngineFault("the engine stopped reading its input");
  // One line, whatever text went into it (the options are checked before,
  // positions and moves are koma's own): a control character goes as \xNN.
  const Sent sent =
      write_by(to_engine_, koma::escape_text(line) + "\n", Clock::now() + write_timeout_);
  if (sent == Sent::all) return;
  reading_ = false;
  const std::string command = line.substr(0, line.find(' '));
  if (sent == Sent::closed)
    throw EngineFault(
        "the engine closed its input (it exited or crashed) before koma could send '" + command +
        "'");
  std::ostringstream why;
  why << "the engine stopped reading its input: koma could not send '" << command << "' within "
      << std::chrono::duration<double>(write_timeout_).count() << " s";
  throw EngineFault(why.str());
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
    if (Clock::now() >= deadline)
      throw EngineFault(std::string("the engine did not answer in time (waiting for ") +
                        waiting_for + ")");
    pollfd p{from_engine_, POLLIN, 0};
    int ready = poll(&p, 1, poll_ms(deadline));
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
  const auto deadline = Clock::now() + seconds(timeout);
  for (;;) {
    std::string line = read_line(deadline, word.c_str());
    if (line == word || line.rfind(word + " ", 0) == 0) return line;
  }
}

Answer Engine::bestmove(const std::string& position, const std::string& go, double timeout) {
  send(position);
  send(go);
  const auto deadline = Clock::now() + seconds(timeout);
  Answer answer;
  for (;;) {
    std::istringstream words(read_line(deadline, "bestmove"));
    std::string first;
    words >> first;
    if (first == "info") {
      // "... nodes N ...": the engine's count so far.
      for (std::string word; words >> word;)
        if (word == "nodes" && words >> word) try {
            answer.nodes = std::stoull(word);
          } catch (const std::exception&) {
          }
      continue;
    }
    if (first != "bestmove") continue;
    std::string move;
    if (!(words >> move)) throw EngineFault("the engine answered 'bestmove' without a move");
    answer.move = move;  // a ponder move after it is left out
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
