// Whole-file Parquet decode of $QUIVER_PARQUET_BENCH_FILE (e.g. a lineitem file written by
// `peers.mjs duckdb csv2pq`), every row group and column, at 1 and 2 threads:
// - BM_ParquetReadFile: ReadRowGroups() of the whole file, every batch kept until the end (what
//   a DataFrame reader such as Polars' readParquet returns);
// - BM_ParquetStreamFile: ReadRowGroup() one group after another, each dropped before the next.
// The first argument is the number of threads that decode at once (1: the caller alone); the
// second (ReadFile only) 1 to lay chunk output in arenas as a whole-file read does by default
// (ParquetReaderOptions::output_arena_min_bytes), 0 for one allocation per buffer.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/core/memory_pool.h"
#include "quiver/core/thread_pool.h"
#include "quiver/parquet/reader/file_reader.h"

namespace {

const char* BenchFile(benchmark::State& state) {
  const char* path = std::getenv("QUIVER_PARQUET_BENCH_FILE");
  if (path == nullptr || *path == '\0') state.SkipWithError("set QUIVER_PARQUET_BENCH_FILE to a Parquet file");
  return path;
}

// The allocator set up as the quiver CLI does (ConfigureAllocatorForStreaming), unless
// QUIVER_BENCH_ALLOCATOR=default.
void ConfigureAllocator() {
  const char* a = std::getenv("QUIVER_BENCH_ALLOCATOR");
  if (a == nullptr || std::string_view(a) != "default") quiver::ConfigureAllocatorForStreaming();
}

int64_t BufferBytes(const quiver::RecordBatch& batch) {
  int64_t bytes = 0;
  for (const auto& c : batch.columns()) {
    for (const auto& b : c.data()->buffers) bytes += b ? b->size() : 0;
  }
  return bytes;
}

void BM_ParquetReadFile(benchmark::State& state) {
  const char* path = BenchFile(state);
  if (path == nullptr || *path == '\0') return;
  ConfigureAllocator();
  const int threads = static_cast<int>(state.range(0));
  std::unique_ptr<quiver::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<quiver::ThreadPool>(threads);
  quiver::parquet::ParquetReaderOptions opts;
  opts.thread_pool = pool.get();
  if (state.range(1) == 0) opts.output_arena_min_bytes = INT64_MAX;
  int64_t rows = 0, bytes = 0;
  for (auto _ : state) {
    auto reader = quiver::parquet::ParquetFileReader::Open(path, opts);
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    auto batches = (*reader)->ReadRowGroups();
    if (!batches.ok()) {
      state.SkipWithError(batches.status().ToString().c_str());
      return;
    }
    for (const auto& b : *batches) {
      rows += b->num_rows();
      bytes += BufferBytes(*b);
    }
  }
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.counters["decoded_MB"] =
      benchmark::Counter(static_cast<double>(bytes) / 1e6 / static_cast<double>(state.iterations()));
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ParquetReadFile)->Args({1, 1})->Args({2, 1})->Args({2, 0})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ParquetStreamFile(benchmark::State& state) {
  const char* path = BenchFile(state);
  if (path == nullptr || *path == '\0') return;
  ConfigureAllocator();
  const int threads = static_cast<int>(state.range(0));
  std::unique_ptr<quiver::ThreadPool> pool;
  if (threads > 1) pool = std::make_unique<quiver::ThreadPool>(threads);
  quiver::parquet::ParquetReaderOptions opts;
  opts.thread_pool = pool.get();
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
      bytes += BufferBytes(**batch);
    }
  }
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ParquetStreamFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
