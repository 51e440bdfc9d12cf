#include "koma/perft.hpp"

#include "access.hpp"
#include "game_impl.hpp"
#include "rules.hpp"

namespace koma {

namespace {

// Keeps the leaf work of full perft observable so it is not optimized away.
thread_local std::uint64_t sink_ = 0;

// Full mode's leaves: every move made on `t` and taken back, by the make
// and unmake of the variant's kind (detail::make_in_place, chosen once).
template <auto Make, auto Unmake>
std::uint64_t leaves(const detail::VariantData& v, detail::State& t,
                     const detail::MoveList& moves) {
  std::uint64_t n = 0, touched = 0;
  for (Move m : moves) {
    detail::Undo u;
    if (Make(v, t, m, u)) {
      touched ^= t.board_key ^ t.hand_key;
      Unmake(v, t, m, u);
    } else {
      detail::State copy = t;
      detail::make_move(v, copy, m);
      touched ^= copy.board_key ^ copy.hand_key;
    }
    ++n;
  }
  sink_ ^= touched;
  return n;
}

// Perft walks a copy of the game's line, so it sees the past (repetition
// needs it); states are pushed and popped as the tree is walked. Moves are
// played unjudged (the next seat's moves are listed here anyway): a seat
// found without any is settled then, as playing the move would have.
std::uint64_t walk(const detail::VariantData& v, detail::Line& line, int depth, PerftMode mode,
                   bool unjudged) {
  if (line.back().outcome != detail::Outcome::ongoing) return 0;
  const bool may_be_stuck = unjudged && v.rules.no_legal_move != detail::NoMove::pass;
  if (depth == 1 && mode == PerftMode::bulk) {
    const std::size_t n = detail::count_legal_moves(v, line);
    if (n > 0 || !may_be_stuck) return n;
    detail::judge_stuck(v, line);
    return walk(v, line, depth, mode, false);
  }
  detail::MoveList moves;
  detail::legal_moves(v, line, moves);
  if (moves.empty() && may_be_stuck) {
    detail::judge_stuck(v, line);
    return walk(v, line, depth, mode, false);
  }
  if (depth == 1) {
    // Full mode: every leaf move is made on the board and taken back. What
    // follows a move automatically only decides children, so it is left to
    // interior nodes.
    detail::State& t = line.back_in_place();  // changed and restored in place
    const std::uint64_t n =
        v.unusual_moves
            ? leaves<detail::make_in_place_as<true>, detail::unmake_in_place_as<true>>(v, t, moves)
            : leaves<detail::make_in_place_as<false>, detail::unmake_in_place_as<false>>(v, t,
                                                                                         moves);
    return n;
  }
  std::uint64_t n = 0;
  for (Move m : moves) {
    detail::play_move_unjudged(v, line, m);
    n += walk(v, line, depth - 1, mode, true);
    line.pop();
  }
  return n;
}

}  // namespace

std::uint64_t perft(const Game& game, int depth, PerftMode mode) {
  if (depth <= 0) return 1;
  if (game.over()) return 0;
  detail::Line line = detail::Access::impl(game).line;
  line.reserve(line.size() + 64);
  return walk(detail::Access::data(game.variant()), line, depth, mode, false);
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Game& game, int depth,
                                                         PerftMode mode) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  if (depth <= 0 || game.over()) return out;
  const auto& v = detail::Access::data(game.variant());
  detail::Line line = detail::Access::impl(game).line;
  line.reserve(line.size() + 64);
  detail::MoveList moves;
  detail::legal_moves(v, line, moves);
  for (Move m : moves) {
    detail::play_move_unjudged(v, line, m);
    out.emplace_back(m, depth == 1 ? 1 : walk(v, line, depth - 1, mode, true));
    line.pop();
  }
  return out;
}

}  // namespace koma
