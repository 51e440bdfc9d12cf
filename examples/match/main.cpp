// koma-match: plays CPU levels (and outside USI engines) against each other,
// rotating the seats, and prints a table of places per level
// (docs/ai.md#output, docs/ai.md#usi-seats).
//   koma-match --variant variants/yonin.yaml --seats strong,normal,easy,easy --games 16
//   koma-match --variant yonin --seats strong,normal,easy,easy --games 8 --jobs 2
//              --nodes 2000 --record games.jsonl
#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "driver.hpp"
#include "usi_seat.hpp"

namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kUsage =
    "usage: koma-match --variant FILE [--option k=v]... [--first-seat N] [--position TEXT]\n"
    "  --seats LEVEL,LEVEL,... --games N [--seed S] [--jobs J] [--rotate-first]\n"
    "  [--max-plies P] [--nodes N] [--level-nodes LEVEL=N]... [--seconds X]\n"
    "  [--opening-plies K] [--record FILE.jsonl]\n"
    "  [--usi NAME=COMMAND]... [--usi-option NAME:KEY=VALUE]... [--usi-timeout T]\n"
    "\n"
    "Plays N games between CPU levels (easy, normal, medium, strong, hard, expert; one\n"
    "per seat). Game g (counted from 0) rotates the --seats list by g: entry i sits at\n"
    "seat ((i + g) mod seats) + 1, so with N a multiple of the seat count every level\n"
    "sits in every seat equally often. Every player of game g gets the seed\n"
    "S*1000 + g*8 + seat; under node limits (not --seconds) a match is reproducible and\n"
    "its output is the same for any --jobs. Without --nodes and --seconds, expert\n"
    "players search 20000 nodes a move (not the level's own 2 s), so the default match\n"
    "is reproducible too.\n"
    "\n"
    "A game still going after --max-plies plies (default 1000 where the variant has no\n"
    "ply limit of its own, else only the variant's limit) is adjudicated: the seats still\n"
    "in the game share the best place, eliminated seats keep theirs.\n"
    "\n"
    "Output: one row per level (games, average place, count of each place, draws, average\n"
    "plies), then `total games N  time S s`, then for each pair of levels the fraction of\n"
    "the games they both played in which the first placed better (ties count half) with a\n"
    "95% interval. Last, lines starting `speed`: per level, moves played, average\n"
    "milliseconds and nodes per move, thousands of nodes per second (wall time: these\n"
    "vary with the machine and --jobs), average completed search depth (plies for two\n"
    "seats, rounds for more). A progress bar is drawn on standard error when\n"
    "it is a terminal.\n"
    "\n"
    "USI seats (two-player variants written in SFEN): --usi NAME=COMMAND makes NAME a\n"
    "seat entry like a level; COMMAND (run with /bin/sh -c, one process a game) is a USI\n"
    "engine, set up with its --usi-option NAME:KEY=VALUE options. It moves with\n"
    "`go nodes N` under --nodes or --level-nodes NAME=N, else with `go btime 0 wtime 0\n"
    "byoyomi MS` (--seconds, default 1). koma referees: an illegal move, a crash, garbage,\n"
    "no bestmove in time (byoyomi + --usi-timeout T, default 30 s) or a line koma cannot\n"
    "send within T s (the engine stopped reading) loses the game, adjudicated, and a line\n"
    "`forfeit game G ply P seat S NAME: why` follows the speed lines. Records name the\n"
    "seat usi:NAME. Each engine runs in a process group of its own: after `quit` and a\n"
    "second's grace the whole group is killed, so nothing the engine started outlives\n"
    "its game.";

constexpr int kMaxGames = 1'000'000;
constexpr int kMaxJobs = 256;
constexpr int kMaxOpeningPlies = 1000;

// One --seats entry: a CPU level, or an outside engine (--usi NAME=COMMAND).
struct Entrant {
  std::string name;  // the level's or the engine's
  std::optional<koma::Level> level;
  std::optional<usi_seat::EngineSpec> engine;
};

struct Setup {
  std::shared_ptr<const koma::Variant> variant;
  std::optional<koma::Position> start;  // --position
  std::vector<Entrant> entrants;        // --seats, in order
  int games = 0;
  std::uint64_t seed = 1;
  bool rotate_first = false;
  int cap = 0;      // plies; 0 = the variant's own limit only
  int opening = 0;  // --opening-plies
  std::uint64_t nodes = 0;
  double seconds = 0;
  double usi_timeout = 30;                           // --usi-timeout
  std::map<std::string, std::uint64_t> level_nodes;  // --level-nodes by entrant, over --nodes
  int jobs = 1;                                      // games played at once
  // What each record keeps of the command line.
  std::string descriptor;   // --variant as given
  koma::Options overrides;  // --option
};

// What a level's moves cost: for the speed table.
struct Effort {
  long moves = 0;
  double seconds = 0;
  std::uint64_t nodes = 0;
  long depth = 0;  // sum of the completed search depths
};

// One finished game.
struct Played {
  std::vector<int> entry;  // entry[seat - 1]: the index into Setup::entrants sitting there
  int first_seat = 1;
  std::vector<std::string> moves;
  koma::Result result;
  std::vector<Effort> effort;         // effort[seat - 1]
  std::vector<std::string> forfeits;  // "game G ply P seat S NAME: why"
};

int seat_count(const Setup& s) {
  return s.variant->seats();
}

// The --seats entry sitting at `seat` in game g: entry i sits at ((i + g) mod n) + 1.
int entry_at(int seat, int g, int n) {
  return ((seat - 1 - g) % n + n) % n;
}

// Places for a game stopped by the ply cap: seats still in the game share
// place 1, eliminated seats are ranked by elimination order, the first
// eliminated last.
std::vector<int> cap_places(const koma::Position& pos) {
  int n = pos.variant().seats();
  std::vector<int> places(n, 0);
  std::vector<int> out = pos.eliminated();
  for (std::size_t j = 0; j < out.size(); ++j) places[out[j] - 1] = n - static_cast<int>(j);
  for (int seat = 1; seat <= n; ++seat)
    if (pos.active(seat) || places[seat - 1] == 0) places[seat - 1] = 1;
  return places;
}

std::string moves_text(const koma::Game& game) {
  std::string out;
  for (const std::string& m : game.history()) out += (out.empty() ? "" : " ") + m;
  return out.empty() ? "-" : out;
}

// Who plays a seat in one game: a CPU player, or an engine process with the
// `go` command and the time it has to answer.
struct SeatPlayer {
  std::unique_ptr<koma::Player> cpu;
  std::unique_ptr<usi_seat::Engine> engine;
  std::string go;
  double timeout = 0;
};

// The limits of entrant `e` in game g at `seat`: --nodes, --level-nodes and
// --seconds; expert searches 20000 nodes when nothing else is given.
koma::Limits limits_of(const Setup& s, int e, int g, int seat) {
  const Entrant& who = s.entrants[static_cast<std::size_t>(e)];
  koma::Limits limits;
  limits.nodes = s.nodes;
  limits.seconds = s.seconds;
  if (who.level == koma::Level::expert && !s.nodes && s.seconds <= 0) limits.nodes = 20000;
  if (auto it = s.level_nodes.find(who.name); it != s.level_nodes.end()) limits.nodes = it->second;
  limits.seed =
      s.seed * 1000 + static_cast<std::uint64_t>(g) * 8 + static_cast<std::uint64_t>(seat);
  return limits;
}

// Starts the player of entrant `e`; an engine that does not start is left
// out (`engine` empty) and forfeits at its first move.
SeatPlayer start_player(const Setup& s, int e, const koma::Limits& limits, std::string& fault) {
  const Entrant& who = s.entrants[static_cast<std::size_t>(e)];
  SeatPlayer p;
  if (who.level) {
    p.cpu = std::make_unique<koma::Player>(*who.level, limits);
    return p;
  }
  if (limits.nodes) {
    p.go = "go nodes " + std::to_string(limits.nodes);
    p.timeout = s.usi_timeout;
  } else {
    const double seconds = limits.seconds > 0 ? limits.seconds : 1.0;
    p.go = "go btime 0 wtime 0 byoyomi " + std::to_string(std::lround(seconds * 1000));
    p.timeout = seconds + s.usi_timeout;
  }
  try {
    // Starting may take longer than a move on a loaded machine (a new process).
    p.engine = std::make_unique<usi_seat::Engine>(*who.engine, std::max(s.usi_timeout, 10.0),
                                                  s.usi_timeout);
  } catch (const usi_seat::EngineFault& f) {
    fault = std::string("it did not start: ") + f.what();
  }
  return p;
}

// The USI position command for the game so far.
std::string usi_position(const koma::Game& game) {
  std::string out = "position sfen " + game.start().text();
  if (!game.history().empty()) out += " moves " + moves_text(game);
  return out;
}

// Plays one engine move: "" if it was played, else why the engine forfeits.
std::string engine_move(koma::Game& game, SeatPlayer& p, Effort& effort) {
  if (!p.engine) return "";  // set by start_player
  const auto t0 = Clock::now();
  usi_seat::Answer answer;
  try {
    answer = p.engine->bestmove(usi_position(game), p.go, p.timeout);
  } catch (const usi_seat::EngineFault& f) {
    return f.what();
  }
  try {
    game.play(answer.move);
  } catch (const koma::Error& e) {
    return "it played '" + koma::escape_text(answer.move, 40) +
           "', which koma refuses: " + e.what();
  }
  ++effort.moves;
  effort.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  effort.nodes += answer.nodes;
  return "";
}

// Every seat but `loser` shares the first place; `loser` is last.
std::vector<int> forfeit_places(int seats, int loser) {
  std::vector<int> places(static_cast<std::size_t>(seats), 1);
  places[static_cast<std::size_t>(loser - 1)] = seats;
  return places;
}

// Game g from its start: --position, the seat --rotate-first gives the
// first move, or the variant's start.
koma::Game start_game(const Setup& s, int g) {
  const int n = seat_count(s);
  return s.start          ? koma::Game(*s.start)
         : s.rotate_first ? koma::Game(s.variant->start_position(g % n + 1))
                          : koma::Game(s.variant);
}

// A random opening, the same for the n games of one rotation, so that
// players without randomness of their own still meet in varied games and
// every level plays each opening from every seat.
void play_opening(const Setup& s, int g, koma::Game& game) {
  std::mt19937_64 opening_rng(s.seed * 1000003 + static_cast<std::uint64_t>(g / seat_count(s)));
  for (int ply = 0; ply < s.opening && !game.over(); ++ply) {
    std::vector<koma::Move> moves = game.legal_moves();
    game.play(moves[opening_rng() % moves.size()]);
  }
}

// Sends each engine seat its `gameover`: draw when every seat shares one
// place, else win for first place and lose for any other.
void tell_engines(std::vector<SeatPlayer>& players, const koma::Result& result) {
  const auto& places = result.places;
  const auto n = static_cast<std::ptrdiff_t>(places.size());
  for (std::size_t i = 0; i < players.size(); ++i)
    if (auto& engine = players[i].engine) {
      const int place = places[i];
      const bool all_same = std::count(places.begin(), places.end(), place) == n;
      engine->gameover(all_same ? "draw" : place == 1 ? "win" : "lose");
    }
}

// The game g (from 0); nullopt if `stopping` was set before it ended.
std::optional<Played> play_game(const Setup& s, int g, const std::atomic<bool>& stopping) {
  const int n = seat_count(s);
  koma::Game game = start_game(s, g);
  Played out;
  out.first_seat = game.start().to_move();
  std::vector<SeatPlayer> players;
  std::vector<std::string> start_faults(static_cast<std::size_t>(n));
  for (int seat = 1; seat <= n; ++seat) {
    int e = entry_at(seat, g, n);
    out.entry.push_back(e);
    players.push_back(start_player(s, e, limits_of(s, e, g, seat),
                                   start_faults[static_cast<std::size_t>(seat - 1)]));
  }
  out.effort.assign(n, Effort{});
  play_opening(s, g, game);
  while (!game.over() && !stopping) {
    int plies = static_cast<int>(game.history().size());
    if (s.cap > 0 && plies >= s.cap) {
      game.adjudicate(cap_places(game.position()), koma::Reason::adjudicated);
      break;
    }
    int seat = game.position().to_move();
    SeatPlayer& player = players[static_cast<std::size_t>(seat - 1)];
    Effort& effort = out.effort[static_cast<std::size_t>(seat - 1)];
    const std::string& name = s.entrants[static_cast<std::size_t>(out.entry[seat - 1])].name;
    if (!player.cpu) {
      std::string fault = start_faults[static_cast<std::size_t>(seat - 1)];
      if (fault.empty()) fault = engine_move(game, player, effort);
      if (fault.empty()) continue;
      out.forfeits.push_back("game " + std::to_string(g + 1) + " ply " + std::to_string(plies + 1) +
                             " seat " + std::to_string(seat) + " " + name + ": " + fault);
      game.adjudicate(forfeit_places(n, seat), koma::Reason::adjudicated);
      break;
    }
    try {
      game.play(player.cpu->choose(game));
      ++effort.moves;
      effort.seconds += player.cpu->info().seconds;
      effort.nodes += player.cpu->info().nodes;
      effort.depth += player.cpu->info().depth;
    } catch (const koma::Error& e) {
      throw driver::Failure(
          "game " + std::to_string(g + 1) + ", ply " + std::to_string(plies + 1) + ": the " + name +
              " player of seat " + std::to_string(seat) + " failed: " + e.what(),
          "game " + std::to_string(g + 1) + " after the moves: " + moves_text(game));
    }
  }
  if (!game.over()) return std::nullopt;  // another game failed
  out.moves = game.history();
  if (!out.moves.empty() && out.moves.back() == "adjudicate") out.moves.pop_back();
  out.result = *game.result();
  tell_engines(players, out.result);
  return out;
}

bool is_draw(const koma::Result& r) {
  using koma::Reason;
  if (r.reason == Reason::repetition || r.reason == Reason::max_plies ||
      r.reason == Reason::no_seat_can_move || r.reason == Reason::adjudicated)
    return true;
  return std::all_of(r.places.begin(), r.places.end(), [](int p) { return p == 1; });
}

std::string clock_text(double seconds) {
  long t = static_cast<long>(seconds);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%02ld:%02ld", t / 60, t % 60);
  return buf;
}

void draw_progress(int done, int total, double seconds) {
  constexpr int kWidth = 20;
  int filled = total ? static_cast<int>(static_cast<long long>(done) * kWidth / total) : kWidth;
  std::string bar = "\r[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] " +
                    std::to_string(done) + "/" + std::to_string(total) + " games  " +
                    clock_text(seconds);
  std::cerr << bar << std::flush;
}

std::string ordinal(int n) {
  const char* suffix = (n % 100 >= 11 && n % 100 <= 13) ? "th"
                       : n % 10 == 1                    ? "st"
                       : n % 10 == 2                    ? "nd"
                       : n % 10 == 3                    ? "rd"
                                                        : "th";
  return std::to_string(n) + suffix;
}

// The report's rows: one per entrant name, so that a level or an engine
// listed twice is one row.
struct Rows {
  std::vector<std::string> names;  // in the order of --seats
  std::vector<int> of_entry;       // of_entry[e]: the row of Setup::entrants[e]
  std::size_t name_width = 5;      // the widest name, "level" at least
};

Rows rows_of(const Setup& s) {
  Rows rows;
  for (const Entrant& who : s.entrants) {
    auto at = std::find(rows.names.begin(), rows.names.end(), who.name);
    if (at == rows.names.end()) at = rows.names.insert(at, who.name);
    rows.of_entry.push_back(static_cast<int>(at - rows.names.begin()));
  }
  for (const std::string& name : rows.names)
    rows.name_width = std::max(rows.name_width, name.size());
  return rows;
}

// The table of places: a header, then per row its games, average place, count
// of each place, draws and average plies.
std::string place_table(const Setup& s, const Rows& rows, const std::vector<Played>& played) {
  const int n = seat_count(s);
  struct Row {
    long games = 0, place_sum = 0, draws = 0, plies = 0;
    std::vector<long> places;
  };
  std::vector<Row> table(rows.names.size());
  for (Row& r : table) r.places.assign(n, 0);
  for (const Played& p : played) {
    bool draw = p.forfeits.empty() && is_draw(p.result);
    for (int seat = 1; seat <= n; ++seat) {
      Row& r = table[rows.of_entry[p.entry[seat - 1]]];
      int place = p.result.places[seat - 1];
      ++r.games;
      r.place_sum += place;
      ++r.places[place - 1];
      r.draws += draw;
      r.plies += static_cast<long>(p.moves.size());
    }
  }

  const int width = static_cast<int>(rows.name_width);
  std::string out;
  std::array<char, 128> buf{};
  std::snprintf(buf.data(), buf.size(), "%-*s %6s %10s", width, "level", "games", "avg place");
  out += buf.data();
  for (int k = 1; k <= n; ++k) {
    std::snprintf(buf.data(), buf.size(), " %5s", ordinal(k).c_str());
    out += buf.data();
  }
  out += "  draws  avg plies\n";
  for (std::size_t i = 0; i < rows.names.size(); ++i) {
    const Row& r = table[i];
    double games = static_cast<double>(std::max(r.games, 1L));
    std::snprintf(buf.data(), buf.size(), "%-*s %6ld %10.2f", width, rows.names[i].c_str(), r.games,
                  static_cast<double>(r.place_sum) / games);
    out += buf.data();
    for (long c : r.places) {
      std::snprintf(buf.data(), buf.size(), " %5ld", c);
      out += buf.data();
    }
    std::snprintf(buf.data(), buf.size(), " %6ld %10.1f\n", r.draws,
                  static_cast<double>(r.plies) / games);
    out += buf.data();
  }
  return out;
}

// Row a vs row b: per game where both played, the mean over their seat pairs
// of 1 (a placed better), 1/2 (same place), 0 (worse); then the mean over
// those games with a 95% interval, and their count.
std::string pair_score(const Setup& s, const Rows& rows, const std::vector<Played>& played, int a,
                       int b) {
  const int n = seat_count(s);
  double sum = 0;
  long games = 0;
  for (const Played& p : played) {
    double score = 0;
    int pairs = 0;
    for (int x = 0; x < n; ++x) {
      if (rows.of_entry[p.entry[x]] != a) continue;
      for (int y = 0; y < n; ++y) {
        if (rows.of_entry[p.entry[y]] != b) continue;
        int px = p.result.places[x], py = p.result.places[y];
        score += px < py ? 1.0 : px == py ? 0.5 : 0.0;
        ++pairs;
      }
    }
    if (pairs == 0) continue;
    sum += score / pairs;
    ++games;
  }
  std::string line = rows.names[a] + " vs " + rows.names[b] + ": ";
  if (games > 0) {
    double p = sum / static_cast<double>(games);
    double half = 1.96 * std::sqrt(p * (1 - p) / static_cast<double>(games));
    std::array<char, 128> buf{};
    std::snprintf(buf.data(), buf.size(), "%.2f \u00b1 %.2f", p, half);
    line += buf.data();
  } else {
    line += "-";
  }
  return line + " (n=" + std::to_string(games) + ")\n";
}

// The lines `speed`: per row, moves played, average milliseconds and nodes
// per move, thousands of nodes per second and average search depth.
std::string speed_table(const Setup& s, const Rows& rows, const std::vector<Played>& played) {
  const int n = seat_count(s);
  std::vector<Effort> effort(rows.names.size());
  for (const Played& p : played)
    for (int seat = 1; seat <= n; ++seat) {
      Effort& e = effort[rows.of_entry[p.entry[seat - 1]]];
      e.moves += p.effort[seat - 1].moves;
      e.seconds += p.effort[seat - 1].seconds;
      e.nodes += p.effort[seat - 1].nodes;
      e.depth += p.effort[seat - 1].depth;
    }
  const int width = static_cast<int>(rows.name_width);
  std::string out;
  std::array<char, 128> buf{};
  std::snprintf(buf.data(), buf.size(), "speed %-*s %8s %9s %11s %9s %6s\n", width, "level",
                "moves", "ms/move", "nodes/move", "knodes/s", "depth");
  out += buf.data();
  for (std::size_t i = 0; i < rows.names.size(); ++i) {
    const Effort& e = effort[i];
    double moves = static_cast<double>(std::max(e.moves, 1L));
    std::snprintf(buf.data(), buf.size(), "speed %-*s %8ld %9.2f %11.0f %9.1f %6.2f\n", width,
                  rows.names[i].c_str(), e.moves, 1000 * e.seconds / moves,
                  static_cast<double>(e.nodes) / moves,
                  e.seconds > 0 ? static_cast<double>(e.nodes) / e.seconds / 1000 : 0.0,
                  static_cast<double>(e.depth) / moves);
    out += buf.data();
  }
  return out;
}

// The table, the total line, the pairwise scores, the speed lines and the
// forfeits.
std::string report(const Setup& s, const std::vector<Played>& played, double seconds) {
  const Rows rows = rows_of(s);
  std::string out = place_table(s, rows, played);
  std::array<char, 128> buf{};
  std::snprintf(buf.data(), buf.size(), "total games %zu  time %.1f s\n", played.size(), seconds);
  out += buf.data();
  const int count = static_cast<int>(rows.names.size());
  for (int a = 0; a < count; ++a)
    for (int b = a + 1; b < count; ++b) out += pair_score(s, rows, played, a, b);
  // Wall time depends on the machine and on --jobs: this part alone varies.
  out += speed_table(s, rows, played);
  for (const Played& p : played)
    for (const std::string& f : p.forfeits) out += "forfeit " + f + "\n";
  return out;
}

// --usi NAME=COMMAND and --usi-option NAME:KEY=VALUE, by engine name.
std::map<std::string, usi_seat::EngineSpec> usi_engines(const po::variables_map& vm) {
  std::map<std::string, usi_seat::EngineSpec> engines;
  if (vm.count("usi"))
    for (const std::string& kv : vm["usi"].as<std::vector<std::string>>()) {
      const auto eq = kv.find('=');
      const std::string name = kv.substr(0, eq == std::string::npos ? 0 : eq);
      const bool word = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
      });
      if (!word || eq + 1 >= kv.size())
        throw driver::Failure("'" + koma::escape_text(kv, 80) +
                                  "' is not NAME=COMMAND (a name of letters, digits, - and _; "
                                  "a command)",
                              "--usi");
      if (koma::level_from_name(name) || name == "human")
        throw driver::Failure("the engine name '" + name + "' is taken by a seat type", "--usi");
      if (!engines.emplace(name, usi_seat::EngineSpec{name, kv.substr(eq + 1), {}}).second)
        throw driver::Failure("the engine '" + name + "' is named twice", "--usi");
    }
  if (vm.count("usi-option"))
    for (const std::string& spec : vm["usi-option"].as<std::vector<std::string>>()) {
      const auto colon = spec.find(':');
      const auto eq = spec.find('=', colon == std::string::npos ? 0 : colon);
      auto engine =
          colon == std::string::npos ? engines.end() : engines.find(spec.substr(0, colon));
      if (engine == engines.end() || eq == std::string::npos || eq == colon + 1)
        throw driver::Failure("'" + koma::escape_text(spec, 80) +
                                  "' is not NAME:KEY=VALUE for an engine named by --usi",
                              "--usi-option");
      // It becomes a line `setoption name KEY value VALUE`: a line break
      // would make it two commands.
      if (std::any_of(spec.begin(), spec.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        throw driver::Failure("'" + koma::escape_text(spec, 80) +
                                  "' holds a control character, which a USI line cannot carry",
                              "--usi-option");
      engine->second.options.emplace_back(spec.substr(colon + 1, eq - colon - 1),
                                          spec.substr(eq + 1));
    }
  return engines;
}

void add_match_options(po::options_description& desc) {
  driver::add_common(desc);
  desc.add_options()("seats", po::value<std::string>(),
                     "CPU levels, one per seat, comma separated (rotated game by game)")(
      "games", po::value<int>(), "number of games, 1 to 1000000 (required)")(
      "seed", po::value<long long>(),
      "match seed S, 0 to 10^15 (default 1); game g's seat s uses S*1000+g*8+s")(
      "jobs", po::value<int>(), "games played at once on that many threads, 1 to 256 (default 1)")(
      "rotate-first", "game g starts with seat (g mod seats)+1 to move (else first_seat)")(
      "max-plies", po::value<int>(),
      "adjudicate games still going after P plies, 1 to 1000000 (default 1000 for variants "
      "without a ply limit, else none beyond the variant's own)")(
      "nodes", po::value<long long>(),
      "node limit per move for every CPU level, 0 to 10^12 (default 0: the level's own; expert "
      "20000 when neither --nodes nor --seconds is given)")(
      "opening-plies", po::value<int>(),
      "start every game with K random legal moves, 0 to 1000, the same for the games of one "
      "rotation (default 0)")("level-nodes", po::value<std::vector<std::string>>(),
                              "LEVEL=N: node limit per move for that level, N from 0 to 10^12, "
                              "over --nodes (repeatable)")(
      "seconds", po::value<double>(),
      "time per move for every CPU level, 0 to 86400 (default 0: none; not reproducible)")(
      "record", po::value<std::string>(), "write every game to this JSON Lines record file")(
      "usi", po::value<std::vector<std::string>>(),
      "NAME=COMMAND: a USI engine that --seats may name like a level (repeatable)")(
      "usi-option", po::value<std::vector<std::string>>(),
      "NAME:KEY=VALUE: a setoption sent to engine NAME before each game (repeatable)")(
      "usi-timeout", po::value<double>(),
      "seconds an engine may take beyond its byoyomi to answer (and to start, at least 10) "
      "and to take each line koma sends, 0.1 to 86400 (default 30)");
}

// --level-nodes LEVEL=N, by level or engine name.
std::map<std::string, std::uint64_t> level_nodes_of(
    const po::variables_map& vm, const std::map<std::string, usi_seat::EngineSpec>& engines) {
  std::map<std::string, std::uint64_t> level_nodes;
  if (vm.count("level-nodes"))
    for (const std::string& kv : vm["level-nodes"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      const std::string name = kv.substr(0, eq == std::string::npos ? kv.size() : eq);
      const bool known = koma::level_from_name(name) || engines.count(name);
      long long count = -1;
      if (known && eq != std::string::npos) try {
          std::size_t used = 0;
          count = std::stoll(kv.substr(eq + 1), &used);
          if (used != kv.size() - eq - 1) count = -1;
        } catch (const std::exception&) {
        }
      if (!known || count < 0 || count > driver::kMaxNodes)
        throw driver::Failure("'" + kv +
                                  "' is not LEVEL=N (a level or --usi engine name, a node count "
                                  "from 0 to " +
                                  std::to_string(driver::kMaxNodes) + ")",
                              "--level-nodes");
      level_nodes[name] = static_cast<std::uint64_t>(count);
    }
  return level_nodes;
}

// The --option overrides, as the record keeps them.
koma::Options option_overrides(const po::variables_map& vm) {
  koma::Options overrides;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>())
      if (auto eq = kv.find('='); eq != std::string::npos && eq > 0)
        overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
  return overrides;
}

// --seats: CPU levels and --usi engines, one per seat of the variant.
std::vector<Entrant> entrants_of(const std::string& list, const koma::Variant& variant,
                                 const std::map<std::string, usi_seat::EngineSpec>& engines) {
  std::vector<Entrant> entrants;
  for (const std::string& name : driver::split_list(list)) {
    if (name.empty()) throw driver::Failure("--seats has an empty entry", "--seats");
    if (name == "human")
      throw driver::Failure("human cannot play in a match; every seat takes a CPU level",
                            "--seats");
    if (auto engine = engines.find(name); engine != engines.end()) {
      entrants.push_back(Entrant{name, std::nullopt, engine->second});
      continue;
    }
    auto level = koma::level_from_name(name);
    if (!level)
      throw driver::Failure("unknown level '" + name +
                                "'; levels: easy, normal, medium, strong, hard, expert, or an "
                                "engine named by --usi",
                            "--seats");
    entrants.push_back(Entrant{name, level, std::nullopt});
  }
  const int n = variant.seats();
  if (static_cast<int>(entrants.size()) != n)
    throw driver::Failure("--seats lists " + std::to_string(entrants.size()) + " level" +
                              (entrants.size() == 1 ? "" : "s") + ", but " + variant.name() +
                              " has " + std::to_string(n) + " seats",
                          "--seats");
  const bool any_engine = std::any_of(entrants.begin(), entrants.end(),
                                      [](const Entrant& e) { return e.engine.has_value(); });
  if (any_engine && !variant.uses_sfen())
    throw driver::Failure(
        "a USI engine needs a variant written in SFEN and USI (the two-player "
        "shogi family); " +
            variant.name() + " is not",
        "--seats");
  if (any_engine) usi_seat::prepare_signals();
  return entrants;
}

// The match the command line describes; throws Failure for what it refuses,
// checking the options in a fixed order.
Setup read_setup(const po::variables_map& vm) {
  if (!vm.count("seats")) throw driver::Failure("--seats LEVEL,LEVEL,... is required", "--seats");
  if (!vm.count("games")) throw driver::Failure("--games N is required", "--games");
  Setup s;
  s.games = driver::checked(vm, "games", 0, 1, kMaxGames);
  s.seed = static_cast<std::uint64_t>(driver::checked(vm, "seed", 1LL, 0LL, driver::kMaxSeed));
  s.jobs = driver::checked(vm, "jobs", 1, 1, kMaxJobs);
  s.rotate_first = vm.count("rotate-first") > 0;
  const koma::Limits limits = driver::search_limits(vm);
  s.nodes = limits.nodes;
  s.seconds = limits.seconds;
  const std::map<std::string, usi_seat::EngineSpec> engines = usi_engines(vm);
  s.usi_timeout = driver::checked(vm, "usi-timeout", 30.0, 0.1, 86400.0);
  s.level_nodes = level_nodes_of(vm, engines);
  std::optional<int> max_plies;
  s.opening = driver::checked(vm, "opening-plies", 0, 0, kMaxOpeningPlies);
  if (vm.count("max-plies")) max_plies = driver::checked(vm, "max-plies", 0, 1, driver::kMaxPlies);
  if (s.rotate_first && vm.count("first-seat"))
    throw driver::Failure("--rotate-first and --first-seat exclude each other", "command line");
  if (s.rotate_first && vm.count("position"))
    throw driver::Failure("--rotate-first and --position exclude each other", "command line");

  s.overrides = option_overrides(vm);
  s.variant = driver::load_variant(vm);
  s.descriptor = vm["variant"].as<std::string>();
  if (vm.count("position")) s.start = driver::start_position(s.variant, vm);
  s.entrants = entrants_of(vm["seats"].as<std::string>(), *s.variant, engines);
  int variant_limit = std::stoi(s.variant->options().at("max_plies"));
  s.cap = max_plies ? *max_plies : variant_limit > 0 ? 0 : 1000;
  return s;
}

// Game p's line of the record file.
std::string record_line(const Setup& s, const Played& p) {
  koma::GameRecord r;
  r.variant = s.variant->name();
  r.descriptor = s.descriptor;
  r.options = s.overrides;
  r.first_seat = p.first_seat;
  if (s.start) r.start = s.start->text();
  for (int e : p.entry) {
    const Entrant& who = s.entrants[static_cast<std::size_t>(e)];
    r.seats.push_back(who.level ? who.name : "usi:" + who.name);
  }
  r.moves = p.moves;
  r.result = p.result;
  return koma::record_line(r);
}

// The games of a match under way: taken in turn by the worker threads,
// collected by the thread that writes them out. Guarded by `mutex` but for
// the atomics.
struct Run {
  explicit Run(int games) : results(static_cast<std::size_t>(games)) {}
  std::vector<std::optional<Played>> results;  // by game, as they complete
  std::mutex mutex;
  std::condition_variable changed;  // a game completed, or one failed
  int done = 0;
  std::exception_ptr failure;  // the first failure; the match stops
  std::atomic<int> next{0};    // the next game to take
  std::atomic<bool> stopping{false};
};

// A worker thread: plays the next game not yet taken until none is left or
// the match stops.
void play_games(const Setup& s, Run& run) {
  for (int g; !run.stopping && (g = run.next++) < s.games;) {
    try {
      std::optional<Played> p = play_game(s, g, run.stopping);
      std::lock_guard lock(run.mutex);
      if (!p) break;
      run.results[g] = std::move(p);
      ++run.done;
    } catch (...) {
      std::lock_guard lock(run.mutex);
      if (!run.failure) run.failure = std::current_exception();
      run.stopping = true;
    }
    run.changed.notify_all();
  }
}

// Writes the records in game order as the games complete and redraws the
// progress bar (when `progress`), until every game is done or one failed.
void collect(const Setup& s, Run& run, std::optional<driver::Output>& record_out, bool progress,
             Clock::time_point t0) {
  int written = 0;
  std::unique_lock lock(run.mutex);
  for (;;) {
    while (!run.failure && written < s.games && run.results[written]) {
      try {
        if (record_out) record_out->write(record_line(s, *run.results[written]) + '\n');
      } catch (const driver::Failure&) {
        run.failure = std::current_exception();
        run.stopping = true;
      }
      ++written;
    }
    if (progress && !run.failure)
      draw_progress(run.done, s.games, std::chrono::duration<double>(Clock::now() - t0).count());
    if (run.done == s.games || run.failure) break;
    int seen = run.done;
    run.changed.wait_for(lock, std::chrono::seconds(1),
                         [&] { return run.done != seen || run.failure; });
  }
}

// Plays the match: games on `jobs` threads, records written by this one as
// they complete. Throws the first failure of a game or of the record file.
std::vector<Played> play_match(const Setup& s, std::optional<driver::Output>& record_out,
                               Clock::time_point t0) {
  const bool progress = driver::is_terminal(2);
  Run run(s.games);
  const int count = std::min(s.jobs, s.games);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(count));
  for (int j = 0; j < count; ++j) threads.emplace_back([&] { play_games(s, run); });
  collect(s, run, record_out, progress, t0);
  for (auto& t : threads) t.join();
  if (progress) std::cerr << "\n";
  if (run.failure) std::rethrow_exception(run.failure);
  std::vector<Played> played;
  for (auto& r : run.results) played.push_back(std::move(*r));
  return played;
}

}  // namespace

static int match_main(int argc, char** argv) {
  po::options_description desc("Options");
  add_match_options(desc);
  auto vm = driver::parse(argc, argv, desc, kUsage);
  const Setup s = read_setup(vm);
  std::optional<driver::Output> record_out;
  if (vm.count("record")) record_out.emplace(driver::file_option(vm, "record"), "the record file");
  const auto t0 = Clock::now();
  const std::vector<Played> played = play_match(s, record_out, t0);
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  std::cout << report(s, played, seconds);
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-match", match_main, argc, argv);
}
