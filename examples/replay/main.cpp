// koma-replay: plays moves, or one game of a record file, and prints where the
// game stands at the end (DRIVERS.md).
//   koma-replay --variant variants/shogi.yaml --moves "7g7f 3c3d 8h2b+"
//   koma-replay --variant variants/yonin.yaml --record games.jsonl --game 3
#include <iostream>
#include <optional>
#include <sstream>

#include "driver.hpp"

namespace po = boost::program_options;

namespace {

// Seats joined by ",", or "-" when there are none.
std::string seat_list(const std::vector<int>& seats) {
  if (seats.empty()) return "-";
  std::string out;
  for (int s : seats) {
    if (!out.empty()) out += ',';
    out += std::to_string(s);
  }
  return out;
}

koma::Position start_of(const std::shared_ptr<const koma::Variant>& variant,
                        const po::variables_map& vm, const std::optional<driver::GameRecord>& rec) {
  if (vm.count("position") || !rec || !rec->start) return driver::start_position(variant, vm);
  try {
    return koma::Position::from_text(variant, *rec->start);
  } catch (const koma::NotationError& e) {
    throw driver::Failure(std::string("the record's start position: ") + e.what(), rec->where);
  }
}

}  // namespace

static int replay_main(int argc, char** argv) {
  po::options_description desc("Options");
  driver::add_common(desc);
  desc.add_options()("moves", po::value<std::string>(),
                     "moves and actions to play, space separated")(
      "record", po::value<std::string>(), "game record file (JSON Lines, one game a line)")(
      "game", po::value<int>(), "which game of --record to play, counted from 1 (default 1)");
  auto vm = driver::parse(argc, argv, desc,
                          "usage: koma-replay --variant FILE [--option k=v]... [--first-seat N] "
                          "[--position TEXT] (--moves \"m1 m2 ...\" | --record FILE [--game N])");
  bool has_moves = vm.count("moves") > 0, has_record = vm.count("record") > 0;
  if (has_moves == has_record)
    throw driver::Failure("give either --moves or --record", "command line");
  if (vm.count("game") && !has_record)
    throw driver::Failure("--game needs --record", "command line");

  // A record's options, first seat and start come first; the command line
  // overrides them.
  std::optional<driver::GameRecord> record;
  std::vector<std::string> moves;
  koma::Options base;
  if (has_record) {
    int n = vm.count("game") ? vm["game"].as<int>() : 1;
    if (n < 1)
      throw driver::Failure("--game counts from 1, not " + std::to_string(n), "command line");
    record = driver::read_record(vm["record"].as<std::string>(), n);
    base = record->options;
    if (record->first_seat) base["first_seat"] = std::to_string(*record->first_seat);
    moves = record->moves;
  } else {
    std::istringstream in(vm["moves"].as<std::string>());
    for (std::string m; in >> m;) moves.push_back(m);
  }
  auto variant = driver::load_variant(vm, base);
  koma::Game game(start_of(variant, vm, record));

  for (std::size_t i = 0; i < moves.size(); ++i) {
    try {
      game.play(moves[i]);
    } catch (const koma::Error& e) {  // NotationError (malformed) or IllegalMove
      std::cerr << "koma-replay: move " << i + 1 << " '" << moves[i] << "' is illegal: " << e.what()
                << "\n";
      return 1;
    }
  }

  // An outside ending (a match's ply cap, say) is not in the moves: repeat it.
  if (record && record->result && record->result->reason == koma::Reason::adjudicated) {
    if (game.over())
      throw driver::Failure(
          "the record's result is adjudicated, but its moves end the game already (" +
              std::string(koma::reason_name(game.result()->reason)) + ")",
          record->where);
    try {
      game.adjudicate(record->result->places);
    } catch (const koma::IllegalMove& e) {
      throw driver::Failure(std::string("the record's adjudicated result: ") + e.what(),
                            record->where);
    }
  }

  const koma::Position& pos = game.position();
  std::string out = "position " + pos.text() + "\n";
  out += "to-move " + std::to_string(pos.to_move()) + "\n";
  out += "in-check " + seat_list(variant->has_check() ? pos.seats_in_check() : std::vector<int>{}) +
         "\n";
  out += "eliminated " + seat_list(pos.eliminated()) + "\n";
  if (auto result = game.result(); game.over() && result) {
    out += "result";
    for (int place : result->places) {
      out += ' ';
      out += std::to_string(place);
    }
    out += " " + std::string(koma::reason_name(result->reason)) + "\n";
  }
  // Mates made and total pieces per seat, where the places compare them.
  if (variant->places_by_score()) {
    out += "stats";
    for (int seat = 1; seat <= variant->seats(); ++seat) {
      koma::SeatScore sc = pos.score(seat);
      out += ' ';
      out += std::to_string(seat);
      out += ':';
      out += std::to_string(sc.mates);
      out += ':';
      out += std::to_string(sc.pieces);
    }
    out += "\n";
  }
  std::cout << out;
  return 0;
}

int main(int argc, char** argv) {
  return driver::run("koma-replay", replay_main, argc, argv);
}
