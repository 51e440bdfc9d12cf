// koma-match: plays CPU levels (and outside USI engines) against each other,
// rotating the seats, and prints a table of places per level
// (docs/ai.md#output, docs/ai.md#usi-seats).
//   koma-match --variant variants/yonin.yaml --seats strong,normal,easy,easy --games 16
//   koma-match --variant yonin --seats strong,normal,easy,easy --games 8 --jobs 2
//              --nodes 2000 --record games.jsonl
#include <algorithm>
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

// The game g (from 0); nullopt if `stopping` was set before it ended.
std::optional<Played> play_game(const Setup& s, int g, const std::atomic<bool>& stopping) {
  const int n = seat_count(s);
  koma::Game game = s.start          ? koma::Game(*s.start)
                    : s.rotate_first ? koma::Game(s.variant->start_position(g % n + 1))
                                     : koma::Game(s.variant);
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
  // A random opening, the same for the n games of one rotation, so that
  // players without randomness of their own still meet in varied games and
  // every level plays each opening from every seat.
  std::mt19937_64 opening_rng(s.seed * 1000003 + static_cast<std::uint64_t>(g / n));
  for (int ply = 0; ply < s.opening && !game.over(); ++ply) {
    std::vector<koma::Move> moves = game.legal_moves();
    game.play(moves[opening_rng() % moves.size()]);
  }
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
  for (int seat = 1; seat <= n; ++seat)
    if (auto& engine = players[static_cast<std::size_t>(seat - 1)].engine) {
      const auto& places = out.result.places;
      const int place = places[static_cast<std::size_t>(seat - 1)];
      const bool all_same = std::count(places.begin(), places.end(), place) == n;
      engine->gameover(all_same ? "draw" : place == 1 ? "win" : "lose");
    }
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

// The table, the total line and the pairwise scores.
std::string report(const Setup& s, const std::vector<Played>& played, double seconds) {
  const int n = seat_count(s);
  // Rows by entrant name: a level or an engine listed twice is one row.
  std::vector<std::string> distinct;
  for (const Entrant& who : s.entrants)
    if (std::find(distinct.begin(), distinct.end(), who.name) == distinct.end())
      distinct.push_back(who.name);
  auto index_of = [&](int entry) {
    const std::string& name = s.entrants[static_cast<std::size_t>(entry)].name;
    return static_cast<int>(std::find(distinct.begin(), distinct.end(), name) - distinct.begin());
  };

  struct Row {
    long games = 0, place_sum = 0, draws = 0, plies = 0;
    std::vector<long> places;
  };
  std::vector<Row> rows(distinct.size());
  for (Row& r : rows) r.places.assign(n, 0);
  for (const Played& p : played) {
    bool draw = p.forfeits.empty() && is_draw(p.result);
    for (int seat = 1; seat <= n; ++seat) {
      Row& r = rows[index_of(p.entry[seat - 1])];
      int place = p.result.places[seat - 1];
      ++r.games;
      r.place_sum += place;
      ++r.places[place - 1];
      r.draws += draw;
      r.plies += static_cast<long>(p.moves.size());
    }
  }

  std::size_t name_width = 5;
  for (const std::string& name : distinct) name_width = std::max(name_width, name.size());
  std::string out;
  char buf[128];
  std::snprintf(buf, sizeof buf, "%-*s %6s %10s", static_cast<int>(name_width), "level", "games",
                "avg place");
  out += buf;
  for (int k = 1; k <= n; ++k) {
    std::snprintf(buf, sizeof buf, " %5s", ordinal(k).c_str());
    out += buf;
  }
  out += "  draws  avg plies\n";
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    const Row& r = rows[i];
    double games = static_cast<double>(std::max(r.games, 1L));
    std::snprintf(buf, sizeof buf, "%-*s %6ld %10.2f", static_cast<int>(name_width),
                  distinct[i].c_str(), r.games, static_cast<double>(r.place_sum) / games);
    out += buf;
    for (long c : r.places) {
      std::snprintf(buf, sizeof buf, " %5ld", c);
      out += buf;
    }
    std::snprintf(buf, sizeof buf, " %6ld %10.1f\n", r.draws, static_cast<double>(r.plies) / games);
    out += buf;
  }
  std::snprintf(buf, sizeof buf, "total games %zu  time %.1f s\n", played.size(), seconds);
  out += buf;

  // a vs b: per game where both played, the mean over their seat pairs of
  // 1 (a placed better), 1/2 (same place), 0 (worse).
  for (std::size_t a = 0; a < distinct.size(); ++a)
    for (std::size_t b = a + 1; b < distinct.size(); ++b) {
      double sum = 0;
      long games = 0;
      for (const Played& p : played) {
        double score = 0;
        int pairs = 0;
        for (int x = 0; x < n; ++x) {
          if (index_of(p.entry[x]) != static_cast<int>(a)) continue;
          for (int y = 0; y < n; ++y) {
            if (index_of(p.entry[y]) != static_cast<int>(b)) continue;
            int px = p.result.places[x], py = p.result.places[y];
            score += px < py ? 1.0 : px == py ? 0.5 : 0.0;
            ++pairs;
          }
        }
        if (pairs == 0) continue;
        sum += score / pairs;
        ++games;
      }
      std::string line = distinct[a] + " vs " + distinct[b] + ": ";
      if (games > 0) {
        double p = sum / static_cast<double>(games);
        double half = 1.96 * std::sqrt(p * (1 - p) / static_cast<double>(games));
        std::snprintf(buf, sizeof buf, "%.2f \u00b1 %.2f", p, half);
        line += buf;
      } else {
        line += "-";
      }
      out += line + " (n=" + std::to_string(games) + ")\n";
    }

  // Wall time depends on the machine and on --jobs: this part alone varies.
  std::vector<Effort> effort(distinct.size());
  for (const Played& p : played)
    for (int seat = 1; seat <= n; ++seat) {
      Effort& e = effort[index_of(p.entry[seat - 1])];
      e.moves += p.effort[seat - 1].moves;
      e.seconds += p.effort[seat - 1].seconds;
      e.nodes += p.effort[seat - 1].nodes;
      e.depth += p.effort[seat - 1].depth;
    }
  std::snprintf(buf, sizeof buf, "speed %-*s %8s %9s %11s %9s %6s\n", static_cast<int>(name_width),
                "level", "moves", "ms/move", "nodes/move", "knodes/s", "depth");
  out += buf;
  for (std::size_t i = 0; i < distinct.size(); ++i) {
    const Effort& e = effort[i];
    double moves = static_cast<double>(std::max(e.moves, 1L));
    std::snprintf(buf, sizeof buf, "speed %-*s %8ld %9.2f %11.0f %9.1f %6.2f\n",
                  static_cast<int>(name_width), distinct[i].c_str(), e.moves,
                  1000 * e.seconds / moves, static_cast<double>(e.nodes) / moves,
                  e.seconds > 0 ? static_cast<double>(e.nodes) / e.seconds / 1000 : 0.0,
                  static_cast<double>(e.depth) / moves);
    out += buf;
  }
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

}  // namespace

static int match_main(int argc, char** argv) {
  po::options_description desc("Options");
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
  auto vm = driver::parse(argc, argv, desc, kUsage);

  if (!vm.count("seats")) throw driver::Failure("--seats LEVEL,LEVEL,... is required", "--seats");
  if (!vm.count("games")) throw driver::Failure("--games N is required", "--games");
  Setup s;
  s.games = driver::checked(vm, "games", 0, 1, kMaxGames);
  s.seed = static_cast<std::uint64_t>(driver::checked(vm, "seed", 1LL, 0LL, driver::kMaxSeed));
  int jobs = driver::checked(vm, "jobs", 1, 1, kMaxJobs);
  s.rotate_first = vm.count("rotate-first") > 0;
  const koma::Limits limits = driver::search_limits(vm);
  s.nodes = limits.nodes;
  s.seconds = limits.seconds;
  const std::map<std::string, usi_seat::EngineSpec> engines = usi_engines(vm);
  s.usi_timeout = driver::checked(vm, "usi-timeout", 30.0, 0.1, 86400.0);
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
      s.level_nodes[name] = static_cast<std::uint64_t>(count);
    }
  std::optional<int> max_plies;
  s.opening = driver::checked(vm, "opening-plies", 0, 0, kMaxOpeningPlies);
  if (vm.count("max-plies")) max_plies = driver::checked(vm, "max-plies", 0, 1, driver::kMaxPlies);
  if (s.rotate_first && vm.count("first-seat"))
    throw driver::Failure("--rotate-first and --first-seat exclude each other", "command line");
  if (s.rotate_first && vm.count("position"))
    throw driver::Failure("--rotate-first and --position exclude each other", "command line");

  // The --option overrides, as the record keeps them.
  koma::Options overrides;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>())
      if (auto eq = kv.find('='); eq != std::string::npos && eq > 0)
        overrides[kv.substr(0, eq)] = kv.substr(eq + 1);
  s.variant = driver::load_variant(vm);
  if (vm.count("position")) s.start = driver::start_position(s.variant, vm);
  const int n = s.variant->seats();

  // --seats: CPU levels and --usi engines, one per seat.
  const std::string list = vm["seats"].as<std::string>();
  std::vector<std::string> names = driver::split_list(list);
  bool any_engine = false;
  for (const std::string& name : names) {
    if (name.empty()) throw driver::Failure("--seats has an empty entry", "--seats");
    if (name == "human")
      throw driver::Failure("human cannot play in a match; every seat takes a CPU level",
                            "--seats");
    if (auto engine = engines.find(name); engine != engines.end()) {
      s.entrants.push_back(Entrant{name, std::nullopt, engine->second});
      any_engine = true;
      continue;
    }
    auto level = koma::level_from_name(name);
    if (!level)
      throw driver::Failure("unknown level '" + name +
                                "'; levels: easy, normal, medium, strong, hard, expert, or an "
                                "engine named by --usi",
                            "--seats");
    s.entrants.push_back(Entrant{name, level, std::nullopt});
  }
  if (static_cast<int>(s.entrants.size()) != n)
    throw driver::Failure("--seats lists " + std::to_string(s.entrants.size()) + " level" +
                              (s.entrants.size() == 1 ? "" : "s") + ", but " + s.variant->name() +
                              " has " + std::to_string(n) + " seats",
                          "--seats");
  if (any_engine && !s.variant->uses_sfen())
    throw driver::Failure(
        "a USI engine needs a variant written in SFEN and USI (the two-player "
        "shogi family); " +
            s.variant->name() + " is not",
        "--seats");
  if (any_engine) usi_seat::prepare_signals();

  int variant_limit = std::stoi(s.variant->options().at("max_plies"));
  s.cap = max_plies ? *max_plies : variant_limit > 0 ? 0 : 1000;

  std::optional<driver::Output> record_out;
  if (vm.count("record")) record_out.emplace(driver::file_option(vm, "record"), "the record file");
  auto record_of = [&](const Played& p) {
    koma::GameRecord r;
    r.variant = s.variant->name();
    r.descriptor = vm["variant"].as<std::string>();
    r.options = overrides;
    r.first_seat = p.first_seat;
    if (s.start) r.start = s.start->text();
    for (int e : p.entry) {
      const Entrant& who = s.entrants[static_cast<std::size_t>(e)];
      r.seats.push_back(who.level ? who.name : "usi:" + who.name);
    }
    r.moves = p.moves;
    r.result = p.result;
    return koma::record_line(r);
  };

  // Games run on `jobs` threads; this thread writes the records in game order
  // as they complete and redraws the progress bar.
  const bool progress = driver::is_terminal(2);
  const auto t0 = Clock::now();
  std::vector<std::optional<Played>> results(s.games);
  std::mutex mutex;
  std::condition_variable changed;
  int done = 0;
  std::exception_ptr failure;
  std::atomic<int> next{0};
  std::atomic<bool> stopping{false};
  auto worker = [&] {
    for (int g; !stopping && (g = next++) < s.games;) {
      try {
        std::optional<Played> p = play_game(s, g, stopping);
        std::lock_guard lock(mutex);
        if (!p) break;
        results[g] = std::move(p);
        ++done;
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!failure) failure = std::current_exception();
        stopping = true;
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> threads;
  for (int j = 0; j < std::min(jobs, s.games); ++j) threads.emplace_back(worker);

  int written = 0;
  {
    std::unique_lock lock(mutex);
    for (;;) {
      while (!failure && written < s.games && results[written]) {
        try {
          if (record_out) record_out->write(record_of(*results[written]) + '\n');
        } catch (const driver::Failure&) {
          failure = std::current_exception();
          stopping = true;
        }
        ++written;
      }
      if (progress && !failure)
        draw_progress(done, s.games, std::chrono::duration<double>(Clock::now() - t0).count());
      if (done == s.games || failure) break;
      int seen = done;
      changed.wait_for(lock, std::chrono::seconds(1), [&] { return done != seen || failure; });
    }
  }
  for (auto& t : threads) t.join();
  if (progress) std::cerr << "\n";
  if (failure) std::rethrow_exception(failure);
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();

  std::vector<Played> played;
  for (auto& r : results) played.push_back(std::move(*r));
  std::cout << report(s, played, seconds);
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-match", match_main, argc, argv);
}
