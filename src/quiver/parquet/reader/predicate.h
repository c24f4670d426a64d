// `column op literal` filters on a Parquet file: row groups skipped by their column chunk
// statistics, then the rows of the rest kept exactly (SQL semantics, as DuckDB's WHERE).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/columnar/array.h"
#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
const char* CompareOpName(CompareOp op);  // "=", "!=", "<", "<=", ">", ">="

// A literal in the representation of the column it is compared with: integers (every width,
// signed or unsigned, booleans as 0/1, dates as days, timestamps in the column's unit) as a
// 128-bit integer so that signed and unsigned 64-bit values compare without overflow; floats
// as double; strings and binary as bytes (compared byte-wise, unsigned).
struct Literal {
  enum class Kind : uint8_t { kInt, kFloat, kBytes };
  Kind kind = Kind::kInt;
  __int128 i = 0;
  double f = 0;
  std::string bytes;

  static Literal Int(__int128 v) { Literal l; l.kind = Kind::kInt; l.i = v; return l; }
  static Literal Float(double v) { Literal l; l.kind = Kind::kFloat; l.f = v; return l; }
  static Literal Bytes(std::string v) { Literal l; l.kind = Kind::kBytes; l.bytes = std::move(v); return l; }
};

// What a predicate compares with, for each quiver type a top-level flat column may have:
// kInt for bool, (u)int8..64, date32, timestamp (not from INT96); kFloat for float32/64;
// kBytes for string/binary. NotImplemented for the rest (decimals, times, nested, ...).
Result<Literal::Kind> LiteralKindFor(const DataType& type);

// A predicate tied to one flat leaf column of a file (see ParquetFileReader::BindPredicate).
struct BoundPredicate {
  int field = -1;   // index into the reader's schema()
  int leaf = -1;    // the field's leaf column
  Type physical = Type::INT32;
  bool is_unsigned = false;  // UINT_* / INT(bits, false): statistics compare unsigned
  // min_value/max_value are in the type's order: column_orders says TYPE_ORDER or says nothing.
  bool type_order = true;
  CompareOp op = CompareOp::kEq;
  Literal value;
};

// False only when `stats` prove that no value of the chunk satisfies the predicate (a chunk
// of `num_values` values): every value null (null_count == num_values), or the literal outside
// [min, max] as the operator needs. min_value/max_value are used when present and in type
// order; the legacy min/max only for signed integers (their legacy order is signed). Bounds
// that are not exact (truncated strings) still bound, so only != needs exact ones. Floats: NaN
// is not in min/max, so >, >= and != keep a chunk whose nan_count is not known to be 0, and a
// NaN literal or bound keeps it. Missing or malformed statistics keep the chunk.
bool StatisticsMayMatch(const BoundPredicate& p, const Statistics* stats, int64_t num_values);

// Bit i of the result (LSB first) is set when row i of `values` satisfies `op value`: nulls
// never do; floats order NaN above every number and equal to itself (as DuckDB does).
// `values` must have a type for which LiteralKindFor gives value.kind.
Result<std::shared_ptr<Buffer>> EvaluatePredicate(const Array& values, CompareOp op, const Literal& value,
                                                  int64_t* selected, MemoryPool* pool = default_memory_pool());

// The rows of a flat array (fixed width, boolean, string, binary; NotImplemented otherwise)
// whose bit is set in `selection` (`selected` of them, else Invalid), in buffers of their size
// from `pool`; the array itself when every row is.
Result<Array> FilterArray(const Array& values, const uint8_t* selection, int64_t selected,
                          MemoryPool* pool = default_memory_pool());

// The rows of `batch` whose bit is set in `selection` (`selected` of them, else Invalid), in
// order: the batch itself when all are; else flat columns copied row by row into buffers of
// their final size from `pool`, and batches with nested columns as runs of rows joined.
Result<std::shared_ptr<RecordBatch>> FilterBatch(const std::shared_ptr<RecordBatch>& batch, const uint8_t* selection,
                                                 int64_t selected, MemoryPool* pool = default_memory_pool());

}  // namespace quiver::parquet
