// CSV reading speed: the structural pass alone per SIMD level (clean and quote-heavy
// lineitem), the pass with row assembly as the reader runs them (slice by slice), and the
// whole parse into typed columns at 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "quiver/csv/generate.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/row_assembly_internal.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/columnar/value_parse.h"
#include "quiver/io/output_stream.h"

namespace quiver::csv {
namespace {

// The same allocator settings as the quiver program.
const bool configured = [] {
  ConfigureAllocatorForStreaming();
  return true;
}();

const std::shared_ptr<Buffer>& Lineitem(bool messy) {
  static std::shared_ptr<Buffer> clean, quoted;
  auto& slot = messy ? quoted : clean;
  if (!slot) {
    io::BufferOutputStream out;
    LineitemOptions o;
    o.rows = 800000;  // about 100 MB
    o.messy = messy;
    (void)GenerateLineitem(o, &out);
    slot = *out.Finish();
  }
  return slot;
}

// Whether this CPU has `level`; if not, the benchmark is marked skipped.
bool LevelRuns(benchmark::State& state, SimdLevel level) {
  for (SimdLevel l : SupportedSimdLevels()) {
    if (l == level) return true;
  }
  state.SkipWithError("level not supported by this CPU");
  return false;
}

void BM_Split(benchmark::State& state) {
  const SimdLevel level = static_cast<SimdLevel>(state.range(0));
  const bool messy = state.range(1) != 0;
  if (!LevelRuns(state, level)) return;
  const auto& buf = Lineitem(messy);
  const bool compress_bytes = state.range(2) != 0;
  const SplitKernels& k = GetSplitKernels(level, compress_bytes);
  // Chunks of 8 MiB (the reader's are 1 MiB, whose positions stay in L2: this is the harder
  // case); the output array is reused.
  const size_t chunk = 8 << 20;
  std::vector<uint32_t> out(chunk + kSplitOutputSlack);
  for (auto _ : state) {
    SplitCarry carry;
    size_t total = 0;
    for (size_t at = 0; at < static_cast<size_t>(buf->size()); at += chunk) {
      size_t n = std::min(chunk, static_cast<size_t>(buf->size()) - at);
      int next = at + n < static_cast<size_t>(buf->size()) ? buf->data()[at + n] : -1;
      total += k.split(buf->data() + at, n, next, SplitConfig{}, &carry, out.data()).count;
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(state.iterations() * buf->size());
  state.SetLabel(std::string(SimdLevelName(level)) + (messy ? " messy" : " clean") +
                 (level == SimdLevel::kAvx512 && compress_bytes && CpuHasAvx512Vbmi2() ? " vbmi2" : ""));
}

// The split and row assembly of one thread, as the reader runs them: 128 KiB slices, each
// split and its rows' field spans stored to their columns (then dropped, as conversion would).
// Lineitem's 16 columns take the AVX-512 scatter; the data stays in memory, so this is the
// steadier figure for the two stages than a whole read.
void BM_SplitRows(benchmark::State& state) {
  const SimdLevel level = static_cast<SimdLevel>(state.range(0));
  if (!LevelRuns(state, level)) return;
  const auto& buf = Lineitem(state.range(1) != 0);
  const SplitKernels& k = GetSplitKernels(level);
  const uint8_t* data = buf->data();
  const uint32_t len = static_cast<uint32_t>(buf->size());
  const uint32_t slice = 128 << 10;
  std::vector<uint32_t> pos(slice + kSplitOutputSlack);
  RowShape shape;
  shape.ncols = 16;
  int64_t rows = 0;
  for (auto _ : state) {
    AssembledRows out;
    RowCursor rc;
    rc.started = true;
    SplitCarry carry;
    for (uint32_t at = 0; at < len; at += slice) {
      const uint32_t n = std::min(slice, len - at);
      const SplitResult r = k.split(data + at, n, at + n < len ? data[at + n] : -1, SplitConfig{}, &carry, pos.data());
      TakeRows(shape, k, data, out, rc, pos.data(), r.count, at, len, r.cr);
      out.rows.clear();
      out.fields.clear();
    }
    rows += out.rows_seen;
  }
  state.counters["rows"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
  state.SetBytesProcessed(state.iterations() * buf->size());
  state.SetLabel(std::string(SimdLevelName(level)) + (state.range(1) != 0 ? " messy" : " clean"));
}

void BM_ParseTyped(benchmark::State& state) {
  const auto& buf = Lineitem(state.range(1) != 0);
  CsvOptions o;
  o.threads = static_cast<int>(state.range(0));
  int64_t rows = 0;
  for (auto _ : state) {
    auto reader = CsvReader::OpenBuffer(buf, o);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    for (;;) {
      auto b = (*reader)->Next();
      if (!b.ok() || !*b) break;
      rows += (*b)->num_rows();
    }
  }
  benchmark::DoNotOptimize(rows);
  state.SetBytesProcessed(state.iterations() * buf->size());
}

BENCHMARK(BM_Split)->ArgsProduct({{0, 1, 2}, {0, 1}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SplitRows)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseTyped)->ArgsProduct({{1, 2}, {0, 1}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

// Whole-file parse of $QUIVER_BENCH_CSV (e.g. 8M lineitem rows from ../shared/peers), to set
// beside `peers.mjs duckdb csvread` and `polars csvread` on the same file.
void BM_ReadFile(benchmark::State& state) {
  const char* path = std::getenv("QUIVER_BENCH_CSV");
  if (path == nullptr) {
    state.SkipWithError("set QUIVER_BENCH_CSV to a CSV file");
    return;
  }
  CsvOptions o;
  o.threads = static_cast<int>(state.range(0));
  int64_t rows = 0, bytes = 0;
  for (auto _ : state) {
    auto reader = CsvReader::Open(path, o);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    for (;;) {
      auto b = (*reader)->Next();
      if (!b.ok()) {
        state.SkipWithError(b.status().ToString().c_str());
        return;
      }
      if (!*b) break;
      rows += (*b)->num_rows();
    }
    bytes += (*reader)->stats().bytes_read;
  }
  state.counters["rows"] = static_cast<double>(rows) / static_cast<double>(state.iterations());
  state.SetBytesProcessed(bytes);
}

BENCHMARK(BM_ReadFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

// The per-field parsers on lineitem-shaped values ('|'-separated in one padded buffer, as the
// reader sees them): plain (any string) against padded (SWAR, reads past the field).
struct Fields {
  std::string text;
  std::vector<std::pair<uint32_t, uint32_t>> spans;
};

const Fields& Values(int kind) {
  static Fields cache[3];
  Fields& f = cache[kind];
  if (f.spans.empty()) {
    uint64_t x = 12345;
    for (int i = 0; i < 100000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint32_t r = static_cast<uint32_t>(x >> 33);
      char tmp[32];
      int n = 0;
      if (kind == 0) n = std::snprintf(tmp, sizeof(tmp), "%u", r % 200000);  // keys
      if (kind == 1) n = std::snprintf(tmp, sizeof(tmp), "%u.%02u", r % 100000, r % 100);  // prices
      if (kind == 2) n = std::snprintf(tmp, sizeof(tmp), "199%u-%02u-%02u", r % 8, 1 + r % 12, 1 + r % 28);  // dates
      f.spans.emplace_back(static_cast<uint32_t>(f.text.size()), static_cast<uint32_t>(n));
      f.text.append(tmp, static_cast<size_t>(n));
      f.text += '|';
    }
    f.text.append(64, '\0');
  }
  return f;
}

template <typename T, bool (*parse)(std::string_view, T*)>
void BM_ParseValues(benchmark::State& state) {
  const Fields& f = Values(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    T sum{};
    for (auto [at, n] : f.spans) {
      T v{};
      if (!parse(std::string_view(f.text.data() + at, n), &v)) state.SkipWithError("parse failed");
      sum += v;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(f.spans.size()));
}

BENCHMARK(BM_ParseValues<int64_t, ParseInt64>)->Arg(0)->Name("BM_ParseInt64/plain");
BENCHMARK(BM_ParseValues<int64_t, ParseInt64Padded>)->Arg(0)->Name("BM_ParseInt64/padded");
BENCHMARK(BM_ParseValues<double, ParseFloat64>)->Arg(1)->Name("BM_ParseDecimalFloat/plain");
BENCHMARK(BM_ParseValues<double, ParseFloat64Padded>)->Arg(1)->Name("BM_ParseDecimalFloat/padded");
BENCHMARK(BM_ParseValues<int32_t, ParseDate>)->Arg(2)->Name("BM_ParseDate/plain");
BENCHMARK(BM_ParseValues<int32_t, ParseDatePadded>)->Arg(2)->Name("BM_ParseDate/padded");

}  // namespace
}  // namespace quiver::csv

#include "quiver/csv/convert_internal.h"

namespace quiver::csv {
namespace {

// One column converted from its spans (as the reader holds them: one span per row, the text
// in a padded buffer), per SIMD level: the per-value cost of each converter. Kinds as in
// Values (0 keys, 1 prices, 2 dates) and 3: short strings.
void BM_ConvertColumn(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  const SimdLevel level = static_cast<SimdLevel>(state.range(1));
  if (!LevelRuns(state, level)) return;
  static Fields strings;
  if (strings.spans.empty()) {
    const char* modes[] = {"TRUCK", "MAIL", "REG AIR", "AIR", "FOB", "RAIL", "SHIP", "DELIVER IN PERSON"};
    for (int i = 0; i < 100000; ++i) {
      const std::string v = modes[(i * 7 + i / 3) % 8];
      strings.spans.emplace_back(static_cast<uint32_t>(strings.text.size()), static_cast<uint32_t>(v.size()));
      strings.text += v;
      strings.text += '|';
    }
    strings.text.append(64, '\0');
  }
  const Fields& f = kind == 3 ? strings : Values(kind);
  std::vector<FieldSpan> spans;
  for (auto [at, n] : f.spans) spans.push_back(FieldSpan{at, at + n});
  const TypePtr types[] = {int64(), float64(), date32(), utf8()};
  const FieldSyntax syn = FieldSyntax::From(CsvOptions{}, Dialect{});
  for (auto _ : state) {
    int64_t nulled = 0;
    ConvertError err;
    TextColumnConverter b;
    // As the reader converts an inferred column: a leading zero would be refused.
    (void)b.Init(types[kind], default_memory_pool(), level, nullptr, /*no_leading_zeros=*/true);
    (void)b.Reserve(static_cast<int64_t>(spans.size()));
    // 256 rows per call, as the reader converts them.
    for (size_t r = 0; r < spans.size(); r += 256) {
      const int64_t n = static_cast<int64_t>(std::min<size_t>(256, spans.size() - r));
      (void)b.Append(reinterpret_cast<const uint8_t*>(f.text.data()), spans.data() + r, n, syn, false, &nulled, &err);
    }
    if (err.failure != ConvertFailure::kNone) state.SkipWithError("conversion failed");
    benchmark::DoNotOptimize(b.Finish());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(spans.size()));
  const char* names[] = {"int64", "float64", "date32", "string"};
  state.SetLabel(std::string(names[kind]) + " " + std::string(SimdLevelName(level)));
}

BENCHMARK(BM_ConvertColumn)->ArgsProduct({{0, 1, 2, 3}, {0, 2}});

}  // namespace
}  // namespace quiver::csv
