#include "engine.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "driver.hpp"

#ifndef KOMA_VERSION
#define KOMA_VERSION "0.1.0"
#endif

namespace usi {

namespace {

using Clock = std::chrono::steady_clock;

// Limits::seconds = 0 means "the level's own" (2 s for expert). Searches whose
// time the watchdog manages (infinite, a clock) pass this instead: long enough
// never to matter, small enough that Player's microsecond count fits a 32-bit
// long.
constexpr double kManagedSeconds = 2000;
// Clock values beyond this (about 30 years) are cut, so sums cannot overflow.
constexpr long long kMaxMs = 1'000'000'000'000LL;
// `go depth` beyond the deepest a Player takes is cut to it.
using koma::kMaxDepth;
// Moves a position command may list: far more than any real game (GUIs stop
// games at a few hundred moves), and it bounds the time a position command
// takes to replay.
constexpr std::size_t kMaxPositionMoves = 4096;
constexpr std::uint64_t kMaxNodesOption = 1'000'000'000;
constexpr std::uint64_t kMaxSeedOption = 2'147'483'647;

struct RuleName {
  Rule rule;
  const char* usi;      // the USI value of EnteringKingRule
  const char* impasse;  // the descriptor's impasse value
};
constexpr RuleName kRules[] = {
    {Rule::none, "NoEnteringKing", "none"},
    {Rule::csa24, "CSARule24", "csa24"},
    {Rule::csa27, "CSARule27", "csa27"},
    {Rule::try_rule, "TryRule", "try"},
};

const RuleName& rule_name(Rule rule) {
  for (const RuleName& r : kRules)
    if (r.rule == rule) return r;
  return kRules[2];
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

// USI allows any run of white space between tokens.
std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !is_space(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

// Echoed input inside quotes, escaped and cut at 60 bytes.
using driver::in_quotes;

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Option names are case-sensitive in USI; accepting other cases harms no one.
bool same_name(std::string_view a, std::string_view b) {
  return lower(a) == lower(b);
}

template <class T>
std::optional<T> number(std::string_view text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::string joined(const std::vector<std::string_view>& args, std::size_t from, std::size_t to) {
  std::string out;
  for (std::size_t i = from; i < to; ++i) {
    if (!out.empty()) out += ' ';
    out += args[i];
  }
  return out;
}

// The longest descriptor name offered as a USI_Variant value.
constexpr std::size_t kMaxVariantName = 64;

// Whether a descriptor's name can be a value of the USI_Variant combo: one
// USI word (printable, no white space: a GUI splits the option line at
// spaces), at most kMaxVariantName bytes, and none of the words the option
// line is made of.
bool usi_word(std::string_view name) {
  constexpr std::string_view kKeywords[] = {"name", "type", "default", "min", "max", "var"};
  return !name.empty() && name.size() <= kMaxVariantName && koma::escape_text(name) == name &&
         name.find(' ') == std::string_view::npos &&
         std::find(std::begin(kKeywords), std::end(kKeywords), name) == std::end(kKeywords);
}

// Whether `r` ranks `seat` alone in first place.
bool wins(const koma::Result& r, int seat) {
  if (seat < 1 || static_cast<std::size_t>(seat) > r.places.size() || r.places[seat - 1] != 1)
    return false;
  for (std::size_t s = 0; s < r.places.size(); ++s)
    if (static_cast<int>(s) != seat - 1 && r.places[s] == 1) return false;
  return true;
}

// Whether the side to move wins by declaring now (CSARule24/27).
bool declaration_wins(const koma::Game& game) {
  if (!game.variant().has_declaration()) return false;
  koma::Game trial = game;
  try {
    trial.declare_win();
  } catch (const koma::Error&) {
  }
  return trial.result() && wins(*trial.result(), game.position().to_move());
}

// TryRule: the king move among `legal` that wins by the try, if any. USI has
// no `bestmove win` for a try. The reference engine, YaneuraOu, answers with
// the king's move itself: its Position::DeclarationWin() returns, under
// EKR_TRY_RULE, the move of the king to 5a (5i for gote), "the king's move
// settles the win", and the search plays it as a move from the root moves,
// so a `bestmove 5b5a` (yaneurao/YaneuraOu, source/position.cpp and the root
// of the search); judging the try is left to the GUI (yaneurao/YaneuraOu
// issue #99: "it is the GUI that decides this, so a GUI that supports the
// try rule is needed"). koma does the same: a winning try is played as the
// king move.
std::optional<koma::Move> winning_try(const koma::Game& game,
                                      const std::vector<koma::Move>& legal) {
  const koma::Variant& variant = game.variant();
  auto impasse = variant.options().find("impasse");
  if (impasse == variant.options().end() || impasse->second != "try") return std::nullopt;
  const koma::Position& pos = game.position();
  const int me = pos.to_move();
  for (koma::Move m : legal) {
    if (m.is_drop()) continue;
    auto piece = pos.at(m.from);
    if (!piece || !variant.kind_info(piece->kind).royal) continue;
    // A fresh game from here: the try needs no history, and an earlier
    // ending by rule must not hide it.
    koma::Game trial(pos);
    try {
      trial.play(m);
    } catch (const koma::Error&) {
      continue;
    }
    if (trial.result() && trial.result()->reason == koma::Reason::try_rule &&
        wins(*trial.result(), me))
      return m;
  }
  return std::nullopt;
}

// The `info` line of a search that chose `m` in `game`: depth, nodes, time,
// speed, score (mate 1 when `m` wins at once) and the move.
std::string search_line(const koma::Game& game, koma::Move m, const koma::SearchInfo& si) {
  const koma::Position& pos = game.position();
  koma::Game after = game;
  after.play(m);
  std::string score;
  if (after.over() && after.result() && wins(*after.result(), pos.to_move()))
    score = "mate 1";
  else if (si.score >= koma::kWinScore)
    score = "mate +";
  else if (si.score <= -koma::kWinScore)
    score = "mate -";
  else
    (score = "cp ") += std::to_string(si.score);
  const long long ms = std::llround(si.seconds * 1000);
  const double nps = static_cast<double>(si.nodes) / std::max(si.seconds, 0.001);
  std::string text = "info depth ";
  text += std::to_string(std::max(1, si.depth));
  text += " nodes ";
  text += std::to_string(si.nodes);
  text += " time ";
  text += std::to_string(ms);
  text += " nps ";
  text += std::to_string(std::llround(nps));
  text += " score ";
  text += score;
  text += " pv ";
  text += pos.move_text(m);
  return text;
}

}  // namespace

// The time for one move from the mover's clock, all in milliseconds: remaining
// time R, increment I, byoyomi Y.
//   available = R + Y: what the clock allows before the flag falls (the
//     increment is not counted on: GUIs differ on whether it comes before or
//     after the move);
//   margin = available / 10, kept between 10 and 300 ms: process, pipe and GUI lag;
//   target = Y + I + R / 30: byoyomi is spent in full, and a thirtieth of the
//     main time (a game has some 30 or more moves of ours left);
//   result = target, never more than available - margin, never less than 1 ms.
// E.g. btime 1000 byoyomi 100: available 1100, margin 110, target 133 -> 133 ms.
long long allocate_ms(long long remaining, long long increment, long long byoyomi) {
  remaining = std::clamp(remaining, 0LL, kMaxMs);
  increment = std::clamp(increment, 0LL, kMaxMs);
  byoyomi = std::clamp(byoyomi, 0LL, kMaxMs);
  const long long available = remaining + byoyomi;
  const long long margin = std::clamp(available / 10, 10LL, 300LL);
  const long long target = byoyomi + increment + remaining / 30;
  return std::max(1LL, std::min(target, available - margin));
}

Engine::Engine(std::ostream& out, std::string variant_path, koma::Options options, SearchCap cap)
    : out_(out), options_(std::move(options)), cap_(cap) {
  if (options_.count("impasse"))
    throw driver::Failure("the impasse rule is the USI option EnteringKingRule, not an --option",
                          "--option");
  select_variant(variant_path);
}

void Engine::select_variant(const std::string& path) {
  auto plain = koma::Variant::load(path, options_);
  if (!plain->uses_sfen() || plain->seats() != 2) {
    std::string what = plain->name();
    what += " is not two-player shogi in SFEN/USI notation, the only game koma-usi plays";
    throw driver::Failure(what, path);
  }
  variant_path_ = path;
  sfen_.reset();
  moves_.clear();
  has_impasse_ = plain->options().count("impasse") > 0;
  if (has_impasse_) {
    load_rule(Rule::csa27);
  } else {
    variant_ = plain;
    game_.emplace(variant_, koma::Game::Referee::outside);
  }
}

const std::vector<std::pair<std::string, std::string>>& Engine::usi_variants() {
  if (usi_variants_) return *usi_variants_;
  usi_variants_.emplace();
  std::error_code ec;
  const auto dir = std::filesystem::path(variant_path_).parent_path();
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator(dir.empty() ? "." : dir, ec))
    if (entry.path().extension() == ".yaml" && entry.is_regular_file(ec))
      paths.push_back(entry.path().string());
  for (const std::string& p : paths) {
    try {
      auto v = koma::Variant::load(p, options_);
      if (v->uses_sfen() && v->seats() == 2 && usi_word(v->name()))
        usi_variants_->emplace_back(v->name(), p);
    } catch (const koma::Error&) {
      // Not a game koma-usi can offer with these options.
    }
  }
  if (usi_word(variant_->name()) &&
      std::none_of(usi_variants_->begin(), usi_variants_->end(),
                   [&](const auto& nv) { return nv.first == variant_->name(); }))
    usi_variants_->emplace_back(variant_->name(), variant_path_);
  std::sort(usi_variants_->begin(), usi_variants_->end());
  return *usi_variants_;
}

Engine::~Engine() {
  end_search(false);
}

void Engine::write(std::string_view line) {
  // Every answer is one printable line, whatever text went into it.
  const std::string text = koma::escape_text(line);
  std::lock_guard lock(out_mutex_);
  out_ << text << '\n';
  out_.flush();
}

// Escaped as a whole too, so that the GUI always reads one printable line;
// text escaped before (the echoes, the library's messages) stays as it is.
void Engine::info(std::string_view text) {
  std::string line = "info string ";
  line += koma::escape_text(text, 400);
  write(line);
}

void Engine::refuse_long_line() {
  info(driver::long_line_text());
}

void Engine::serve(std::istream& in) {
  std::string line;
  while (!quitting_) {
    const driver::LineRead read =
        driver::read_line(*in.rdbuf(), line, [&](std::string_view) { refuse_long_line(); });
    if (read == driver::LineRead::end) break;
    if (read == driver::LineRead::line) handle(line);
  }
  handle("quit");
}

void Engine::handle(std::string_view line) {
  if (quitting_) return;
  if (line.size() > kMaxLineBytes) return refuse_long_line();
  try {
    std::vector<std::string_view> tokens = split(line);
    if (tokens.empty()) return;
    const std::string_view cmd = tokens[0];
    const std::vector<std::string_view> args(tokens.begin() + 1, tokens.end());
    if (cmd == "usi") {
      cmd_usi();
    } else if (cmd == "isready") {
      write("readyok");
    } else if (cmd == "setoption") {
      cmd_setoption(args);
    } else if (cmd == "usinewgame") {
      end_search(false);
      sfen_.reset();
      moves_.clear();
      game_.emplace(variant_, koma::Game::Referee::outside);
    } else if (cmd == "position") {
      cmd_position(args);
    } else if (cmd == "go") {
      cmd_go(args);
    } else if (cmd == "stop") {
      end_search(true);
    } else if (cmd == "ponderhit") {
      cmd_ponderhit();
    } else if (cmd == "gameover") {
      if (args.size() != 1 || (args[0] != "win" && args[0] != "lose" && args[0] != "draw"))
        info("gameover takes win, lose or draw; the game is over all the same");
      end_search(false);
    } else if (cmd == "quit") {
      end_search(true);
      quitting_ = true;
    } else {
      std::string text = "unknown command ";
      text += in_quotes(cmd);
      text += "; ignored";
      info(text);
    }
  } catch (const std::exception& e) {
    std::string text = "internal error, command ignored: ";
    text += e.what();
    info(text);
  }
}

void Engine::cmd_usi() {
  std::string name = "id name koma ";
  name += KOMA_VERSION;
  write(name);
  write("id author the koma authors");
  write("option name Level type combo default expert var easy var medium var hard var expert");
  if (has_impasse_)
    write(
        "option name EnteringKingRule type combo default CSARule27 var NoEnteringKing var "
        "CSARule24 var CSARule27 var TryRule");
  // Without a USI word for the game played, there is no default to offer.
  if (usi_word(variant_->name())) {
    std::string variants = "option name USI_Variant type combo default ";
    variants += variant_->name();
    for (const auto& nv : usi_variants()) (variants += " var ") += nv.first;
    write(variants);
  }
  write("option name Nodes type spin default 0 min 0 max 1000000000");
  write("option name Seed type spin default 1 min 0 max 2147483647");
  write("usiok");
}

void Engine::cmd_setoption(const std::vector<std::string_view>& args) {
  if (args.empty() || args[0] != "name") {
    info("setoption takes: setoption name <id> [value <x>]; ignored");
    return;
  }
  std::size_t v = 1;
  while (v < args.size() && args[v] != "value") ++v;
  const std::string name = joined(args, 1, v);
  const std::string value = v < args.size() ? joined(args, v + 1, args.size()) : "";
  if (name.empty()) {
    info("setoption: the option name is missing; ignored");
    return;
  }
  // Makes a change; if koma refuses it, says so and keeps the old setting.
  auto or_unchanged = [&](std::string_view option, const auto& change) {
    try {
      change();
    } catch (const std::exception& e) {
      std::string text(option);
      text += " unchanged: ";
      text += e.what();
      info(text);
    }
  };
  auto refuse = [&](std::string_view allowed) {
    std::string text = name;
    text += " cannot be ";
    text += in_quotes(value);
    text += "; ";
    text += allowed;
    text += "; unchanged";
    info(text);
  };

  if (same_name(name, "Level")) {
    const std::string lv = lower(value);
    if (lv != "easy" && lv != "medium" && lv != "hard" && lv != "expert")
      return refuse("allowed: easy, medium, hard, expert");
    level_ = *koma::level_from_name(lv);
  } else if (same_name(name, "EnteringKingRule")) {
    if (!has_impasse_) {
      std::string text = variant_->name();
      text += " has no impasse option; EnteringKingRule ignored";
      return info(text);
    }
    const RuleName* found = nullptr;
    for (const RuleName& r : kRules)
      if (same_name(value, r.usi)) found = &r;
    if (!found) return refuse("allowed: NoEnteringKing, CSARule24, CSARule27, TryRule");
    or_unchanged("EnteringKingRule", [&] { load_rule(found->rule); });
  } else if (same_name(name, "USI_Variant")) {
    const auto& all = usi_variants();
    auto it =
        std::find_if(all.begin(), all.end(), [&](const auto& nv) { return nv.first == value; });
    if (it == all.end()) {
      std::string names;
      for (const auto& nv : all) (names += names.empty() ? "" : ", ") += nv.first;
      return refuse("allowed: " + names);
    }
    end_search(false);
    or_unchanged("USI_Variant", [&] { select_variant(it->second); });
  } else if (same_name(name, "Nodes")) {
    auto n = number<std::uint64_t>(value);
    if (!n || *n > kMaxNodesOption) return refuse("a whole number from 0 to 1000000000");
    nodes_option_ = *n;
  } else if (same_name(name, "Seed")) {
    auto n = number<std::uint64_t>(value);
    if (!n || *n > kMaxSeedOption) return refuse("a whole number from 0 to 2147483647");
    seed_ = *n;
  } else if (same_name(name, "USI_Hash") || same_name(name, "USI_Ponder")) {
    // Every GUI sends these. koma sizes its own tables and never ponders.
  } else {
    std::string text = "unknown option ";
    text += in_quotes(name);
    text += "; ignored";
    info(text);
  }
}

void Engine::load_rule(Rule rule) {
  koma::Options options = options_;
  options["impasse"] = rule_name(rule).impasse;
  auto variant = koma::Variant::load(variant_path_, options);
  variant_ = variant;
  rule_ = rule;
  try {
    game_.emplace(build_game(variant_, sfen_, moves_));
  } catch (const std::exception& e) {
    // Not expected: the impasse rule changes no move's legality.
    sfen_.reset();
    moves_.clear();
    game_.emplace(variant_, koma::Game::Referee::outside);
    std::string text = "the position was reset to the start: ";
    text += e.what();
    info(text);
  }
}

koma::Game Engine::build_game(const std::shared_ptr<const koma::Variant>& variant,
                              const std::optional<std::string>& sfen,
                              const std::vector<std::string>& moves) const {
  auto start = [&] {
    try {
      return koma::Position::from_text(variant, *sfen);
    } catch (const koma::NotationError& e) {
      std::string text = "sfen ";
      text += in_quotes(*sfen);
      text += ": ";
      text += e.what();
      throw std::invalid_argument(text);
    }
  };
  koma::Game game = sfen ? koma::Game(start(), koma::Game::Referee::outside)
                         : koma::Game(variant, koma::Game::Referee::outside);
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const std::string& text = moves[i];
    std::string where = "move ";
    where += std::to_string(i + 1);
    where += ' ';
    where += in_quotes(text);
    // Game::play(text) would take these actions; a GUI never sends them as moves.
    if (text == "resign" || text == "win") {
      where += " is an action, not a move";
      throw std::invalid_argument(where);
    }
    koma::Move m;
    try {
      m = game.position().parse_move(text);
    } catch (const koma::NotationError& e) {
      where += " is unreadable: ";
      where += e.what();
      throw std::invalid_argument(where);
    }
    if (std::string why = game.why_illegal(m); !why.empty()) {
      where += " is illegal: ";
      where += why;
      throw std::invalid_argument(where);
    }
    game.play(m);
  }
  return game;
}

void Engine::cmd_position(const std::vector<std::string_view>& args) {
  auto refuse = [&](std::string_view why) {
    std::string text = "position ignored, the previous one is kept: ";
    text += why;
    info(text);
  };
  if (args.empty()) return refuse("write position startpos|sfen <sfen> [moves ...]");
  std::optional<std::string> sfen;
  std::size_t i = 1;
  if (args[0] == "sfen") {
    while (i < args.size() && args[i] != "moves") ++i;
    if (i == 1) return refuse("sfen needs a position");
    sfen = joined(args, 1, i);
    // Some tools leave the move number out; SFEN requires it.
    if (i == 4) *sfen += " 1";
  } else if (args[0] != "startpos") {
    std::string why = "expected startpos or sfen, not ";
    why += in_quotes(args[0]);
    return refuse(why);
  }
  std::vector<std::string> moves;
  if (i < args.size()) {
    if (args[i] != "moves") {
      std::string why = "expected moves after the position, not ";
      why += in_quotes(args[i]);
      return refuse(why);
    }
    if (args.size() - i - 1 > kMaxPositionMoves) {
      std::string why = "the move list has ";
      why += std::to_string(args.size() - i - 1);
      why += " moves; at most ";
      why += std::to_string(kMaxPositionMoves);
      why += " are read";
      return refuse(why);
    }
    for (++i; i < args.size(); ++i) moves.emplace_back(args[i]);
  }
  try {
    koma::Game game = build_game(variant_, sfen, moves);
    game_.emplace(game);
    sfen_ = std::move(sfen);
    moves_ = std::move(moves);
  } catch (const std::exception& e) {
    refuse(e.what());
  }
}

void Engine::refuse_go(std::string_view why) {
  std::string text = "go ignored: ";
  text += why;
  info(text);
}

std::optional<Engine::Go> Engine::read_go(const std::vector<std::string_view>& args) {
  Go go;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view key = args[i];
    std::optional<long long>* clock = key == "btime"      ? &go.btime
                                      : key == "wtime"    ? &go.wtime
                                      : key == "binc"     ? &go.binc
                                      : key == "winc"     ? &go.winc
                                      : key == "byoyomi"  ? &go.byoyomi
                                      : key == "movetime" ? &go.movetime
                                                          : nullptr;
    std::string why(key);
    if (clock) {
      auto ms = i + 1 < args.size() ? number<long long>(args[i + 1]) : std::nullopt;
      if (!ms) {
        refuse_go(why += " needs a whole number of milliseconds");
        return std::nullopt;
      }
      // Some GUIs send a negative remaining time once it has run out.
      *clock = std::clamp(*ms, 0LL, kMaxMs);
      ++i;
    } else if (key == "depth") {
      auto n = i + 1 < args.size() ? number<int>(args[i + 1]) : std::nullopt;
      if (!n || *n < 1) {
        refuse_go(why += " needs a whole number of plies, 1 or more");
        return std::nullopt;
      }
      go.depth = std::min(*n, kMaxDepth);
      ++i;
    } else if (key == "nodes") {
      auto n = i + 1 < args.size() ? number<std::uint64_t>(args[i + 1]) : std::nullopt;
      if (!n || *n < 1) {
        refuse_go(why += " needs a whole number of nodes, 1 or more");
        return std::nullopt;
      }
      go.nodes = *n;
      ++i;
    } else if (key == "infinite") {
      go.infinite = true;
    } else if (key == "ponder") {
      go.ponder = true;
    } else if (key == "mate") {
      // The USI answer of an engine without a mate solver.
      write("checkmate notimplemented");
      return std::nullopt;
    } else {
      std::string text = "unknown parameter ";
      text += in_quotes(key);
      refuse_go(text);
      return std::nullopt;
    }
  }
  return go;
}

std::optional<long long> Engine::budget_ms(const Go& go) const {
  std::optional<long long> budget;
  if (go.movetime) {
    budget = std::max(1LL, *go.movetime);
  } else if (go.btime || go.wtime || go.binc || go.winc || go.byoyomi) {
    const bool sente = game_->position().to_move() == 1;
    const long long remaining = (sente ? go.btime : go.wtime).value_or(0);
    const long long increment = (sente ? go.binc : go.winc).value_or(0);
    const long long byoyomi = go.byoyomi.value_or(0);
    // An all-zero clock sets no limit: the level's own apply.
    if (remaining + increment + byoyomi > 0) budget = allocate_ms(remaining, increment, byoyomi);
  }
  if (go.infinite) budget.reset();
  return budget;
}

koma::Limits Engine::limits_of(const Go& go, std::optional<long long> budget,
                               Clock::time_point t0) const {
  koma::Limits limits;
  limits.depth = go.depth;
  limits.nodes = go.nodes ? go.nodes : nodes_option_;
  limits.seed = seed_;
  // 0 is "none" on both sides: a cap applies where the search has no limit too.
  if (cap_.depth > 0) limits.depth = limits.depth ? std::min(limits.depth, cap_.depth) : cap_.depth;
  if (cap_.nodes > 0) limits.nodes = limits.nodes ? std::min(limits.nodes, cap_.nodes) : cap_.nodes;
  if (go.infinite || budget) limits.seconds = kManagedSeconds;
  // The search keeps the move's deadline itself (Limits::seconds, what is
  // left of the budget now): the watchdog, a thread asleep until then, wakes
  // late on a busy machine (by a scheduler slice or more) and the search ran
  // on until it did. The watchdog still stops a search that overruns. With
  // ponder the time starts at ponderhit, which only the watchdog sees.
  if (budget && !go.ponder) {
    const auto left = t0 + std::chrono::milliseconds(*budget) - Clock::now();
    limits.seconds = std::max(std::chrono::duration<double>(left).count(), 0.001);
  }
  return limits;
}

void Engine::start_search(const Go& go, std::optional<long long> budget, Clock::time_point t0) {
  {
    std::lock_guard lock(mutex_);
    searching_ = true;
    finished_ = false;
    halt_ = false;
    silent_ = false;
    // `go ponder`: we never ponder on our own, but a GUI may still send it
    // (with USI_Ponder on). The search then runs as for a normal go, except
    // that its clock starts at ponderhit and its bestmove waits for
    // ponderhit or stop, as USI requires.
    pondering_ = go.ponder;
    infinite_ = go.infinite;
    hold_ = go.infinite || go.ponder;
    deadline_.reset();
    ponder_budget_ms_.reset();
    if (budget) {
      if (go.ponder)
        ponder_budget_ms_ = budget;
      else
        deadline_ = t0 + std::chrono::milliseconds(*budget);
    }
  }
  worker_ = std::thread(&Engine::run_search, this, *game_);
  watchdog_ = std::thread(&Engine::watch, this);
}

void Engine::cmd_go(const std::vector<std::string_view>& args) {
  const auto t0 = Clock::now();
  const std::optional<Go> go = read_go(args);
  if (!go) return;
  {
    std::lock_guard lock(mutex_);
    if (searching_) return refuse_go("a search is running; send stop first");
  }
  join_threads();  // the last search's threads, done with their work
  const std::optional<long long> budget = budget_ms(*go);
  player_ = std::make_unique<koma::Player>(level_, limits_of(*go, budget, t0));
  start_search(*go, budget, t0);
}

void Engine::cmd_ponderhit() {
  {
    std::lock_guard lock(mutex_);
    if (!searching_ || !pondering_) return;  // nothing to do: USI lets us ignore it
    pondering_ = false;
    if (!infinite_) hold_ = false;
    if (ponder_budget_ms_) deadline_ = Clock::now() + std::chrono::milliseconds(*ponder_budget_ms_);
  }
  changed_.notify_all();
}

void Engine::end_search(bool print) {
  {
    std::lock_guard lock(mutex_);
    if (searching_) {
      halt_ = true;
      hold_ = false;
      if (!print) silent_ = true;
    }
  }
  changed_.notify_all();
  join_threads();
}

void Engine::join_threads() {
  if (worker_.joinable()) worker_.join();
  if (watchdog_.joinable()) watchdog_.join();
}

void Engine::watch() {
  std::unique_lock lock(mutex_);
  bool stopped = false;
  while (!finished_) {
    if (halt_) {
      // Once is enough: a stop made before choose() starts is kept for it
      // (Player::stop), and this Player chooses once.
      if (!stopped) player_->stop();
      stopped = true;
      changed_.wait(lock);
    } else if (deadline_) {
      if (Clock::now() >= *deadline_)
        halt_ = true;
      else
        changed_.wait_until(lock, *deadline_);
    } else {
      changed_.wait(lock);
    }
  }
}

void Engine::run_search(koma::Game game) {
  std::vector<std::string> lines;  // info lines to print before bestmove
  std::string best;
  try {
    best = reply(game, lines);
  } catch (const std::exception& e) {
    std::string text = "info string search failed: ";
    text += koma::escape_text(e.what(), 300);
    lines.push_back(text);
    best = "resign";
    try {
      auto legal = game.legal_moves();
      if (!legal.empty()) best = game.position().move_text(legal.front());
    } catch (const std::exception&) {
    }
  }
  std::unique_lock lock(mutex_);
  finished_ = true;
  changed_.notify_all();
  changed_.wait(lock, [&] { return !hold_; });
  if (!silent_) {
    for (const std::string& line : lines) write(line);
    std::string text = "bestmove ";
    text += best;
    write(text);
  }
  searching_ = false;
  lock.unlock();
  changed_.notify_all();
}

std::string Engine::reply(const koma::Game& game, std::vector<std::string>& lines) {
  if (game.over()) {
    std::string text = "info string the game is over (";
    text += koma::reason_name(game.result()->reason);
    text += ")";
    lines.push_back(text);
    return "resign";
  }
  const std::vector<koma::Move> legal = game.legal_moves();
  if (legal.empty()) {
    lines.emplace_back("info string no legal move");
    return "resign";
  }
  const koma::Position& pos = game.position();
  // CSARule24/27: a declaration that wins is announced as `bestmove win`.
  if (declaration_wins(game)) {
    lines.emplace_back("info string the impasse declaration wins");
    return "win";
  }
  if (std::optional<koma::Move> m = winning_try(game, legal)) {
    std::string text = "info depth 1 nodes 0 time 0 score mate 1 pv ";
    text += pos.move_text(*m);
    text += " string try";
    lines.push_back(text);
    return pos.move_text(*m);
  }

  koma::Move m = player_->choose(game);
  if (!game.is_legal(m)) {
    lines.emplace_back("info string the search returned an illegal move; playing the first legal");
    m = legal.front();
  }
  lines.push_back(search_line(game, m, player_->info()));
  return pos.move_text(m);
}

}  // namespace usi
