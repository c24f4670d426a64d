// A value typed on the command line (`cat --where col=value`, `meta --bloom-probe col=value`)
// as a value of its column's type: the one literal parser both use.
#pragma once

#include <string>

#include "quiver/columnar/type.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/schema.h"

namespace quiver::stream {

// Integers, booleans (true/false, 1/0), dates (YYYY-MM-DD), timestamps (as `quiver cat` prints
// them, in the column's unit), floats (a float32 column's literal rounded to float, as its
// values are), strings. Invalid naming the text, the column and its type when the text is not
// such a value; NotImplemented for other types.
Result<parquet::Literal> ParseLiteral(const DataType& type, const std::string& text, const std::string& column);

// The PLAIN bytes a bloom filter of leaf `column` (of `tree`) hashes for `text`: ParseLiteral by
// the leaf's quiver type, then parquet::BloomBytesOf. Invalid for text ParseLiteral refuses, for
// an integer outside the physical type, and for leaves bloom filters are not asked about.
Result<std::string> BloomProbeBytes(const parquet::SchemaTree& tree, int column, const std::string& text);

}  // namespace quiver::stream
