// The CSV structural pass: finds field separators and row ends outside quotes, 64 bytes at a
// time (quote regions by prefix XOR), with scalar, AVX2 and AVX-512 kernels chosen at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "quiver/core/simd_dispatch.h"
#include "quiver/csv/spans_internal.h"

namespace quiver::csv {

struct SplitConfig {
  uint8_t delimiter = ',';
  uint8_t quote = '"';  // 0: no quoting
  uint8_t escape = 0;   // 0 or == quote: doubled quotes (RFC 4180); else e.g. '\\' inside quotes
};

// What one chunk's scan must know about the bytes before it; updated as the scan goes so that
// consecutive calls continue where the previous stopped.
struct SplitCarry {
  uint64_t in_quote = 0;       // all ones inside a quoted field, else 0
  uint64_t prev_boundary = 1;  // 1 if the previous byte was a delimiter or line end (or none)
  uint64_t prev_closer = 0;    // 1 if the previous byte closed a quoted field
  uint64_t escape_next = 0;    // 1 if the previous byte was an unescaped escape character
};

// Positions are relative to the chunk start; this bit marks a row end (LF, or CR not followed
// by LF) rather than a field separator.
inline constexpr uint32_t kRowEndFlag = 0x80000000u;
inline constexpr uint32_t kPositionMask = 0x7fffffffu;
// Room a kernel may write past the last position it reports.
inline constexpr size_t kSplitOutputSlack = 72;

struct SplitResult {
  size_t count = 0;         // positions written
  int64_t line_breaks = 0;  // LF plus lone CR bytes anywhere, quoted or not (physical lines)
  bool cr = false;          // a CR byte anywhere in the chunk, quoted or not
  // A quote that does not sit at a field boundary (a stray quote in an unquoted field, text
  // after a closing quote): the fast interpretation may be wrong, and the caller re-reads
  // the chunk with the byte-by-byte state machine.
  bool anomaly = false;
};

// Scans data[0, n). `next_byte` is the byte after the chunk (-1 at end of input). `out`
// must hold n + kSplitOutputSlack entries. Chunks must be shorter than 2 GiB.
using SplitKernel = SplitResult (*)(const uint8_t* data, size_t n, int next_byte, const SplitConfig& config,
                                    SplitCarry* carry, uint32_t* out);

// Parity of the quote characters in data[0, n) that are not escaped (1 = odd), for finding
// each parallel chunk's starting quote state. `escape_next` carries an escape across calls.
using QuoteParityKernel = uint64_t (*)(const uint8_t* data, size_t n, const SplitConfig& config,
                                       uint64_t* escape_next);

// Row assembly's fast path (row_assembly_internal.h) for rows of exactly `nc` fields, 2..16:
// walks pos[*idx, n) (positions relative to `offset`) row by row while the next `nc` positions
// are one row (a row end exactly at the last), storing field j of each row at
// columns[j * stride + *rows], its span in `row_spans`, a CR before the row end cut off
// (looked for only with `cr`: false promises no row's last byte is a CR).
// Stops before the first other row, or once a row ends at or past `limit` (returning true);
// `*idx`, `*row_start`, `*rows` and `*rows_seen` advance. `columns` has room for the rows.
using RowScatterKernel = bool (*)(const uint32_t* pos, size_t n, size_t nc, uint32_t offset, uint32_t limit,
                                  const uint8_t* data, bool cr, FieldSpan* columns, size_t stride, size_t* rows,
                                  std::vector<RowSpan>* row_spans, int64_t* rows_seen, size_t* idx, uint32_t* row_start);

struct SplitKernels {
  SplitKernel split;
  QuoteParityKernel quote_parity;
  RowScatterKernel scatter_rows;  // null below AVX-512: the scalar loop in row assembly serves
  SimdLevel level;
};

// Kernels for a given level (must be supported by the CPU), and for ActiveSimdLevel().
// `compress_bytes` false takes the AVX-512 split every AVX-512 CPU runs (32-bit compress),
// for tests on a CPU that has VBMI2; it changes nothing at the other levels.
const SplitKernels& GetSplitKernels(SimdLevel level, bool compress_bytes = true);
const SplitKernels& ActiveSplitKernels();

}  // namespace quiver::csv
