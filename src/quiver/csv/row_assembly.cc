#include "quiver/csv/row_assembly_internal.h"

#include <fmt/format.h>

namespace quiver::csv {

namespace {

// The row whose fields are rc.cur, ending at `end`: dropped when blank or a comment, else
// stored, repaired or rejected by its field count.
void EmitRow(const RowShape& shape, const uint8_t* data, AssembledRows& c, RowCursor& rc, uint32_t end) {
  const int ncols = shape.ncols;
  auto& cur = rc.cur;
  if (end > rc.row_start && data[end - 1] == '\r') cur.back().end = std::max(cur.back().start, end - 1);
  ++c.rows_seen;
  const size_t nf = cur.size();
  bool blank = nf == 1 && cur[0].end == cur[0].start;
  if (blank && ncols > 1) {
    ++c.blank;
    --c.rows_seen;
    return;
  }
  if (shape.comment != '\0' && cur[0].end > cur[0].start && data[cur[0].start] == static_cast<uint8_t>(shape.comment)) {
    --c.rows_seen;
    return;
  }
  RowSpan row{rc.row_start, end};
  if (c.fields.ncols != static_cast<size_t>(ncols)) c.fields.Init(static_cast<size_t>(ncols));
  if (static_cast<int>(nf) != ncols) {
    // Kept, padded with nulls or cut to the columns, with --on-error null, and with --lenient
    // unless --on-error skip drops it.
    if (shape.on_error == OnError::kNull || (shape.lenient && shape.on_error == OnError::kFail)) {
      ++c.repaired;
      if (static_cast<int>(nf) > ncols) c.dropped += static_cast<int64_t>(nf) - ncols;
      c.fields.Reserve(1);
      const size_t r = c.fields.rows++;
      for (int f = 0; f < ncols; ++f) {
        c.fields.at(r, static_cast<size_t>(f)) = f < static_cast<int>(nf) ? cur[static_cast<size_t>(f)]
                                                                        : FieldSpan{FieldSpan::kMissing, FieldSpan::kMissing};
      }
      c.rows.push_back(row);
      return;
    }
    std::string reason = fmt::format("expected {} fields, got {}", ncols, nf);
    if (shape.on_error == OnError::kFail) {
      if (!c.problem) c.problem = ChunkProblem{rc.row_start, -1, reason, {}, ProblemKind::kFieldCount};
    } else {
      c.rejected.push_back(Reject{row, ProblemKind::kFieldCount, -1, std::move(reason)});
    }
    return;
  }
  c.fields.Reserve(1);
  const size_t r = c.fields.rows++;
  for (size_t f = 0; f < nf; ++f) c.fields.at(r, f) = cur[f];
  c.rows.push_back(row);
}

}  // namespace

bool TakeRows(const RowShape& shape, const SplitKernels& kernels, const uint8_t* data, AssembledRows& c,
              RowCursor& rc, const uint32_t* pos, size_t n, uint32_t offset, uint32_t limit, bool cr) {
  size_t idx = 0;
  if (!rc.started) {
    // The chunk begins inside a row that an earlier chunk owns: skip to that row's end.
    while (idx < n && !(pos[idx] & kRowEndFlag)) ++idx;
    if (idx == n) return false;
    rc.started = true;
    rc.row_start = rc.field_start = offset + (pos[idx] & kPositionMask) + 1;
    ++idx;
    if (rc.row_start >= limit) return true;
  }
  const size_t nc = static_cast<size_t>(shape.ncols);
  if (c.fields.ncols != nc) c.fields.Init(nc);
  c.rows.reserve(c.rows.size() + n / std::max<size_t>(nc, 1) + 2);
  // Rows of exactly ncols fields (nearly all of them) are copied straight from the positions;
  // anything else (a short or long row, a row across slices, comments) takes the general
  // path one position at a time, and the fast path resumes at the next row.
  const bool fast = shape.comment == '\0' && shape.pad == 0;
  const RowScatterKernel scatter = nc >= 2 && nc <= 16 ? kernels.scatter_rows : nullptr;
  uint32_t row_start = rc.row_start, field_start = rc.field_start;
  for (;;) {
    if (c.problem && shape.on_error == OnError::kFail) return true;
    if (fast && rc.cur.empty()) {
      // The full rows left are at most (n - idx) / ncols, and the fast paths write them without
      // asking: make that room now. Room made earlier may have gone to rows EmitRow kept short
      // (one position each, a whole row's spans), which is why this is checked on every entry.
      c.fields.Reserve((n - idx) / std::max<size_t>(nc, 1) + 1);
      if (scatter != nullptr && scatter(pos, n, nc, offset, limit, data, cr, c.fields.buf.get(), c.fields.stride,
                                        &c.fields.rows, &c.rows, &c.rows_seen, &idx, &row_start)) {
        rc.row_start = rc.field_start = row_start;
        return true;
      }
      field_start = row_start;
      // Each field goes to its column's spans: one store per field, stride apart.
      const size_t stride = c.fields.stride;
      while (idx + nc <= n) {
        const uint32_t last = pos[idx + nc - 1];
        uint32_t inner = 0;
        for (size_t j = 0; j + 1 < nc; ++j) inner |= pos[idx + j];
        if (!(last & kRowEndFlag) || (inner & kRowEndFlag)) break;
        FieldSpan* out = c.fields.buf.get() + c.fields.rows++;
        uint32_t s = field_start;
        for (size_t j = 0; j < nc; ++j) {
          const uint32_t at = offset + (pos[idx + j] & kPositionMask);
          out[j * stride] = FieldSpan{s, at};
          s = at + 1;
        }
        const uint32_t end = offset + (last & kPositionMask);
        FieldSpan& back = out[(nc - 1) * stride];
        if (cr && end > row_start && data[end - 1] == '\r') back.end = std::max(back.start, end - 1);
        c.rows.push_back(RowSpan{row_start, end});
        ++c.rows_seen;
        idx += nc;
        row_start = field_start = end + 1;
        if (row_start >= limit) {
          rc.row_start = rc.field_start = row_start;
          return true;
        }
      }
    }
    if (idx >= n) {
      rc.row_start = row_start;
      rc.field_start = field_start;
      return false;
    }
    const uint32_t p = pos[idx++];
    const uint32_t at = offset + (p & kPositionMask);
    rc.cur.push_back(FieldSpan{field_start, at});
    field_start = at + 1;
    if (shape.pad != 0 && !(p & kRowEndFlag) && data[field_start] == shape.pad) ++field_start;
    if (p & kRowEndFlag) {
      rc.row_start = row_start;
      EmitRow(shape, data, c, rc, at);
      rc.cur.clear();
      row_start = field_start = at + 1;
      if (row_start >= limit) {
        rc.row_start = rc.field_start = row_start;
        return true;
      }
    }
  }
}

void EndOfBlock(const RowShape& shape, const uint8_t* data, AssembledRows& c, RowCursor& rc, uint32_t len,
                bool at_end) {
  if (!rc.started || rc.row_start >= len) return;
  if (!at_end) {
    c.unfinished = rc.row_start;
    return;
  }
  rc.cur.push_back(FieldSpan{rc.field_start, len});
  EmitRow(shape, data, c, rc, len);
  rc.cur.clear();
  rc.row_start = rc.field_start = len;
}

}  // namespace quiver::csv
