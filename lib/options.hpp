// Descriptor options: declared under `options:` (named, typed, defaulted),
// overridden by the caller at load time, and substituted into the document
// where it says `$name` (a value) or `{$name: {value: ..., ...}}` (a choice).
#pragma once
#include <string>

#include "document.hpp"
#include "koma/variant.hpp"

namespace koma::detail {

// Resolves the options of `doc` with `overrides`, substitutes them in place,
// and returns the values in force (every declared option, plus first_seat and
// max_plies, which every descriptor has). `seats` bounds first_seat.
Options resolve_options(Doc& doc, const Options& overrides, int seats);

}  // namespace koma::detail
