// Whole-file Parquet decode of $QUIVER_PARQUET_BENCH_FILE (e.g. a lineitem file written by
// `peers.mjs duckdb csv2pq`), every row group and column, at 1 and 2 threads:
// - BM_ParquetReadFile: ReadRowGroups() of the whole file, every batch kept until the end (what
//   a DataFrame reader such as Polars' readParquet returns);
// - BM_ParquetStreamFile: ReadRowGroup() one group after another, each dropped before the next.
// - BM_ParquetDecodeColumn/K/N: one column chunk of 1,000,000 values, uncompressed, 1 MiB pages,
//   decoded on one thread (the per-decoder figures, in bytes of output per second): K 0..5 is
//   PLAIN int32, int64, double, dictionary strings (1,000 distinct, 8-24 bytes), DELTA_BINARY_PACKED
//   int64, BYTE_STREAM_SPLIT double; N 0 a REQUIRED column, 1 OPTIONAL with every 10th value null.
// The first argument is the number of threads that decode at once (1: the caller alone); the
// second (ReadFile only) 1 to lay chunk output in arenas as a whole-file read does by default
// (ParquetReaderOptions::output_arena_min_bytes), 0 for one allocation per buffer.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"

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
      bytes += b->buffer_bytes();
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
      bytes += (*batch)->buffer_bytes();
    }
  }
  state.counters["rows"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsRate);
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_ParquetStreamFile)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// One column of `kind` (see the header) written to memory, then read back whole per iteration.
void BM_ParquetDecodeColumn(benchmark::State& state) {
  ConfigureAllocator();
  const int kind = static_cast<int>(state.range(0));
  const bool nullable = state.range(1) != 0;
  constexpr int64_t kRows = 1000000;
  quiver::TypePtr type = kind == 0 ? quiver::int32()
                         : kind == 1 || kind == 4 ? quiver::int64()
                         : kind == 3 ? quiver::utf8()
                                     : quiver::float64();
  auto schema = std::make_shared<const quiver::Schema>(
      std::vector<quiver::Field>{quiver::field("c", type, nullable)});
  quiver::NumericBuilder<int32_t> i32(quiver::int32());
  quiver::NumericBuilder<int64_t> i64(quiver::int64());
  quiver::NumericBuilder<double> f64(quiver::float64());
  quiver::BinaryBuilder str(quiver::utf8());
  uint64_t x = 88172645463325252ULL;
  for (int64_t i = 0; i < kRows; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    quiver::Status st;
    if (nullable && i % 10 == 3) {
      st = kind == 0 ? i32.AppendNull() : kind == 1 || kind == 4 ? i64.AppendNull() : kind == 3 ? str.AppendNull() : f64.AppendNull();
    } else if (kind == 0) {
      st = i32.Append(static_cast<int32_t>(x));
    } else if (kind == 1) {
      st = i64.Append(static_cast<int64_t>(x));
    } else if (kind == 4) {
      st = i64.Append(i * 1000 + static_cast<int64_t>(x % 500));  // slowly rising, as keys and times are
    } else if (kind == 3) {
      const uint64_t v = x % 1000;
      st = str.Append("value-" + std::string(v % 17, 'x') + std::to_string(v));
    } else {
      st = f64.Append(static_cast<double>(x % 1000000) / 100.0);
    }
    if (!st.ok()) return state.SkipWithError(st.ToString().c_str());
  }
  auto array = kind == 0 ? i32.Finish() : kind == 1 || kind == 4 ? i64.Finish() : kind == 3 ? str.Finish() : f64.Finish();
  if (!array.ok()) return state.SkipWithError(array.status().ToString().c_str());
  auto batch = std::make_shared<quiver::RecordBatch>(schema, kRows, std::vector<quiver::Array>{*array});
  quiver::io::BufferOutputStream out;
  quiver::parquet::ParquetWriterOptions wopts;
  wopts.codec = quiver::compress::Codec::kUncompressed;
  wopts.row_group_rows = kRows;
  wopts.dictionary = kind == 3;
  if (kind == 4) wopts.column_encodings = {{"c", quiver::parquet::Encoding::DELTA_BINARY_PACKED}};
  if (kind == 5) wopts.column_encodings = {{"c", quiver::parquet::Encoding::BYTE_STREAM_SPLIT}};
  auto w = quiver::parquet::ParquetFileWriter::Open(&out, schema, wopts);
  if (!w.ok()) return state.SkipWithError(w.status().ToString().c_str());
  if (auto st = (*w)->Write(batch); !st.ok()) return state.SkipWithError(st.ToString().c_str());
  if (auto st = (*w)->Close(); !st.ok()) return state.SkipWithError(st.ToString().c_str());
  auto bytes = out.Finish();
  if (!bytes.ok()) return state.SkipWithError(bytes.status().ToString().c_str());
  quiver::parquet::ParquetReaderOptions opts;
  opts.thread_pool = nullptr;
  auto reader = quiver::parquet::ParquetFileReader::Open(quiver::io::MemorySource(*bytes), opts);
  if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
  int64_t decoded = 0;
  for (auto _ : state) {
    auto b = (*reader)->ReadRowGroup(0);
    if (!b.ok()) return state.SkipWithError(b.status().ToString().c_str());
    decoded += (*b)->buffer_bytes();
    benchmark::DoNotOptimize(b);
  }
  state.SetBytesProcessed(decoded);
}
BENCHMARK(BM_ParquetDecodeColumn)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5}, {0, 1}})
    ->ArgNames({"kind", "nullable"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
