// Loads a descriptor given on the command line and prints the number of
// legal moves from its start position.
#include <iostream>

#include "koma/koma.hpp"

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  koma::Game game(koma::Variant::load(koma::Variant::locate(argv[1])));
  std::cout << game.legal_moves().size() << "\n";
  return 0;
}
