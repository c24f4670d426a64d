// Nested columns shredded into Parquet leaves: each leaf's path through the quiver type (list,
// struct, map at any depth), its maximum definition/repetition levels, and for an array of the
// top-level field the leaf's levels and the leaf values they define.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/result.h"

namespace quiver::parquet::writer {

// One leaf column under a top-level field. `fields[0]` is the top-level field; each next entry
// is a child of the one before (a list's item, a map's "entries" struct then its key or value,
// a struct's field), `child[k]` its index in fields[k]'s type, and the last a flat type.
struct LeafPath {
  std::vector<const Field*> fields;
  std::vector<int> child;                 // size fields.size() - 1
  std::vector<std::string> path_in_schema;  // the Parquet names, with LIST's "list" and MAP's "key_value"
  int16_t max_def = 0, max_rep = 0;
};

// Every leaf of `top`, depth first in field order (the order of Parquet's column chunks).
std::vector<LeafPath> LeafPathsOf(const Field& top);

// The levels of one leaf over an array of the top-level field.
struct LeafPiece {
  std::vector<int16_t> def, rep;  // one entry per level; rep empty when max_rep == 0
  // The leaf array, with a validity bitmap set exactly at the slots a level with def == max_def
  // writes (so slots under null or empty parents and null values are all skipped).
  Array values;
  // For each level, one past the leaf slot it writes (or the previous level's, when it writes
  // none): levels [a, b) write values from slots [slot_end[a-1], slot_end[b-1]).
  std::vector<int64_t> slot_end;
};

// Invalid when a non-nullable field of the path holds a null.
Result<LeafPiece> ShredLeaf(const LeafPath& path, const Array& top);

}  // namespace quiver::parquet::writer
