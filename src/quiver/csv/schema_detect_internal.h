// Schema detection, the CSV reader's first stage: from a sample of rows after the preamble,
// the column count, whether the first row is a header, the column names (given, from the
// header row, from header lines joined, or generated) and each column's type and format.
// Pure functions of the sample and the options, so each decision can be tested alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/schema.h"
#include "quiver/core/status.h"
#include "quiver/core/thread_pool.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/date_format.h"
#include "quiver/csv/infer_internal.h"
#include "quiver/csv/options.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {

// Sampled rows (blank and comment lines left out), fields at offsets from the sample's start.
struct SampleRows {
  std::vector<std::vector<FieldSpan>> rows;
  std::vector<uint32_t> row_ends;  // each row's terminator (or the end of the sample)
};

// Up to max_rows + 1 rows of data[0, n), split as the state machine reads them leniently (a
// sample only has to be indicative): by `kernels`' split where the two agree, else by the
// machine. `n_is_all`: the input ends at n, so a last row without a line end counts.
SampleRows SplitSample(const uint8_t* data, size_t n, bool n_is_all, const MachineConfig& machine, int64_t max_rows,
                       const SplitKernels& kernels);

// The most common row width, or the first row's when it differs other than by empty trailing
// cells (a trailing delimiter after a header) on a strict read; the names' count when given;
// at least 1.
int CountColumns(const SampleRows& sample, const CsvOptions& options);

// The row cut or padded with missing fields to `ncols`.
std::vector<FieldSpan> PadRow(const std::vector<FieldSpan>& row, int ncols);

// Each column's candidate types over the sampled rows from `first` on, a column per task on
// `pool` (null: on the calling thread): the sample is typed before any block is parsed, with
// the other threads idle.
TypeInferrer InferRows(const uint8_t* data, const SampleRows& sample, size_t first, int ncols, const FieldSyntax& syntax,
                       ThreadPool* pool);

// Whether the first sampled row is a header: as the options say, else when its cells
// contradict the types of the rows after it or read as distinct text over text columns.
// `after_first`: those types when already inferred (InferRows from row 1), else inferred here.
bool DecideHeader(const uint8_t* data, const SampleRows& sample, int ncols, const FieldSyntax& syntax,
                  const CsvOptions& options, const TypeInferrer* after_first = nullptr);

// The one clean-up of a header cell: quotes and escapes removed, surrounding spaces and tabs
// trimmed (as other engines do). A missing or null cell is empty.
std::string CleanName(const uint8_t* data, const FieldSpan& field, const FieldSyntax& syntax);
// column0..column9, or column00.. when there are more than ten columns (names sort in order).
std::string DefaultName(int col, int ncols);
// Names made distinct in order: a name seen before gets _1, _2, ... (the first free suffix).
void MakeNamesUnique(std::vector<std::string>* names);
// A header row's names: cleaned, an empty one generated, then made distinct.
std::vector<std::string> HeaderNames(const uint8_t* data, const std::vector<FieldSpan>& row, int ncols,
                                     const FieldSyntax& syntax);

// Wrapped exports spread a header over several physical lines, each with fewer fields than
// the data, so sniffing counts them as preamble. The last k >= 2 lines of data[0, preamble)
// (no blank line among them, the first with at least two fields) are one header when their
// fields add up to `ncols` (every line break ends a field) or exceed it by k - 1 (every line
// break falls inside a cell, whose halves are joined by a space), and every resulting cell is
// non-empty text that reads as no number, date, time or boolean. The fewest lines that fit win.
// On success `*names` holds the cells (not yet made distinct) and `*header_start` the offset
// of the header's first line.
bool JoinHeaderLines(const uint8_t* data, size_t preamble, const MachineConfig& machine, const FieldSyntax& syntax,
                     int ncols, std::vector<std::string>* names, size_t* header_start);

// Multi-row headers: the first two sampled rows are both header lines when every non-empty
// cell of each is text that reads as no number, date, time or boolean (names may repeat:
// "DATE,DATE" over "Start,End"), the second has at least two such cells, and one of them
// lies over a column that the rows after the second type otherwise. `*names` gets each
// column's two cells joined by a space (an empty one left out; both empty: generated), made
// distinct. Rows of another width than `ncols` never qualify.
bool SecondHeaderRow(const uint8_t* data, const SampleRows& sample, int ncols, const FieldSyntax& syntax,
                     ThreadPool* pool, std::vector<std::string>* names);

// Each column's type: an explicit one (column_types), else inferred from the sampled rows
// after the first `header_rows`, else text; with its date or timestamp format.
struct ColumnTypes {
  std::vector<Field> fields;
  std::vector<bool> inferred;                 // the type came from the sample (errors say so)
  std::vector<const DateFormat*> formats;     // null: ISO or not a date/timestamp column
  std::vector<std::unique_ptr<DateFormat>> explicit_formats;  // owners of column_formats' formats
};
// Fails when a format names a column that is not a date or timestamp, a format does not
// compile, or column_types / column_formats name a column the file does not have (`file`
// names the input in those messages). `inferred`: the sampled rows after the header already
// inferred (InferRows from `header_rows`, as DecideHeader's rows after the first are when the
// first is the header), else they are inferred here on `pool`.
Status ResolveTypes(const uint8_t* data, const SampleRows& sample, size_t header_rows,
                    const std::vector<std::string>& names, const FieldSyntax& syntax, const CsvOptions& options,
                    const std::string& file, ColumnTypes* out, const TypeInferrer* inferred = nullptr,
                    ThreadPool* pool = nullptr);

}  // namespace quiver::csv
