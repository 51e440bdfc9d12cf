// koma-play: a game of any variant in the terminal, human and CPU seats mixed
// (README.md, Drivers). Humans type moves and commands at a prompt; CPU seats move by
// themselves; when every seat is a CPU the game plays itself.
//   koma-play --variant variants/shogi.yaml
//   koma-play --variant yonin --seats human,strong,normal,easy --pieces kanji
//   koma-play --variant yonin --seats strong,normal,normal,easy --nodes 2000
//   koma-play --variant shogi --load game.jsonl
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "board_view.hpp"
#include "driver.hpp"

namespace po = boost::program_options;

namespace {

const char* const kUsage =
    "usage: koma-play --variant FILE [--option k=v]... [--first-seat N] [--position TEXT]\n"
    "  [--seats human,strong,normal,human] [--pieces letters|kanji] [--load FILE [--game N]]\n"
    "  [--nodes N] [--seconds S] [--seed S] [--max-plies P] [--quiet-board] [--delay S]\n"
    "  [--save FILE] [--go]\n"
    "\n"
    "Plays a game in the terminal. --seats gives one entry per seat: human, or a CPU level\n"
    "(easy, normal, strong, expert; two players: easy, medium, hard, expert). Default: every\n"
    "seat human, or the seats of the --load record. Human seats type a move in the variant's\n"
    "notation (7g7f, 8h2b+, P*5e) or a command (type help); a move typed without its '+'\n"
    "where it may promote or not asks 'promote? [y/n]'. CPU seats search --nodes positions\n"
    "(or --seconds) a move; seat s of seed S uses the seed S*1000+s, as game 1 of koma-match.\n"
    "\n"
    "The board shows each piece as [+]<letter or kanji><seat><facing ^ > v <>, an\n"
    "overturned king as X<seat>, voids blank. --load FILE replays game N (default 1) of a\n"
    "JSON Lines game record (its options, first seat and start; the command line overrides\n"
    "them) as koma-replay does, then play continues; a game the record ends, adjudicated\n"
    "ones included, shows its result. A loaded game where a CPU seat is to move waits at a\n"
    "`paused>` prompt: type go to let the CPU seats play (or give --go); the other\n"
    "commands work there, moves do not. A record is a regular file of at most 64 MiB whose\n"
    "lines are at most 256 KiB. When every seat is a CPU the game plays itself, printing\n"
    "each move and (unless --quiet-board) the board after it; it is adjudicated after\n"
    "--max-plies plies (default 1000 where the variant has no ply limit of its own). The\n"
    "game's end prints the places and a line `result <place of seat 1> ... <reason>`.\n"
    "--save FILE writes the game record when the program ends. End of input quits. Input\n"
    "lines are at most 64 KiB (a longer one is dropped, with a message); when input is not a\n"
    "terminal each line is echoed after its prompt, escaped.";

constexpr double kMaxDelay = 60;  // --delay, seconds

// Who sits at a seat: "human" or a CPU level, as --seats names it.
struct Seat {
  std::string name;
  std::unique_ptr<koma::Player> cpu;  // null for a human
};

struct Session {
  std::shared_ptr<const koma::Variant> variant;
  std::unique_ptr<koma::Game> game;
  std::vector<Seat> seats;
  std::vector<std::string> seat_names;  // Seat::name of each seat, for drawing
  play::PieceStyle style = play::PieceStyle::letters;
  bool echo = false;         // standard input is not a terminal: echo what is read
  bool all_cpu = false;      // every seat is a CPU: the game plays itself
  bool quiet_board = false;  // all-CPU games: the board at the start and end only
  double delay = 0;          // seconds to wait after a CPU move, so a viewer can follow
  int cap = 0;               // adjudicate after this many plies; 0 = never
  koma::GameRecord record;   // variant, descriptor, options, start: what `save` writes
  std::optional<std::string> save_at_end;
  // A loaded game waits for `go` before a CPU seat moves (README.md,
  // --help); --go, `go` and a human's turn end the wait.
  bool paused = false;
};

// Checks one entry per seat, each "human" or a CPU level; throws Failure naming
// the problem.
void check_seat_names(const std::vector<std::string>& names, const koma::Variant& variant,
                      const std::string& where) {
  for (const std::string& name : names) {
    if (name.empty()) throw driver::Failure("the seat list has an empty entry", where);
    if (name != "human" && !koma::level_from_name(name))
      throw driver::Failure("unknown player '" + name +
                                "'; players: human, easy, normal, medium, strong, hard, expert",
                            where);
  }
  if (static_cast<int>(names.size()) != variant.seats()) {
    std::string what = "the seat list has " + std::to_string(names.size());
    what += names.size() == 1 ? " entry" : " entries";
    what += ", but " + variant.name() + " has " + std::to_string(variant.seats()) + " seats";
    throw driver::Failure(what, where);
  }
}

// Places for a game stopped by the ply cap, as koma-match gives them: the
// seats still in the game share place 1, eliminated seats are ranked by
// elimination order, the first eliminated last.
std::vector<int> cap_places(const koma::Position& pos) {
  int n = pos.variant().seats();
  std::vector<int> places(static_cast<std::size_t>(n), 0);
  std::vector<int> out = pos.eliminated();
  for (std::size_t j = 0; j < out.size(); ++j) places[out[j] - 1] = n - static_cast<int>(j);
  for (int seat = 1; seat <= n; ++seat)
    if (pos.active(seat) || places[seat - 1] == 0) places[seat - 1] = 1;
  return places;
}

std::string lower(std::string text) {
  for (char& c : text)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return text;
}

// --- output ---------------------------------------------------------------

void say(const std::string& line) {
  std::cout << line << '\n' << std::flush;
}

// The board, every seat's line and, while the game goes on, the turn bar.
void show(const Session& s) {
  const koma::Position& pos = s.game->position();
  std::string out = play::board_text(pos, s.style);
  out += play::seats_text(pos, s.seat_names, s.style);
  if (!s.game->over()) out += play::turn_bar(pos, s.seat_names);
  std::cout << out << std::flush;
}

// The record of the game as it stands (docs/notation.md#game-records).
std::string record_line(const Session& s) {
  koma::GameRecord r = s.record;
  r.first_seat = s.game->start().to_move();
  r.seats = s.seat_names;
  r.moves = s.game->history();
  if (!r.moves.empty() && r.moves.back() == "adjudicate") r.moves.pop_back();
  if (s.game->over()) r.result = s.game->result();
  return koma::record_line(r);
}

// Writes the record to `path` (driver::write_file); throws Failure with the reason.
void save(const Session& s, const std::string& path) {
  driver::write_file(path, record_line(s) + '\n', "the record file");
}

void print_result(const Session& s) {
  const koma::Result result = *s.game->result();
  const std::string reason(koma::reason_name(result.reason));
  std::size_t plies = s.game->history().size();
  if (!s.game->history().empty() && s.game->history().back() == "adjudicate") --plies;
  say("game over after " + std::to_string(plies) + (plies == 1 ? " ply: " : " plies: ") + reason);
  std::string result_line = "result";
  for (int seat = 1; seat <= s.variant->seats(); ++seat) {
    int place = result.places[seat - 1];
    say("  place " + std::to_string(place) + ": " + play::seat_label(*s.variant, seat) + " [" +
        s.seat_names[seat - 1] + "]");
    result_line += ' ';
    result_line += std::to_string(place);
  }
  result_line += ' ';
  result_line += reason;
  say(result_line);
}

// --- playing ---------------------------------------------------------------

// Plays a move or action (text as the game records it) for the seat to move
// and reports it: the move line, seats it put out of the game, then the board.
// Throws what Game::play throws, with the game unchanged.
template <class MoveOrText>
void play_and_report(Session& s, const MoveOrText& move, bool draw_board) {
  const koma::Position before = s.game->position();
  const int seat = before.to_move();
  std::string text;
  if constexpr (std::is_same_v<MoveOrText, koma::Move>)
    text = before.move_text(move);
  else
    text = move;
  s.game->play(move);

  std::string line =
      "ply " + std::to_string(before.ply()) + ": " + play::seat_label(*s.variant, seat) + " ";
  line += text == "resign" ? "resigns" : text == "win" ? "declares a win" : "plays " + text;
  say(line);
  for (int out : s.game->position().eliminated())
    if (before.active(out)) say("  " + play::seat_label(*s.variant, out) + " is out of the game");
  if (draw_board) show(s);
}

// Reads a line of standard input (driver::read_line: at most 64 KiB, a
// longer one is dropped with a message and the prompt shown again), echoing
// it after the prompt when input is not a terminal so that a piped session
// reads like a typed one; the echo is escaped (koma::escape_text), so no
// control byte of the input reaches the output. False at the end of input.
bool read_line(const Session& s, const std::string& prompt, std::string& line) {
  for (;;) {
    std::cout << prompt << std::flush;
    const driver::LineRead read =
        driver::read_line(*std::cin.rdbuf(), line, [&](std::string_view head) {
          if (s.echo) std::cout << koma::escape_text(head, 60) << '\n';
          say(driver::long_line_text());
        });
    if (read == driver::LineRead::end) {
      std::cout << '\n' << std::flush;
      return false;
    }
    if (read == driver::LineRead::line) {
      if (s.echo) std::cout << koma::escape_text(line) << '\n' << std::flush;
      return true;
    }
  }
}

// Asks whether to promote; nullopt at the end of input.
std::optional<bool> ask_promotion(const Session& s) {
  for (std::string answer;;) {
    if (!read_line(s, "promote? [y/n] ", answer)) return std::nullopt;
    answer = lower(answer);
    answer.erase(0, answer.find_first_not_of(" \t"));
    answer.erase(answer.find_last_not_of(" \t") + 1);
    if (answer == "y" || answer == "yes") return true;
    if (answer == "n" || answer == "no") return false;
    say("answer y (promote) or n (do not promote)");
  }
}

// A move typed by a human. False if the input ended during the question.
bool human_move(Session& s, const std::string& text) {
  const koma::Position& pos = s.game->position();
  koma::Move move;
  try {
    move = pos.parse_move(text);
  } catch (const koma::NotationError& e) {
    say(std::string("unreadable: ") + e.what() + " (type help for the commands)");
    return true;
  }
  // Typed without the promotion mark: ask when both are legal, promote when
  // only the promoting move is.
  if (!move.is_drop() && !move.promote) {
    koma::Move promoting = move;
    promoting.promote = true;
    const bool plain_ok = s.game->is_legal(move), promoting_ok = s.game->is_legal(promoting);
    if (plain_ok && promoting_ok) {
      std::optional<bool> yes = ask_promotion(s);
      if (!yes) return false;
      if (*yes) move = promoting;
    } else if (promoting_ok) {
      say(pos.move_text(move) + " must promote here (" + s.game->why_illegal(move) + "); playing " +
          pos.move_text(promoting));
      move = promoting;
    }
  }
  if (std::string why = s.game->why_illegal(move); !why.empty()) {
    say("illegal: " + why);
    return true;
  }
  try {
    play_and_report(s, move, true);
  } catch (const koma::Error& e) {
    say(std::string("illegal: ") + e.what());
  }
  return true;
}

// `moves`, `moves SQUARE` or `moves LETTER` (drops of that piece).
void list_moves(const Session& s, const std::string& arg) {
  const koma::Position& pos = s.game->position();
  const koma::Variant& variant = *s.variant;
  std::vector<koma::Move> legal = s.game->legal_moves();
  std::string noun = "legal move", whose;  // "move", " of the Pawn on 7g"
  if (!arg.empty()) {
    std::vector<koma::Move> chosen;
    if (std::optional<koma::Square> sq = variant.parse_square(arg)) {
      std::optional<koma::PieceOnBoard> piece = pos.at(*sq);
      if (!piece) {
        say("there is no piece on " + arg);
        return;
      }
      std::string name = variant.kind_info(piece->kind).name;
      if (piece->overturned) {
        say("the overturned king on " + arg + " does not move");
        return;
      }
      if (piece->owner != pos.to_move()) {
        say("the " + name + " on " + arg + " belongs to " +
            play::seat_label(variant, piece->owner) + ", and " +
            play::seat_label(variant, pos.to_move()) + " is to move");
        return;
      }
      for (koma::Move m : legal)
        if (!m.is_drop() && m.from == *sq) chosen.push_back(m);
      noun = "move";
      whose = " of the " + name + " on " + arg;
    } else if (std::optional<int> kind = variant.kind_by_letter(arg)) {
      for (koma::Move m : legal)
        if (m.is_drop() && m.kind == *kind) chosen.push_back(m);
      noun = "drop";
      whose = " of the " + variant.kind_info(*kind).name;
    } else {
      say("moves takes a square (like " + variant.square_name(variant.squares() / 2) +
          ") or a piece letter (drops), not " + driver::in_quotes(arg));
      return;
    }
    legal = std::move(chosen);
  }
  if (legal.empty()) {
    say("no " + noun + whose);
    return;
  }
  std::string line = std::to_string(legal.size()) + " " + noun;
  if (legal.size() != 1) line += 's';
  line += whose;
  line += ':';
  for (koma::Move m : legal) line += " " + pos.move_text(m);
  say(line);
}

// `undo`: takes back the last ply, and further back to a human's turn when
// CPU seats moved since (a human against the CPU gets their own move back);
// while a loaded game waits for `go`, the last ply only.
void undo(Session& s) {
  if (s.game->history().empty()) {
    say("nothing to undo: the game is at its start");
    return;
  }
  auto cpu_to_move = [&] { return s.seats[s.game->position().to_move() - 1].cpu != nullptr; };
  std::vector<std::string> taken;
  do {
    taken.insert(taken.begin(), s.game->history().back());
    s.game->undo();
  } while (!s.paused && !s.game->history().empty() && cpu_to_move());
  std::string line = "took back";
  for (const std::string& m : taken) line += " " + m;
  say(line);
  show(s);
}

void help(const Session& s) {
  const koma::Variant& v = *s.variant;
  // An example in this variant's square names: the first legal move.
  std::string example;
  if (std::vector<koma::Move> legal = s.game->legal_moves(); !legal.empty())
    example = " (here, e.g. " + s.game->position().move_text(legal.front()) + ")";
  std::string text = "commands:\n";
  text += "  <move>          from-square to-square, + to promote (a double move: from, middle, "
          "to: 6f5e6d), or LETTER*SQUARE to drop" +
          example + "\n";
  text +=
      "  moves [SQUARE]  the legal moves, or those of the piece on SQUARE; moves LETTER: drops\n"
      "  undo            take back the last move (and the CPU moves since your last turn)\n"
      "  save FILE       write the game record (JSON Lines; koma-play --load FILE reads it)\n"
      "  board           draw the board again\n"
      "  position        print the position text\n";
  if (v.has_resignation()) text += "  resign          resign for the seat to move\n";
  if (v.has_declaration()) text += "  win             declare an impasse win (judged at once)\n";
  if (s.paused) text += "  go              let the CPU seats play\n";
  text +=
      "  help            this list\n"
      "  quit            leave the game (end of input too)\n";
  std::cout << text << std::flush;
}

// `save FILE`: the file name is the rest of the line, spaces inside it kept.
void save_command(const Session& s, const std::string& line) {
  std::string path = line.substr(line.find("save") + 4);
  path.erase(0, path.find_first_not_of(" \t"));
  path.erase(path.find_last_not_of(" \t") + 1);
  if (path.empty()) {
    say("save takes a file name: save game.jsonl");
    return;
  }
  try {
    save(s, path);
    say("saved to " + koma::escape_text(path));
  } catch (const driver::Failure& e) {
    say(std::string(e.what()) + " (" + koma::escape_text(e.where) + ")");
  }
}

// One command of a human seat, or of the user while a loaded game waits for
// `go` (a CPU seat to move: no move, resign or win then). False when the
// program should end.
bool command_turn(Session& s) {
  const int seat = s.game->position().to_move();
  const bool waiting = s.paused && s.seats[seat - 1].cpu;
  s.paused = waiting;
  std::string line;
  if (!read_line(s, waiting ? "paused> " : play::seat_label(*s.variant, seat) + "> ", line))
    return false;
  std::istringstream words(line);
  std::string command, arg, extra;
  words >> command >> arg >> extra;
  if (command.empty() || command[0] == '#') return true;  // blank, or a comment in a script

  auto no_argument = [&] {
    if (arg.empty()) return true;
    say(command + " takes no argument");
    return false;
  };
  if (command == "quit" || command == "exit") return !no_argument();  // "quit x" is refused
  const bool acts =
      command == "resign" || command == "win" ||
      (arg.empty() && command != "help" && command != "board" && command != "position" &&
       command != "moves" && command != "undo" && command != "go");
  if (waiting && (command == "go" || acts)) {
    if (command == "go" && no_argument()) s.paused = false;
    if (acts) say(play::seat_label(*s.variant, seat) + " is a CPU seat: type go to let it play");
    return true;
  }
  if (command == "help") {
    if (no_argument()) help(s);
  } else if (command == "board") {
    if (no_argument()) show(s);
  } else if (command == "position") {
    if (no_argument()) say("position " + s.game->position().text());
  } else if (command == "moves") {
    if (!extra.empty())
      say("moves takes one square or letter at most");
    else
      list_moves(s, arg);
  } else if (command == "undo") {
    if (no_argument()) undo(s);
  } else if (command == "save") {
    save_command(s, line);
  } else if (command == "resign" || command == "win") {
    if (!no_argument()) return true;
    try {
      play_and_report(s, command, true);
    } catch (const koma::Error& e) {
      say(std::string("refused: ") + e.what());
    }
  } else if (!arg.empty()) {
    say("unknown command " + driver::in_quotes(command) + " (type help for the commands)");
  } else {
    return human_move(s, command);
  }
  return true;
}

// A CPU seat's move.
void cpu_turn(Session& s) {
  const int seat = s.game->position().to_move();
  Seat& player = s.seats[seat - 1];
  koma::Move move;
  try {
    move = player.cpu->choose(*s.game);
  } catch (const koma::Error& e) {
    throw driver::Failure("the " + player.name + " player of seat " + std::to_string(seat) +
                          " failed: " + e.what());
  }
  play_and_report(s, move, !(s.all_cpu && s.quiet_board));
  if (s.delay > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s.delay));
}

void add_play_options(po::options_description& desc) {
  driver::add_common(desc);
  desc.add_options()("seats", po::value<std::string>(),
                     "one player per seat, comma separated: human or a CPU level (default: all "
                     "human, or the --load record's)")("pieces", po::value<std::string>(),
                                                       "letters (default) or kanji")(
      "load", po::value<std::string>(),
      "replay a game of this record file, then play on (a finished or adjudicated game "
      "only shows its result)")(
      "game", po::value<int>(),
      "which game of --load, counted from 1 (default 1; at most 100000000)")(
      "nodes", po::value<long long>(),
      "node limit per CPU move, 0 to 10^12 (default 0: the level's own)")(
      "seconds", po::value<double>(), "time per CPU move, 0 to 86400 (default 0: the level's own)")(
      "seed", po::value<long long>(), "seed S, 0 to 10^15 (default 1); seat s's CPU uses S*1000+s")(
      "max-plies", po::value<int>(),
      "adjudicate after P plies, 1 to 1000000 (default: 1000 in all-CPU games of variants "
      "without a ply limit, else none beyond the variant's own)")(
      "quiet-board", "all-CPU games: draw the board at the start and the end only")(
      "delay", po::value<double>(),
      "pause S seconds, 0 to 60, after each CPU move when the output is a terminal (default 0)")(
      "save", po::value<std::string>(), "write the game record to this file at the end")(
      "go", "after --load, let a CPU seat to move play at once (else it waits for `go`)");
}

// Game --game of the --load record; nullopt without --load.
std::optional<koma::GameRecord> read_loaded(const po::variables_map& vm) {
  if (vm.count("game") && !vm.count("load"))
    throw driver::Failure("--game needs --load", "command line");
  if (!vm.count("load")) return std::nullopt;
  return koma::read_record(vm["load"].as<std::string>(),
                           driver::checked(vm, "game", 1, 1, driver::kMaxGame));
}

// The variant, the game and what the record keeps of them. A record's
// options, first seat and start come first; the command line overrides them
// (as koma-replay does).
void open_game(Session& s, const po::variables_map& vm,
               const std::optional<koma::GameRecord>& loaded) {
  s.variant = driver::load_variant(vm, loaded ? koma::record_options(*loaded) : koma::Options{});
  const koma::Variant& variant = *s.variant;
  if (loaded && !loaded->variant.empty() && loaded->variant != variant.name())
    throw driver::Failure(
        "the record is a game of " + loaded->variant + ", and --variant loads " + variant.name(),
        loaded->where);

  // The record keeps the option overrides, not the options in force.
  s.record.variant = variant.name();
  s.record.descriptor = vm["variant"].as<std::string>();
  if (loaded) s.record.options = loaded->options;
  if (vm.count("option"))
    for (const auto& kv : vm["option"].as<std::vector<std::string>>())
      if (auto eq = kv.find('='); eq != std::string::npos && eq > 0)
        s.record.options[kv.substr(0, eq)] = kv.substr(eq + 1);
  s.record.options.erase("first_seat");  // the record has a field of its own for it

  // A loaded game is read as koma-replay reads it: an adjudicated record loads
  // as a finished game.
  if (loaded)
    s.game = std::make_unique<koma::Game>(driver::replay_record(s.variant, vm, *loaded));
  else
    s.game = std::make_unique<koma::Game>(driver::start_position(s.variant, vm));
  if (vm.count("position") || (loaded && loaded->start)) s.record.start = s.game->start().text();
}

// Who sits at each seat: --seats, else the record's (when it names a player
// for every seat), else everyone human.
std::vector<std::string> seat_names_of(const po::variables_map& vm, const koma::Variant& variant,
                                       const std::optional<koma::GameRecord>& loaded) {
  std::vector<std::string> names;
  if (vm.count("seats")) {
    names = driver::split_list(vm["seats"].as<std::string>());
    check_seat_names(names, variant, "--seats");
  } else if (loaded && !loaded->seats.empty()) {
    names = loaded->seats;
    check_seat_names(names, variant, loaded->where);
  } else {
    names.assign(static_cast<std::size_t>(variant.seats()), "human");
  }
  return names;
}

// A Player for each seat a CPU level sits at, with --nodes or --seconds and
// the seed S*1000 + seat.
void seat_players(Session& s, const po::variables_map& vm) {
  koma::Limits limits = driver::search_limits(vm);
  const auto seed =
      static_cast<std::uint64_t>(driver::checked(vm, "seed", 1LL, 0LL, driver::kMaxSeed));
  s.all_cpu = true;
  for (int seat = 1; seat <= s.variant->seats(); ++seat) {
    Seat entry{s.seat_names[seat - 1], nullptr};
    if (auto level = koma::level_from_name(entry.name)) {
      limits.seed = seed * 1000 + static_cast<std::uint64_t>(seat);
      entry.cpu = std::make_unique<koma::Player>(*level, limits);
    } else {
      s.all_cpu = false;
    }
    s.seats.push_back(std::move(entry));
  }
}

// How the game is shown and kept: --pieces, --quiet-board, --delay, --save
// and the ply cap (--max-plies).
void read_settings(Session& s, const po::variables_map& vm) {
  if (vm.count("pieces")) {
    std::string style = vm["pieces"].as<std::string>();
    if (style == "kanji")
      s.style = play::PieceStyle::kanji;
    else if (style != "letters")
      throw driver::Failure("--pieces is letters or kanji, not '" + style + "'", "command line");
  }
  s.quiet_board = vm.count("quiet-board") > 0;
  s.echo = !driver::is_terminal(0);
  // Pausing only helps someone watching; a pipe or a file gets the game at once.
  s.delay = driver::checked(vm, "delay", 0.0, 0.0, kMaxDelay);
  if (!driver::is_terminal(1)) s.delay = 0;
  if (vm.count("save")) s.save_at_end = driver::file_option(vm, "save");
  const int variant_limit = std::stoi(s.variant->options().at("max_plies"));
  s.cap = vm.count("max-plies") ? driver::checked(vm, "max-plies", 0, 1, driver::kMaxPlies)
          : s.all_cpu && variant_limit == 0 ? 1000
                                            : 0;
}

// The opening lines: the title and the players, the plies loaded, the board,
// and what a paused game waits for.
void introduce(const Session& s, const std::optional<koma::GameRecord>& loaded) {
  const koma::Variant& variant = *s.variant;
  std::string header = variant.title() + ":";
  for (int seat = 1; seat <= variant.seats(); ++seat)
    header +=
        (seat > 1 ? ", " : " ") + play::seat_label(variant, seat) + " " + s.seat_names[seat - 1];
  say(header);
  if (loaded) {
    std::size_t plies = loaded->moves.size();
    say("loaded " + std::to_string(plies) + (plies == 1 ? " ply" : " plies"));
  }
  if (!s.all_cpu && !s.game->over()) say("type help for the commands");
  show(s);
  if (s.paused && s.seats[s.game->position().to_move() - 1].cpu) {
    const int seat = s.game->position().to_move();
    say(play::seat_label(variant, seat) + " [" + s.seat_names[seat - 1] +
        "] is to move: type go to let the CPU seats play (help for the commands)");
  }
}

// Turns until the game ends (the ply cap adjudicates it) or the user leaves.
void play_turns(Session& s) {
  bool going = true;
  while (going && !s.game->over()) {
    if (s.cap > 0 && static_cast<int>(s.game->history().size()) >= s.cap) {
      say("ply cap " + std::to_string(s.cap) + " reached: the game is adjudicated");
      s.game->adjudicate(cap_places(s.game->position()), koma::Reason::adjudicated);
      break;
    }
    if (s.seats[s.game->position().to_move() - 1].cpu && !s.paused)
      cpu_turn(s);
    else
      going = command_turn(s);
  }
}

// A game's end: the board again (for a quiet all-CPU game), the result and,
// when the game played itself, the time it took since `t0`.
void conclude(const Session& s, std::chrono::steady_clock::time_point t0) {
  if (s.all_cpu && s.quiet_board) show(s);
  print_result(s);
  if (s.all_cpu) {
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char buf[64];
    std::snprintf(buf, sizeof buf, "played in %.1f s", seconds);
    say(buf);
  }
}

}  // namespace

static int play_main(int argc, char** argv) {
  po::options_description desc("Options");
  add_play_options(desc);
  auto vm = driver::parse(argc, argv, desc, kUsage);
  const std::optional<koma::GameRecord> loaded = read_loaded(vm);
  Session s;
  open_game(s, vm, loaded);
  s.seat_names = seat_names_of(vm, *s.variant, loaded);
  seat_players(s, vm);
  read_settings(s, vm);
  s.paused = loaded && !vm.count("go") && !s.game->over();
  introduce(s, loaded);
  const auto t0 = std::chrono::steady_clock::now();
  play_turns(s);
  if (s.game->over()) conclude(s, t0);
  if (s.save_at_end) save(s, *s.save_at_end);
  return 0;
}

int main(int argc, char** argv) {
  // Standard input is read through its own buffer (driver::read_line takes
  // it a byte at a time), not through C stdio.
  std::ios::sync_with_stdio(false);
  return driver::run("koma-play", play_main, argc, argv);
}
