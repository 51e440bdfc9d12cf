// Internal: the descriptor's keys, one row a key (docs/descriptor.md gives
// each its row too). A row names its key by its YAML path and says how its
// value is read into the variant; a mapping's allowed keys are its rows'
// next segments, and the loader reads the rules by walking the rows in
// their order (so that what a row reads by — seat names, piece letters — is
// read first).
//
// A path joins keys with '.'; `<letter>` stands for a declared piece letter
// (`drops.<letter>.mate`), `<name>` for an option's name, and `[]` follows
// a list whose items are mappings (`seats[].facing`).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "betza.hpp"
#include "document.hpp"
#include "variant_data.hpp"

namespace koma::detail {

// What the readers read into, and by: the variant being compiled, and the
// seat names read so far.
struct Reading {
  VariantData& v;
  std::map<std::string, int> seat_by_name;
  std::vector<std::vector<MoveComponent>> moves;  // [kind]: its Betza moves, parsed
  std::vector<std::vector<DoubleStep>> doubles;   // [kind]: its double move, parsed

  // The seat a value names, the kind a value's letter names; refused at the
  // value, naming the key's path.
  int seat_named(const Doc& d, const std::string& path) const;
  int kind_named(const Doc& d, const std::string& path) const;
};

struct Key {
  enum class How {
    value,      // a value, read by `read`
    mapping,    // a mapping: its keys have rows of their own (`read`, if set,
                // runs instead, and reads them with read_keys)
    elsewhere,  // read apart, not in the walk: the document level (koma,
                // extends, replace), options, pieces' properties, setup
  };
  // (reading, the value, its path with letters as written, the kind a
  // `<letter>` in the path stands for or the item's index in a list, or -1)
  using Read = std::function<void(Reading&, const Doc&, const std::string&, int)>;

  Key(std::string path, How how, Read read)
      : path(std::move(path)), how(how), read(std::move(read)) {}

  std::string path;
  How how = How::value;
  Read read;
  const char* missing = nullptr;  // the error where a required key is not written
};

// Every key, in reading order.
const std::vector<Key>& schema();
const Key* key_at(const std::string& path);
// The keys directly under `path` ("" for the top level), `<letter>` among
// them where any piece letter may stand.
std::vector<std::string> keys_under(const std::string& path);
// The top-level keys a descriptor may hold but koma, extends and replace.
const std::vector<std::string>& descriptor_keys();

// Reads the mapping `d` found at `at` (`path` with its letters as written):
// each of its keys that has a row, in the rows' order; under a mapping that
// takes piece letters, the letters in the order written. Unknown keys are
// refused, and so is a letter that names no declared piece.
void read_keys(Reading& r, const Doc& d, const std::string& path, const std::string& at, int kind);

}  // namespace koma::detail
