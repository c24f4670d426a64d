#include "quiver/csv/convert_rows_internal.h"

#include <fmt/format.h>

#include <algorithm>

namespace quiver::csv {

std::string ConvertPlan::CannotConvert(int col, std::string_view value) const {
  std::string msg = fmt::format("cannot convert to {}", schema->field(col).type->ToString());
  const TypeId id = schema->field(col).type->id();
  if (NoLeadingZeros(col) && (id == TypeId::kInt64 || id == TypeId::kFloat64) && HasLeadingZero(value)) {
    msg += " without losing its leading zero (a code, not a number)";
  }
  if (const DateFormat* f = formats[static_cast<size_t>(col)]) msg += fmt::format(" with format '{}'", f->pattern());
  return msg;
}

void ConvertRows(const ConvertPlan& plan, const uint8_t* data, uint32_t chunk_bytes, AssembledRows& c,
                 std::vector<TextColumnConverter>& columns, int64_t* nulled) {
  const int ncols = plan.schema->num_fields();
  const size_t nc = static_cast<size_t>(ncols);
  const Schema& schema = *plan.schema;
  if (plan.on_error == OnError::kSkip) {
    // Rows with a value that does not convert are dropped before conversion, so every column
    // keeps the same rows.
    size_t kept = 0;
    for (size_t r = 0; r < c.rows.size(); ++r) {
      int bad = -1;
      for (int col = 0; col < ncols && bad < 0; ++col) {
        if (!FieldConverts(schema.field(col).type, data, c.fields.at(r, static_cast<size_t>(col)), plan.syntax,
                           plan.formats[static_cast<size_t>(col)], plan.NoLeadingZeros(col))) {
          bad = col;
        }
      }
      if (bad >= 0) {
        const FieldSpan& bf = c.fields.at(r, static_cast<size_t>(bad));
        const std::string_view value = bf.start == FieldSpan::kMissing
                                           ? std::string_view()
                                           : std::string_view(reinterpret_cast<const char*>(data) + bf.start, bf.end - bf.start);
        c.rejected.push_back(Reject{c.rows[r], ProblemKind::kConversion, bad, plan.CannotConvert(bad, value)});
        continue;
      }
      if (kept != r) {
        c.rows[kept] = c.rows[r];
        for (size_t col = 0; col < nc; ++col) c.fields.at(kept, col) = c.fields.at(r, col);
      }
      ++kept;
    }
    c.rows.resize(kept);
    c.fields.rows = kept;
  }
  const int64_t nrows = static_cast<int64_t>(c.rows.size());
  if (nrows == 0) return;
  if (columns[0].length() == 0) {
    // The first rows of the chunk: size the columns for the whole chunk from their density.
    const uint64_t span = std::max<uint64_t>(1, c.rows.back().end + 1 - c.rows.front().start);
    const int64_t expect = static_cast<int64_t>(static_cast<uint64_t>(nrows) * chunk_bytes / span) + nrows / 8 + 16;
    for (auto& col : columns) {
      Status st = col.Reserve(std::max(expect, nrows));
      if (!st.ok()) {
        c.problem = ChunkProblem{c.rows[0].start, -1, st.message(), {}, ProblemKind::kOther, st.code()};
        return;
      }
    }
  }
  // A few hundred rows at a time, every column: the rows' text (tens of KB) stays in L1 from
  // one column's pass to the next, where a pass per column over the whole slice would bring
  // it back from L2 for each column.
  constexpr int64_t kGroupRows = 256;
  for (int64_t g = 0; g < nrows; g += kGroupRows) {
    const int64_t n = std::min(kGroupRows, nrows - g);
    for (int col = 0; col < ncols; ++col) {
      ConvertError err;
      Status st = columns[static_cast<size_t>(col)].Append(data, c.fields.column(static_cast<size_t>(col)) + g, n,
                                                           plan.syntax, plan.on_error == OnError::kNull, nulled, &err);
      if (!st.ok()) {
        c.problem = ChunkProblem{c.rows[static_cast<size_t>(g)].start, col, st.message(), {}, ProblemKind::kOther, st.code()};
        return;
      }
      if (err.failure != ConvertFailure::kNone) {
        // Columns convert one after another over the group, so a later column may hold a bad
        // cell in an earlier row: the first in file order is reported. Only a failed read
        // pays for this look.
        int bad_col = col;
        for (int later = col + 1; later < ncols; ++later) {
          for (int64_t r = 0; r < err.row; ++r) {
            const FieldSpan& lf = c.fields.at(static_cast<size_t>(g + r), static_cast<size_t>(later));
            if (!FieldConverts(schema.field(later).type, data, lf, plan.syntax, plan.formats[static_cast<size_t>(later)],
                               plan.NoLeadingZeros(later))) {
              err.row = r;
              // A string cell fails only on its encoding.
              err.failure = schema.field(later).type->id() == TypeId::kString ? ConvertFailure::kInvalidUtf8
                                                                               : ConvertFailure::kBadValue;
              bad_col = later;
              break;
            }
          }
        }
        col = bad_col;
        const FieldSpan& f = c.fields.at(static_cast<size_t>(g + err.row), static_cast<size_t>(col));
        std::string value(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
        const bool utf8 = err.failure == ConvertFailure::kInvalidUtf8;
        c.problem = ChunkProblem{f.start, col, utf8 ? std::string("invalid UTF-8") : plan.CannotConvert(col, value),
                                 std::move(value), utf8 ? ProblemKind::kInvalidUtf8 : ProblemKind::kConversion};
        return;
      }
    }
  }
  c.rows.clear();
  c.fields.clear();
}

void FinishColumns(const ConvertPlan& plan, std::vector<TextColumnConverter>& builders, uint32_t at,
                   std::optional<ChunkProblem>* problem, std::vector<std::shared_ptr<RecordBatch>>* batches) {
  const int64_t nrows = builders[0].length();
  if (nrows == 0) return;
  std::vector<Array> columns;
  columns.reserve(builders.size());
  for (auto& col : builders) {
    auto arr = col.Finish();
    if (!arr.ok()) {
      *problem = ChunkProblem{at, -1, arr.status().message(), {}, ProblemKind::kOther, arr.status().code()};
      return;
    }
    columns.push_back(std::move(*arr));
  }
  auto batch = std::make_shared<RecordBatch>(plan.schema, nrows, std::move(columns));
  for (int64_t off = 0; off < nrows; off += plan.batch_rows) {
    int64_t n = std::min(plan.batch_rows, nrows - off);
    batches->push_back(off == 0 && n == nrows ? batch : batch->Slice(off, n));
  }
}

}  // namespace quiver::csv
