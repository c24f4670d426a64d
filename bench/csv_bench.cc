// CSV reading speed: the structural pass alone per SIMD level (clean and quote-heavy
// lineitem), and the whole parse into typed columns at 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "quiver/csv/generate.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/splitter.h"
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

void BM_Split(benchmark::State& state) {
  const SimdLevel level = static_cast<SimdLevel>(state.range(0));
  const bool messy = state.range(1) != 0;
  bool supported = false;
  for (SimdLevel l : SupportedSimdLevels()) supported |= l == level;
  if (!supported) {
    state.SkipWithError("level not supported by this CPU");
    return;
  }
  const auto& buf = Lineitem(messy);
  const SplitKernels& k = GetSplitKernels(level);
  // Chunks of 8 MiB, as the reader uses them; the output array is reused.
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
  state.SetLabel(std::string(SimdLevelName(level)) + (messy ? " messy" : " clean"));
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

BENCHMARK(BM_Split)->ArgsProduct({{0, 1, 2}, {0, 1}})->Unit(benchmark::kMillisecond);
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
