// Split-block bloom filters in values per second: inserting one chunk's values (122,880, the
// default row group) of 8-byte integers and of short strings into a filter sized for them at
// 5%, as the writer does without a dictionary, and probing.
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "quiver/parquet/bloom_filter.h"

namespace quiver::parquet {
namespace {

constexpr int64_t kValues = 122880;

void BM_BloomInsertInt64(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(1);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  auto f = BloomFilter::Make(BloomFilter::OptimalBytes(kValues, 0.05));
  for (auto _ : state) {
    f->InsertFixed(reinterpret_cast<const uint8_t*>(values.data()), kValues, 8);
    benchmark::DoNotOptimize(f->bitset().data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_BloomInsertInt64);

void BM_BloomInsertStrings(benchmark::State& state) {
  // lineitem-comment-like strings of 10..43 bytes.
  std::vector<int32_t> offsets{0};
  std::string data;
  std::mt19937_64 rng(2);
  for (int64_t i = 0; i < kValues; ++i) {
    const int len = 10 + static_cast<int>(rng() % 34);
    for (int k = 0; k < len; ++k) data.push_back(static_cast<char>('a' + rng() % 26));
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  auto f = BloomFilter::Make(BloomFilter::OptimalBytes(kValues, 0.05));
  for (auto _ : state) {
    f->InsertByteArrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), kValues);
    benchmark::DoNotOptimize(f->bitset().data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_BloomInsertStrings);

void BM_BloomProbeInt64(benchmark::State& state) {
  auto f = BloomFilter::Make(BloomFilter::OptimalBytes(kValues, 0.05));
  for (int64_t i = 0; i < kValues; ++i) f->InsertHash(BloomFilter::HashValue(i * 2));
  for (auto _ : state) {
    int64_t hits = 0;
    for (int64_t i = 0; i < kValues; ++i) hits += f->MightContainHash(BloomFilter::HashValue(i));
    benchmark::DoNotOptimize(hits);
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_BloomProbeInt64);

}  // namespace
}  // namespace quiver::parquet
