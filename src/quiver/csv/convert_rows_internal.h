// Conversion scheduling, the CSV reader's stage after row assembly: a chunk's assembled rows
// into its columns 256 rows at a time through every column (so their text stays in L1 between
// columns), the first bad value in file order reported or its row rejected, and the columns
// into batches. The per-type loops themselves are convert_internal.h's TextColumnConverter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/row_assembly_internal.h"

namespace quiver::csv {

// What conversion needs of the schema and options (all borrowed from the reader).
struct ConvertPlan {
  const SchemaPtr& schema;
  const FieldSyntax& syntax;
  const std::vector<const DateFormat*>& formats;  // per column, null: none
  const std::vector<bool>& inferred;              // per column: typed by inference (leading zeros refused)
  OnError on_error;
  int64_t batch_rows;

  // "cannot convert to TYPE[ with format 'F']": the reason `value` of `col` is refused (a
  // leading zero in an inferred number column says so).
  std::string CannotConvert(int col, std::string_view value = {}) const;
  bool NoLeadingZeros(int col) const { return inferred[static_cast<size_t>(col)]; }
};

// The rows assembled so far (block offsets into `data`) appended to `columns`; with
// OnError::kSkip, rows holding a value that does not convert are first moved to
// rows.rejected. `chunk_bytes` (the chunk's length) sizes the columns at the first rows.
// A failure sets rows.problem and stops; otherwise the rows and fields are cleared.
void ConvertRows(const ConvertPlan& plan, const uint8_t* data, uint32_t chunk_bytes, AssembledRows& rows,
                 std::vector<TextColumnConverter>& columns, int64_t* nulled);

// The columns as one batch, sliced to batch_rows, appended to `batches`; a failure sets
// *problem at `at`.
void FinishColumns(const ConvertPlan& plan, std::vector<TextColumnConverter>& columns, uint32_t at,
                   std::optional<ChunkProblem>* problem, std::vector<std::shared_ptr<RecordBatch>>* batches);

}  // namespace quiver::csv
