// koma-replay: plays moves, or one game of a record file, and prints where the
// game stands at the end, in the form of docs/notation.md#game-records.
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

}  // namespace

static int replay_main(int argc, char** argv) {
  po::options_description desc("Options");
  driver::add_common(desc);
  desc.add_options()("moves", po::value<std::string>(),
                     "moves and actions to play, space separated")(
      "record", po::value<std::string>(),
      "game record file (JSON Lines, one game a line; a regular file of at most 64 MiB, "
      "lines of at most 256 KiB)")(
      "game", po::value<int>(),
      "which game of --record to play, counted from 1 (default 1; at most 100000000)");
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
  std::optional<koma::GameRecord> record;
  if (has_record)
    record = koma::read_record(vm["record"].as<std::string>(),
                               driver::checked(vm, "game", 1, 1, driver::kMaxGame));
  auto variant = driver::load_variant(vm, record ? koma::record_options(*record) : koma::Options{});
  std::optional<koma::Game> played;
  try {
    if (record) {
      played.emplace(driver::replay_record(variant, vm, *record));
    } else {
      std::vector<std::string> moves;
      std::istringstream in(vm["moves"].as<std::string>());
      for (std::string m; in >> m;) moves.push_back(m);
      played.emplace(driver::start_position(variant, vm));
      koma::play_moves(*played, moves, "--moves");
    }
  } catch (const koma::RecordMoveError& e) {  // the documented form: no location
    std::cerr << "koma-replay: " << e.what() << "\n";
    return 1;
  }
  const koma::Game& game = *played;

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
