#include "koma/game.hpp"

#include <algorithm>

#include "game_impl.hpp"
#include "koma/error.hpp"
#include "notation.hpp"
#include "rules.hpp"

namespace koma {

Game::Game(const std::shared_ptr<const Variant>& variant, Referee referee) {
  if (!variant) throw Error("Game needs a variant");
  impl_ = std::make_unique<Impl>(variant->start_position());
  impl_->line.referee_outside = referee == Referee::outside;
}
Game::Game(const Position& start, Referee referee) : impl_(std::make_unique<Impl>(start)) {
  impl_->line.referee_outside = referee == Referee::outside;
}
Game::~Game() = default;
Game::Game(const Game& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
Game& Game::operator=(const Game& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}

const Variant& Game::variant() const {
  return *impl_->variant;
}
const Position& Game::position() const {
  return impl_->current;
}
const Position& Game::start() const {
  return impl_->start;
}

std::vector<Move> Game::legal_moves() const {
  detail::MoveList list;
  detail::legal_moves(impl_->v(), impl_->line, list);
  return {list.begin(), list.end()};
}

bool Game::is_legal(Move m) const {
  return detail::legal_move(impl_->v(), impl_->line, m);
}

std::string Game::why_illegal(Move m) const {
  return detail::explain_illegal(impl_->v(), impl_->line, m);
}

void Game::play(Move m) {
  std::string why = why_illegal(m);
  if (!why.empty()) throw IllegalMove(why);
  std::string text = detail::move_text(impl_->v(), impl_->line.back(), m);
  detail::play_move(impl_->v(), impl_->line, m);
  impl_->history.push_back(text);
  impl_->sync();
}

void Game::play(std::string_view text) {
  if (text == "resign") return resign();
  if (text == "win") return declare_win();
  play(detail::parse_move_text(impl_->v(), text));
}

void Game::resign() {
  if (over()) throw IllegalMove("the game is over");
  if (!impl_->v().rules.resignation) throw IllegalMove("this variant has no resignation");
  detail::play_resign(impl_->v(), impl_->line);
  impl_->history.emplace_back("resign");
  impl_->sync();
}

void Game::declare_win() {
  if (over()) throw IllegalMove("the game is over");
  if (!impl_->v().declares_impasse())
    throw IllegalMove("this variant (with these options) has no impasse declaration");
  detail::play_declaration(impl_->v(), impl_->line);
  impl_->history.emplace_back("win");
  impl_->sync();
}

void Game::undo() {
  if (impl_->line.size() <= 1) throw IllegalMove("there is no move to take back");
  impl_->line.pop();
  impl_->history.pop_back();
  impl_->sync();
}

void Game::adjudicate(const std::vector<int>& places, Reason reason) {
  if (over()) throw IllegalMove("the game is over");
  if (static_cast<int>(places.size()) != variant().seats())
    throw IllegalMove("adjudicate needs one place per seat (" + std::to_string(variant().seats()) +
                      ")");
  for (int p : places)
    if (p < 1 || p > variant().seats())
      throw IllegalMove("places run from 1 to the number of seats");
  // Competition ranks: seats that share a place skip the places after it.
  for (int p : places)
    if (p != 1 + std::count_if(places.begin(), places.end(), [p](int q) { return q < p; }))
      throw IllegalMove(
          "places must be competition ranks: a place is 1 + the number of seats "
          "placed before it (1, 1, 3, not 1, 1, 2)");
  if (reason == Reason::none || static_cast<int>(reason) < 0 ||
      static_cast<int>(reason) >= kReasonCount)
    throw IllegalMove("adjudicate needs a reason other than none");
  detail::State s = impl_->line.back();
  detail::end_game(s, places, reason);
  impl_->line.push(s, -1, false);
  impl_->history.emplace_back("adjudicate");
  impl_->sync();
}

bool Game::over() const {
  return impl_->line.back().outcome == detail::Outcome::finished;
}
std::optional<Result> Game::result() const {
  return impl_->current.result();
}
Game::Referee Game::referee() const {
  return impl_->line.referee_outside ? Referee::outside : Referee::koma;
}
std::optional<Result> Game::rule_ending() const {
  std::size_t i = impl_->line.first_rule_ending();
  if (i == 0) return std::nullopt;
  const detail::State& s = impl_->line[i];
  Result r;
  r.reason = static_cast<Reason>(s.reason);
  r.places.assign(s.places.begin(), s.places.begin() + variant().seats());
  return r;
}

const std::vector<std::string>& Game::history() const {
  return impl_->history;
}
int Game::occurrences() const {
  return impl_->line.occurrences(impl_->line.back());
}

}  // namespace koma
