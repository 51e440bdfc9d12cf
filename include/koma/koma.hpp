// koma: a rules library for shogi and its variants. Include this one header.
//
//   auto shogi = koma::Variant::load("variants/shogi.yaml");
//   koma::Game game(shogi);
//   game.play("7g7f");
//   for (koma::Move m : game.legal_moves()) std::cout << game.position().move_text(m) << "\n";
//
// Variant (immutable rules) -> Game (position + history) -> Position / Move.
#pragma once
#include "koma/ai.hpp"
#include "koma/error.hpp"
#include "koma/game.hpp"
#include "koma/move.hpp"
#include "koma/perft.hpp"
#include "koma/position.hpp"
#include "koma/record.hpp"
#include "koma/result.hpp"
#include "koma/variant.hpp"
