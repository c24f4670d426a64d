// Row assembly, the CSV reader's stage between splitting and conversion: the structural
// positions of a slice (splitter_internal.h) become rows of field spans, kept column-major for
// the converters; rows of the wrong field count are repaired, rejected or reported as the
// options say. Blank and comment lines are dropped here.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/csv/options.h"
#include "quiver/csv/problems.h"
#include "quiver/csv/spans_internal.h"
#include "quiver/csv/splitter_internal.h"

namespace quiver::csv {

// The field spans of the rows assembled and not yet converted, column-major: each column's
// spans lie together (`stride` apart from the next column's), so that each column's conversion
// pass reads them sequentially instead of one 8-byte span out of every row's 8 * ncols bytes.
struct FieldColumns {
  std::unique_ptr<FieldSpan[]> buf;
  size_t rows = 0, stride = 0;
  size_t ncols = 0;

  void Init(size_t nc) {
    if (nc != ncols) {
      buf.reset();
      stride = 0;
      ncols = nc;
    }
    rows = 0;
  }
  // Room for `more` rows past the current ones; a larger stride moves the rows held.
  void Reserve(size_t more) {
    if (rows + more <= stride) return;
    const size_t s = PaddedStride(std::max(rows + more, stride * 2));
    std::unique_ptr<FieldSpan[]> bigger(new FieldSpan[s * std::max<size_t>(ncols, 1)]);
    for (size_t j = 0; j < ncols && rows > 0; ++j) std::memcpy(&bigger[j * s], &buf[j * stride], rows * sizeof(FieldSpan));
    buf = std::move(bigger);
    stride = s;
  }
  // A row's spans are stored to every column at once. With columns an even number of 64-byte
  // lines apart (a power of two, or a multiple of 4 KiB, at worst) their lines fall in a few of
  // L1's 64 sets, more lines than a set has ways; an odd number of lines apart puts 64
  // columns in 64 different sets. At most 15 rows more per column.
  static size_t PaddedStride(size_t s) {
    constexpr size_t kLine = 64 / sizeof(FieldSpan);
    return ((s + kLine - 1) / kLine | 1) * kLine;
  }
  FieldSpan* column(size_t j) { return buf.get() + j * stride; }
  const FieldSpan* column(size_t j) const { return buf.get() + j * stride; }
  FieldSpan& at(size_t row, size_t j) { return buf[j * stride + row]; }
  void clear() { rows = 0; }
};

// A problem found in a chunk, resolved to line numbers only when it is reported.
struct ChunkProblem {
  uint32_t pos = 0;   // byte offset (block-relative) of the field or row
  int col = -1;       // -1: the whole row
  std::string message;
  std::string value;
  ProblemKind kind = ProblemKind::kOther;
  // The code of the status behind a problem that is not the data's (a memory limit, a failed
  // allocation), kept so that the read fails with it rather than as bad input.
  StatusCode code = StatusCode::kInvalid;
};

// A row dropped by on_error=skip, reported to the reject handler once the block is merged.
struct Reject {
  RowSpan row;
  ProblemKind kind;
  int col;  // -1: the whole row
  std::string reason;
};

// What assembly produced in one chunk so far.
struct AssembledRows {
  std::vector<RowSpan> rows;  // rows assembled and not yet converted
  FieldColumns fields;       // their fields
  std::vector<Reject> rejected;
  std::optional<ChunkProblem> problem;  // the first problem that fails the read
  int64_t unfinished = -1;   // start of a row that runs past the end of the block
  int64_t blank = 0, repaired = 0, dropped = 0, rows_seen = 0;
};

// Where a chunk's walk over its rows stands. A chunk after the first begins mid-row unless
// a row ends right before it; that row belongs to the chunk it started in.
struct RowCursor {
  bool started = false;  // the chunk's first row has been found
  uint32_t row_start = 0, field_start = 0;
  std::vector<FieldSpan> cur;  // fields of a row whose end has not been seen yet
};

// What assembly needs of the options and the schema.
struct RowShape {
  int ncols = 1;
  char comment = '\0';
  OnError on_error = OnError::kFail;
  bool lenient = false;
  uint8_t pad = 0;  // a two-byte delimiter's second byte, stepped over at a field's start
};

// Assembles the rows that end among pos[0, n) (block offsets: `offset` + position) and start
// before `limit`. True once the walk is past `limit` (the rest belongs to the next chunk) or
// stopped at a problem. Rows of exactly ncols fields take the kernels' scatter_rows when there
// is one. `cr` false promises that no byte before a row end here is a CR (none in the slice
// split nor right before it), so those rows' last bytes are not looked at.
bool TakeRows(const RowShape& shape, const SplitKernels& kernels, const uint8_t* data, AssembledRows& out,
              RowCursor& rc, const uint32_t* pos, size_t n, uint32_t offset, uint32_t limit, bool cr = true);

// Out of separators: the rest of the block up to `len` is one row, unfinished (its start in
// out.unfinished) unless the input ends there.
void EndOfBlock(const RowShape& shape, const uint8_t* data, AssembledRows& out, RowCursor& rc, uint32_t len,
                bool at_end);

}  // namespace quiver::csv
