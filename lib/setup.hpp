// Internal: a descriptor's `setup` (docs/descriptor.md#setup), a position
// text or placements per seat, read into the variant's start position and
// the piece counts positions are checked against.
#pragma once
#include "document.hpp"
#include "schema.hpp"

namespace koma::detail {

// Reads `setup` of `top` into r.v.start, max_count and royal_start. Both
// forms pass the checks any position text passes; errors start "setup:".
void read_setup(Reading& r, const Doc& top);

}  // namespace koma::detail
