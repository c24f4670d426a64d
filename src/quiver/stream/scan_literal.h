// A predicate's literal from text, as a value of the column's type (see
// parquet::LiteralKindFor), for ParquetScan.
#pragma once

#include <string>

#include "quiver/columnar/type.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/predicate.h"

namespace quiver::stream {

// Integers, booleans (true/false, 1/0), dates (YYYY-MM-DD), timestamps (as `quiver cat` prints
// them, in the column's unit), floats (a float32 column's literal rounded to float, as its
// values are), strings. Invalid naming the text, the column and its type when the text is not
// such a value; NotImplemented for other types.
Result<parquet::Literal> ParseLiteral(const DataType& type, const std::string& text, const std::string& column);

}  // namespace quiver::stream
