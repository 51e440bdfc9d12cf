// Helpers shared by the test suites: loading shipped variants and reading the
// JSON Lines test data (JSON is YAML's flow form, so yaml-cpp reads it).
#pragma once
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "koma/koma.hpp"

namespace test {

inline std::shared_ptr<const koma::Variant> variant(const std::string& file,
                                                    const koma::Options& o = {}) {
  return koma::Variant::load(std::string(KOMA_VARIANTS_DIR) + "/" + file, o);
}

inline std::vector<YAML::Node> jsonl(const std::string& name) {
  std::ifstream in(std::string(KOMA_TEST_DATA) + "/" + name);
  std::vector<YAML::Node> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(YAML::Load(line));
  return out;
}

inline std::vector<std::string> sorted_texts(const koma::Game& g) {
  std::vector<std::string> out;
  for (koma::Move m : g.legal_moves()) out.push_back(g.position().move_text(m));
  std::sort(out.begin(), out.end());
  return out;
}

inline bool has_move(const koma::Game& g, const std::string& text) {
  auto t = sorted_texts(g);
  return std::find(t.begin(), t.end(), text) != t.end();
}

inline koma::Game play_all(koma::Game g, const std::vector<std::string>& moves) {
  for (const auto& m : moves) g.play(m);
  return g;
}

}  // namespace test
