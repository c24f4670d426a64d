// Whole-file Parquet decode: every row group and column of $QUIVER_PARQUET_BENCH_FILE (e.g. a
// lineitem file written by `peers.mjs duckdb csv2pq`) at 1 and 2 threads.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

#include "quiver/core/thread_pool.h"
#include "quiver/parquet/reader/file_reader.h"

namespace {

void BM_ParquetReadFile(benchmark::State& state) {
  const char* path = std::getenv("QUIVER_PARQUET_BENCH_FILE");
  if (path == nullptr || *path == '\0') {
    state.SkipWithError("set QUIVER_PARQUET_BENCH_FILE to a Parquet file");
    return;
  }
  quiver::ThreadPool pool(static_cast<int>(state.range(0)));
  quiver::parquet::ParquetReaderOptions opts;
  opts.thread_pool = &pool;
  int64_t rows = 0, bytes = 0;
  for (auto _ : state) {
    auto reader = quiver::parquet::ParquetFileReader::Open(path, opts);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
      auto batch = (*reader)->ReadRowGroup(g);
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      rows += (*batch)->num_rows();
      for (const auto& c : (*batch)->columns()) {
        for (const auto& b : c.data()->buffers) bytes += b ? b->size() : 0;
      }
    }
  }
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ParquetReadFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
