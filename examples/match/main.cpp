// koma-match: plays CPU levels against each other, rotating the seats, and
// prints a table of places per level (docs/ai.md#output).
//   koma-match --variant variants/yonin.yaml --seats strong,normal,easy,easy --games 16
//   koma-match --variant yonin --seats strong,normal,easy,easy --games 8 --jobs 2
//              --nodes 2000 --record games.jsonl
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <exception>
#include <fstream>
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

namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kUsage =
    "usage: koma-match --variant FILE [--option k=v]... [--first-seat N] [--position TEXT]\n"
    "  --seats LEVEL,LEVEL,... --games N [--seed S] [--jobs J] [--rotate-first]\n"
    "  [--max-plies P] [--nodes N] [--level-nodes LEVEL=N]... [--seconds X]\n"
    "  [--opening-plies K] [--record FILE.jsonl]\n"
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
    "it is a terminal.";

constexpr int kMaxGames = 1'000'000;
constexpr int kMaxJobs = 256;
constexpr int kMaxOpeningPlies = 1000;

struct Setup {
  std::shared_ptr<const koma::Variant> variant;
  std::optional<koma::Position> start;  // --position
  std::vector<koma::Level> levels;      // --seats, in order
  int games = 0;
  std::uint64_t seed = 1;
  bool rotate_first = false;
  int cap = 0;      // plies; 0 = the variant's own limit only
  int opening = 0;  // --opening-plies
  std::uint64_t nodes = 0;
  double seconds = 0;
  std::map<koma::Level, std::uint64_t> level_nodes;  // --level-nodes, over --nodes
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
  std::vector<int> entry;  // entry[seat - 1]: the index into Setup::levels sitting there
  int first_seat = 1;
  std::vector<std::string> moves;
  koma::Result result;
  std::vector<Effort> effort;  // effort[seat - 1]
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

// The game g (from 0); nullopt if `stopping` was set before it ended.
std::optional<Played> play_game(const Setup& s, int g, const std::atomic<bool>& stopping) {
  const int n = seat_count(s);
  koma::Game game = s.start          ? koma::Game(*s.start)
                    : s.rotate_first ? koma::Game(s.variant->start_position(g % n + 1))
                                     : koma::Game(s.variant);
  Played out;
  out.first_seat = game.start().to_move();
  std::vector<std::unique_ptr<koma::Player>> players;
  for (int seat = 1; seat <= n; ++seat) {
    int e = entry_at(seat, g, n);
    out.entry.push_back(e);
    koma::Limits limits;
    limits.nodes = s.nodes;
    limits.seconds = s.seconds;
    if (s.levels[e] == koma::Level::expert && !s.nodes && s.seconds <= 0) limits.nodes = 20000;
    if (auto it = s.level_nodes.find(s.levels[e]); it != s.level_nodes.end())
      limits.nodes = it->second;
    limits.seed =
        s.seed * 1000 + static_cast<std::uint64_t>(g) * 8 + static_cast<std::uint64_t>(seat);
    players.push_back(std::make_unique<koma::Player>(s.levels[e], limits));
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
    koma::Player& player = *players[seat - 1];
    try {
      game.play(player.choose(game));
      Effort& e = out.effort[seat - 1];
      ++e.moves;
      e.seconds += player.info().seconds;
      e.nodes += player.info().nodes;
      e.depth += player.info().depth;
    } catch (const koma::Error& e) {
      throw driver::Failure(
          "game " + std::to_string(g + 1) + ", ply " + std::to_string(plies + 1) + ": the " +
              std::string(koma::level_name(player.level())) + " player of seat " +
              std::to_string(seat) + " failed: " + e.what(),
          "game " + std::to_string(g + 1) + " after the moves: " + moves_text(game));
    }
  }
  if (!game.over()) return std::nullopt;  // another game failed
  out.moves = game.history();
  if (!out.moves.empty() && out.moves.back() == "adjudicate") out.moves.pop_back();
  out.result = *game.result();
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
  std::vector<koma::Level> distinct;
  for (koma::Level l : s.levels)
    if (std::find(distinct.begin(), distinct.end(), l) == distinct.end()) distinct.push_back(l);
  auto index_of = [&](koma::Level l) {
    return static_cast<int>(std::find(distinct.begin(), distinct.end(), l) - distinct.begin());
  };

  struct Row {
    long games = 0, place_sum = 0, draws = 0, plies = 0;
    std::vector<long> places;
  };
  std::vector<Row> rows(distinct.size());
  for (Row& r : rows) r.places.assign(n, 0);
  for (const Played& p : played) {
    bool draw = is_draw(p.result);
    for (int seat = 1; seat <= n; ++seat) {
      Row& r = rows[index_of(s.levels[p.entry[seat - 1]])];
      int place = p.result.places[seat - 1];
      ++r.games;
      r.place_sum += place;
      ++r.places[place - 1];
      r.draws += draw;
      r.plies += static_cast<long>(p.moves.size());
    }
  }

  std::size_t name_width = 5;
  for (koma::Level l : distinct) name_width = std::max(name_width, koma::level_name(l).size());
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
                  std::string(koma::level_name(distinct[i])).c_str(), r.games,
                  static_cast<double>(r.place_sum) / games);
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
          if (index_of(s.levels[p.entry[x]]) != static_cast<int>(a)) continue;
          for (int y = 0; y < n; ++y) {
            if (index_of(s.levels[p.entry[y]]) != static_cast<int>(b)) continue;
            int px = p.result.places[x], py = p.result.places[y];
            score += px < py ? 1.0 : px == py ? 0.5 : 0.0;
            ++pairs;
          }
        }
        if (pairs == 0) continue;
        sum += score / pairs;
        ++games;
      }
      std::string line = std::string(koma::level_name(distinct[a])) + " vs " +
                         std::string(koma::level_name(distinct[b])) + ": ";
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
      Effort& e = effort[index_of(s.levels[p.entry[seat - 1]])];
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
                  static_cast<int>(name_width), std::string(koma::level_name(distinct[i])).c_str(),
                  e.moves, 1000 * e.seconds / moves, static_cast<double>(e.nodes) / moves,
                  e.seconds > 0 ? static_cast<double>(e.nodes) / e.seconds / 1000 : 0.0,
                  static_cast<double>(e.depth) / moves);
    out += buf;
  }
  return out;
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
      "record", po::value<std::string>(), "write every game to this JSON Lines record file");
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
  if (vm.count("level-nodes"))
    for (const std::string& kv : vm["level-nodes"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      auto level = koma::level_from_name(kv.substr(0, eq == std::string::npos ? kv.size() : eq));
      long long count = -1;
      if (level && eq != std::string::npos) try {
          std::size_t used = 0;
          count = std::stoll(kv.substr(eq + 1), &used);
          if (used != kv.size() - eq - 1) count = -1;
        } catch (const std::exception&) {
        }
      if (!level || count < 0 || count > driver::kMaxNodes)
        throw driver::Failure("'" + kv + "' is not LEVEL=N (a level name, a node count from 0 to " +
                                  std::to_string(driver::kMaxNodes) + ")",
                              "--level-nodes");
      s.level_nodes[*level] = static_cast<std::uint64_t>(count);
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

  // --seats: CPU levels only, one per seat.
  const std::string list = vm["seats"].as<std::string>();
  std::vector<std::string> names = driver::split_list(list);
  for (const std::string& name : names) {
    if (name.empty()) throw driver::Failure("--seats has an empty entry", "--seats");
    if (name == "human")
      throw driver::Failure("human cannot play in a match; every seat takes a CPU level",
                            "--seats");
    auto level = koma::level_from_name(name);
    if (!level)
      throw driver::Failure(
          "unknown level '" + name + "'; levels: easy, normal, medium, strong, hard, expert",
          "--seats");
    s.levels.push_back(*level);
  }
  if (static_cast<int>(s.levels.size()) != n)
    throw driver::Failure("--seats lists " + std::to_string(s.levels.size()) + " level" +
                              (s.levels.size() == 1 ? "" : "s") + ", but " + s.variant->name() +
                              " has " + std::to_string(n) + " seats",
                          "--seats");

  int variant_limit = std::stoi(s.variant->options().at("max_plies"));
  s.cap = max_plies ? *max_plies : variant_limit > 0 ? 0 : 1000;

  std::ofstream record_out;
  std::string record_path;
  if (vm.count("record")) {
    record_path = vm["record"].as<std::string>();
    record_out.open(record_path, std::ios::binary | std::ios::trunc);
    if (!record_out) throw driver::Failure("cannot write the record file", record_path);
  }
  auto record_of = [&](const Played& p) {
    koma::GameRecord r;
    r.variant = s.variant->name();
    r.descriptor = vm["variant"].as<std::string>();
    r.options = overrides;
    r.first_seat = p.first_seat;
    if (s.start) r.start = s.start->text();
    for (int e : p.entry) r.seats.emplace_back(koma::level_name(s.levels[e]));
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
        if (record_out.is_open()) record_out << record_of(*results[written]) << '\n' << std::flush;
        ++written;
      }
      if (record_out.is_open() && !record_out && !failure) {
        failure =
            std::make_exception_ptr(driver::Failure("cannot write the record file", record_path));
        stopping = true;
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
