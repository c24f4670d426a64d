// Parquet decoders in GB/s of decoded output (bytes_per_second): PLAIN, RLE/bit-packed and raw
// bit unpacking per SIMD level and width, dictionary gathers, DELTA_BINARY_PACKED,
// BYTE_STREAM_SPLIT; and the matching encoders where the writer's speed depends on them.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/encoding/bit_unpack_internal.h"
#include "quiver/parquet/encoding/byte_stream_split_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/page_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

namespace quiver::parquet::encoding {
namespace {

constexpr int64_t kValues = 1 << 20;  // one large page's worth, decoded in reader-sized batches
constexpr int64_t kBatch = 4096;

bool LevelOrSkip(benchmark::State& state, SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) {
    state.SkipWithError("SIMD level not supported on this CPU");
    return false;
  }
  state.SetLabel(std::string(SimdLevelName(level)));
  return true;
}

template <typename T>
void BM_PlainDecode(benchmark::State& state) {
  std::vector<T> values(kValues);
  std::mt19937_64 rng(1);
  for (auto& v : values) v = static_cast<T>(rng());
  BufferBuilder page;
  (void)PlainEncodeFixed(values.data(), kValues, sizeof(T), &page);
  std::vector<T> out(kValues);
  for (auto _ : state) {
    PlainFixedDecoder dec;
    (void)dec.Reset(page.data(), page.size(), sizeof(T));
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (!dec.Decode(out.data() + i, kBatch).ok()) state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_PlainDecode<int32_t>)->Name("PlainDecode/int32");
BENCHMARK(BM_PlainDecode<int64_t>)->Name("PlainDecode/int64");
BENCHMARK(BM_PlainDecode<double>)->Name("PlainDecode/double");

// Raw kernel: args = level, width.
void BM_Unpack32(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  const int w = static_cast<int>(state.range(1));
  if (!LevelOrSkip(state, level)) return;
  std::vector<uint64_t> values(kValues);
  std::mt19937_64 rng(2);
  for (auto& v : values) v = rng() & ((1ull << w) - 1);
  std::vector<uint8_t> packed(bit_util::BytesForBits(kValues * w));
  bit_util::PackBits(values.data(), w, kValues, packed.data());
  std::vector<uint32_t> out(kValues);
  const BitUnpackKernels& k = BitUnpackKernelsFor(level);
  for (auto _ : state) {
    k.unpack32(packed.data(), static_cast<int64_t>(packed.size()), w, kValues, out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 4);
}
BENCHMARK(BM_Unpack32)->ArgsProduct({{0, 1, 2}, {1, 3, 8, 12, 17, 24, 31}})->ArgNames({"level", "width"});

// RLE/bit-packed hybrid data as a writer makes it from random (mostly bit-packed) values, or
// from runs (mostly RLE, like definition levels of sparse nulls): args = level, width, runs.
void BM_RleDecode(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  const int w = static_cast<int>(state.range(1));
  const bool runs = state.range(2) != 0;
  if (!LevelOrSkip(state, level)) return;
  std::vector<uint32_t> values(kValues);
  std::mt19937 rng(3);
  uint32_t cur = 0;
  for (auto& v : values) {
    if (!runs || rng() % 64 == 0) cur = rng() & ((1u << w) - 1);
    v = cur;
  }
  RleBitPackedEncoder enc(w);
  (void)enc.Put(values.data(), kValues);
  BufferBuilder page;
  (void)enc.Finish(&page);
  std::vector<uint32_t> out(kBatch);
  RleBitPackedDecoder dec(level);
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size(), w);
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (dec.GetBatch(out.data(), kBatch) != kBatch) state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 4);
}
BENCHMARK(BM_RleDecode)
    ->ArgsProduct({{0, 1, 2}, {1, 8, 17}, {0, 1}})
    ->ArgNames({"level", "width", "runs"});

BufferBuilder IndexPage(int64_t dict_size, uint32_t seed) {
  std::vector<int32_t> idx(kValues);
  std::mt19937 rng(seed);
  for (auto& v : idx) v = static_cast<int32_t>(rng() % dict_size);
  BufferBuilder page;
  (void)EncodeDictionaryIndices(idx.data(), kValues, DictionaryIndexBitWidth(dict_size), &page);
  return page;
}

void BM_DictionaryInt64(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!LevelOrSkip(state, level)) return;
  const int64_t dict_size = 1000;
  std::vector<int64_t> dict(dict_size);
  for (int64_t i = 0; i < dict_size; ++i) dict[i] = i * 7919;
  BufferBuilder page = IndexPage(dict_size, 4);
  std::vector<int64_t> out(kValues);
  DictionaryDecoder dec(level);
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size(), dict_size);
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (!dec.Decode(dict.data(), out.data() + i, kBatch).ok()) state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}
BENCHMARK(BM_DictionaryInt64)->DenseRange(0, 2)->ArgName("level");

// Strings of 4..20 bytes (avg 12) from a 1000-entry dictionary; output = offsets + bytes.
void BM_DictionaryStrings(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!LevelOrSkip(state, level)) return;
  const int64_t dict_size = 1000;
  std::mt19937 rng(5);
  std::vector<int32_t> offsets{0};
  std::string data;
  for (int64_t i = 0; i < dict_size; ++i) {
    const int len = 4 + static_cast<int>(rng() % 17);
    for (int c = 0; c < len; ++c) data.push_back(static_cast<char>('a' + rng() % 26));
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  BufferBuilder page = IndexPage(dict_size, 6);
  BufferBuilder out_offsets, out_data;
  DictionaryDecoder dec(level);
  int64_t bytes = 0;
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size(), dict_size);
    out_offsets.Clear();
    out_data.Clear();
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (!dec.DecodeByteArrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), kBatch, &out_offsets,
                                &out_data)
               .ok()) {
        state.SkipWithError("decode failed");
      }
    }
    bytes = out_offsets.size() + out_data.size();
    benchmark::DoNotOptimize(out_data.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}
BENCHMARK(BM_DictionaryStrings)->DenseRange(0, 2)->ArgName("level");

// Timestamps-like: increasing with small random steps (narrow miniblocks), args = level.
template <typename T>
void BM_DeltaBinaryPacked(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!LevelOrSkip(state, level)) return;
  std::vector<T> values(kValues);
  std::mt19937 rng(7);
  T cur = 1000;
  for (auto& v : values) {
    cur += static_cast<T>(rng() % 1000);
    v = cur;
  }
  BufferBuilder page;
  (void)DeltaBinaryPackedEncode(values.data(), kValues, &page);
  std::vector<T> out(kValues);
  DeltaBinaryPackedDecoder<T> dec(level);
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size());
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (!dec.Decode(out.data() + i, kBatch).ok()) state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * sizeof(T));
}
BENCHMARK(BM_DeltaBinaryPacked<int32_t>)->Name("DeltaBinaryPacked/int32")->DenseRange(0, 2)->ArgName("level");
BENCHMARK(BM_DeltaBinaryPacked<int64_t>)->Name("DeltaBinaryPacked/int64")->DenseRange(0, 2)->ArgName("level");

void BM_DeltaLengthByteArray(benchmark::State& state) {
  std::mt19937 rng(8);
  std::vector<int32_t> offsets{0};
  std::string data;
  for (int64_t i = 0; i < kValues / 4; ++i) {
    const int len = 4 + static_cast<int>(rng() % 17);
    for (int c = 0; c < len; ++c) data.push_back(static_cast<char>('a' + rng() % 26));
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  const int64_t n = kValues / 4;
  DeltaLengthByteArrayEncoder enc;
  (void)enc.Put(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), n);
  BufferBuilder page;
  (void)enc.Finish(&page);
  DeltaLengthByteArrayDecoder dec;
  BufferBuilder out_offsets, out_data;
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size());
    out_offsets.Clear();
    out_data.Clear();
    for (int64_t i = 0; i < n; i += kBatch) (void)dec.Decode(std::min(kBatch, n - i), &out_offsets, &out_data);
    benchmark::DoNotOptimize(out_data.data());
  }
  state.SetBytesProcessed(state.iterations() * (n * 4 + static_cast<int64_t>(data.size())));
}
BENCHMARK(BM_DeltaLengthByteArray);

void BM_ByteStreamSplitDouble(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!LevelOrSkip(state, level)) return;
  std::vector<double> values(kValues);
  std::mt19937_64 rng(9);
  for (auto& v : values) v = static_cast<double>(rng() % 100000) / 100.0;
  BufferBuilder page;
  (void)ByteStreamSplitEncode(values.data(), kValues, 8, &page, level);
  std::vector<double> out(kValues);
  ByteStreamSplitDecoder dec(level);
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size(), 8);
    for (int64_t i = 0; i < kValues; i += kBatch) {
      if (!dec.Decode(out.data() + i, kBatch).ok()) state.SkipWithError("decode failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}
BENCHMARK(BM_ByteStreamSplitDouble)->DenseRange(0, 2)->ArgName("level");

void BM_ByteStreamSplitFloat(benchmark::State& state) {
  const auto level = static_cast<SimdLevel>(state.range(0));
  if (!LevelOrSkip(state, level)) return;
  std::vector<float> values(kValues);
  std::mt19937 rng(10);
  for (auto& v : values) v = static_cast<float>(rng() % 100000) / 100.0f;
  BufferBuilder page;
  (void)ByteStreamSplitEncode(values.data(), kValues, 4, &page, level);
  std::vector<float> out(kValues);
  ByteStreamSplitDecoder dec(level);
  for (auto _ : state) {
    (void)dec.Reset(page.data(), page.size(), 4);
    for (int64_t i = 0; i < kValues; i += kBatch) (void)dec.Decode(out.data() + i, kBatch);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 4);
}
BENCHMARK(BM_ByteStreamSplitFloat)->DenseRange(0, 2)->ArgName("level");

// ---- encoders (bytes of input per second) ----

void BM_RleEncodeLevels(benchmark::State& state) {
  // Definition levels with ~5% nulls at random: the writer's common case.
  std::vector<uint32_t> values(kValues);
  std::mt19937 rng(11);
  for (auto& v : values) v = rng() % 20 == 0 ? 0 : 1;
  RleBitPackedEncoder enc(1);
  BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    (void)enc.Put(values.data(), kValues);
    (void)enc.Finish(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 4);
}
BENCHMARK(BM_RleEncodeLevels);

void BM_DictionaryEncodeInt64(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(12);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 5000);
  BufferBuilder out;
  for (auto _ : state) {
    DictionaryEncoder<int64_t> enc;
    int64_t consumed;
    (void)enc.Put(values.data(), kValues, &consumed);
    out.Clear();
    (void)enc.FlushIndices(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryEncodeInt64);

// A data page's index section alone (what FlushIndices writes), for dictionaries of lineitem's
// sizes: 3 entries (l_returnflag), 7 (l_shipmode), 50 (l_quantity) and 30000 (l_orderkey,
// whose values come in runs of 1 to 7 as in the file).
void BM_EncodeDictionaryIndices(benchmark::State& state) {
  const int64_t dict = state.range(0);
  const auto level = static_cast<SimdLevel>(state.range(1));
  if (!LevelOrSkip(state, level)) return;
  std::vector<int32_t> idx(kValues);
  std::mt19937 rng(4);
  if (dict == 30000) {
    int32_t v = 0;
    for (size_t i = 0; i < idx.size();) {
      const size_t run = 1 + rng() % 7;
      for (size_t k = 0; k < run && i < idx.size(); ++k) idx[i++] = v;
      v = (v + 1) % 30000;
    }
  } else {
    for (auto& v : idx) v = static_cast<int32_t>(rng() % static_cast<uint32_t>(dict));
  }
  BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    (void)EncodeDictionaryIndices(idx.data(), kValues, DictionaryIndexBitWidth(dict), &out, default_memory_pool(),
                                  level);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_EncodeDictionaryIndices)->ArgsProduct({{3, 7, 50, 30000}, {0, 1, 2}})->ArgNames({"dict", "level"});

// Wider dictionaries (lineitem's keys: ~100K distinct per row group) and short strings.
void BM_DictionaryEncodeInt64Wide(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(14);
  for (auto& v : values) v = static_cast<int64_t>(1 + rng() % 100000);
  for (auto _ : state) {
    DictionaryEncoder<int64_t> enc;
    int64_t consumed;
    (void)enc.Put(values.data(), kValues, &consumed);
    benchmark::DoNotOptimize(enc.dict_size());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryEncodeInt64Wide);

// Dates (2,526 distinct, as lineitem's): a small dictionary that stays in L1.
void BM_DictionaryEncodeInt32(benchmark::State& state) {
  std::vector<int32_t> values(kValues);
  std::mt19937 rng(16);
  for (auto& v : values) v = 8036 + static_cast<int32_t>(rng() % 2526);
  for (auto _ : state) {
    DictionaryEncoder<int32_t> enc;
    int64_t consumed;
    (void)enc.Put(values.data(), kValues, &consumed);
    benchmark::DoNotOptimize(enc.dict_size());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryEncodeInt32);

// One lineitem column chunk (122,880 values) as the writer puts it: the table reserved from the
// column's last chunk, the values in slices of 4,096, one page of indices flushed. Shapes:
// 0 l_suppkey (10,000 random keys: a table past L1), 1 l_orderkey (ascending keys in runs of
// 1 to 7, about 30,000 per chunk), 2 l_linenumber (1..7).
void BM_DictionaryEncodeChunkInt64(benchmark::State& state) {
  constexpr int64_t kChunk = 122880;
  const int shape = static_cast<int>(state.range(0));
  std::vector<int64_t> values(kChunk);
  std::mt19937_64 rng(21);
  int64_t key = 1;
  for (int64_t i = 0; i < kChunk;) {
    if (shape == 1) {
      const int64_t run = 1 + static_cast<int64_t>(rng() % 7);
      for (int64_t k = 0; k < run && i < kChunk; ++k) values[i++] = key;
      key += 1 + static_cast<int64_t>(rng() % 2);
    } else {
      values[i++] = 1 + static_cast<int64_t>(rng() % (shape == 0 ? 10000 : 7));
    }
  }
  int64_t distinct = 0;
  {
    DictionaryEncoder<int64_t> probe;
    int64_t consumed;
    (void)probe.Put(values.data(), kChunk, &consumed);
    distinct = probe.dict_size();
  }
  BufferBuilder out;
  for (auto _ : state) {
    DictionaryEncoder<int64_t> enc;
    enc.Reserve(distinct + distinct / 8);
    enc.ReserveIndices(kChunk);
    for (int64_t i = 0; i < kChunk; i += 4096) {
      int64_t consumed;
      (void)enc.Put(values.data() + i, std::min<int64_t>(4096, kChunk - i), &consumed);
    }
    out.Clear();
    (void)enc.FlushIndices(&out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kChunk);
}
BENCHMARK(BM_DictionaryEncodeChunkInt64)->DenseRange(0, 2)->ArgName("shape");

// One chunk of lineitem's l_quantity (arg 50: 1.0 to 50.0) or l_discount (11: 0.00 to 0.10), put
// as the writer does (slices of 4,096 into an encoder restarted per chunk): a small hash table.
void BM_DictionaryEncodeChunkDouble(benchmark::State& state) {
  constexpr int64_t kChunk = 122880;
  const auto distinct = static_cast<uint32_t>(state.range(0));
  std::vector<double> values(kChunk);
  std::mt19937 rng(27);
  for (auto& v : values) {
    const uint32_t k = rng() % distinct;
    v = distinct == 50 ? 1.0 + k : k / 100.0;
  }
  DictionaryEncoder<double> enc;
  for (auto _ : state) {
    enc.Restart(distinct);
    for (int64_t i = 0; i < kChunk; i += 4096) {
      int64_t consumed;
      (void)enc.Put(values.data() + i, std::min<int64_t>(4096, kChunk - i), &consumed);
    }
    benchmark::DoNotOptimize(enc.indices().data());
  }
  state.SetItemsProcessed(state.iterations() * kChunk);
}
BENCHMARK(BM_DictionaryEncodeChunkDouble)->Arg(50)->Arg(11);

// Strings with `distinct` values: 11 (lineitem's flags and modes), 20,000, and 1M (all
// distinct, like l_comment); no size limit, so every value is hashed and probed.
void BM_DictionaryEncodeStrings(benchmark::State& state) {
  const char* words[] = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN", "AIR", "MAIL", "SHIP",
                         "TRUCK", "REG AIR", "FOB", "RAIL"};
  const int distinct = static_cast<int>(state.range(0));
  std::vector<int32_t> offsets{0};
  std::string data;
  std::mt19937 rng(15);
  for (int64_t i = 0; i < kValues; ++i) {
    const uint32_t k = distinct >= kValues ? static_cast<uint32_t>(i) : rng() % static_cast<uint32_t>(distinct);
    data += words[k % 11];
    if (distinct > 11) data += " " + std::to_string(k);
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  for (auto _ : state) {
    ByteArrayDictionaryEncoder enc(int64_t{1} << 30);
    int64_t consumed;
    (void)enc.Put(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), kValues, &consumed);
    benchmark::DoNotOptimize(enc.dict_size());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryEncodeStrings)->Arg(11)->Arg(20000)->Arg(kValues);

// One of lineitem's low-cardinality string columns, put in the writer's slices of 4,096 values
// into one encoder restarted per chunk of 1M values: l_returnflag (0), l_linestatus (1),
// l_shipinstruct (2: two of its four values are 16 and 17 bytes long), l_shipmode (3); values
// drawn uniformly, as dbgen does.
void BM_DictionaryEncodeLineitemFlags(benchmark::State& state) {
  static const std::vector<std::vector<std::string>> columns = {
      {"A", "N", "R"},
      {"F", "O"},
      {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"},
      {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}};
  const std::vector<std::string>& words = columns[static_cast<size_t>(state.range(0))];
  std::vector<int32_t> offsets{0};
  std::string data;
  std::mt19937 rng(23);
  for (int64_t i = 0; i < kValues; ++i) {
    data += words[rng() % words.size()];
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  constexpr int64_t kSlice = 4096;
  // One encoder restarted per chunk, as the writer keeps a column's (its buffers stay faulted in).
  ByteArrayDictionaryEncoder enc;
  for (auto _ : state) {
    enc.Restart(words.size(), 0);
    for (int64_t i = 0; i < kValues; i += kSlice) {
      int64_t consumed;
      (void)enc.Put(offsets.data() + i, reinterpret_cast<const uint8_t*>(data.data()), kSlice, &consumed);
    }
    benchmark::DoNotOptimize(enc.indices().data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_DictionaryEncodeLineitemFlags)->DenseRange(0, 3)->ArgName("column");

// PLAIN BYTE_ARRAY pages of l_comment-like text (10..43 bytes): each value behind its length.
void BM_PlainEncodeByteArrays(benchmark::State& state) {
  std::vector<int32_t> offsets{0};
  std::string data;
  std::mt19937 rng(17);
  for (int64_t i = 0; i < kValues; ++i) {
    const int len = 10 + static_cast<int>(rng() % 34);
    for (int k = 0; k < len; ++k) data.push_back(static_cast<char>('a' + rng() % 26));
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
  BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    (void)PlainEncodeByteArrays(offsets.data(), reinterpret_cast<const uint8_t*>(data.data()), kValues, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kValues);
}
BENCHMARK(BM_PlainEncodeByteArrays);

// A 1 MiB page of PLAIN int64 keys appended to a chunk under snappy: arg 1 compresses straight
// into the chunk (room reserved), arg 0 through the scratch buffer and a copy (the chunk full).
void BM_AppendCompressedPage(benchmark::State& state) {
  std::vector<int64_t> values(1 << 17);
  std::mt19937 rng(19);
  for (auto& v : values) v = rng() % 200000;
  const std::span<const uint8_t> payload(reinterpret_cast<const uint8_t*>(values.data()), values.size() * 8);
  auto header = [](int64_t size, BufferBuilder* out) { return out->AppendValue(size); };
  const bool direct = state.range(0) == 1;
  BufferBuilder scratch;
  for (auto _ : state) {
    BufferBuilder chunk;
    (void)chunk.AppendValue<int64_t>(0);  // not empty: a full chunk is not grown
    if (direct) (void)chunk.Reserve(int64_t{2} << 20);
    (void)AppendCompressedPage(compress::Codec::kSnappy, compress::kDefaultCompressionLevel, {}, payload,
                               static_cast<int64_t>(payload.size()), header, &chunk, &scratch);
    benchmark::DoNotOptimize(chunk.data());
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(payload.size()));
}
BENCHMARK(BM_AppendCompressedPage)->Arg(0)->Arg(1)->ArgName("direct");

void BM_DeltaEncodeInt64(benchmark::State& state) {
  std::vector<int64_t> values(kValues);
  std::mt19937 rng(13);
  int64_t cur = 0;
  for (auto& v : values) v = cur += rng() % 1000;
  BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    (void)DeltaBinaryPackedEncode(values.data(), kValues, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}
BENCHMARK(BM_DeltaEncodeInt64);

}  // namespace
}  // namespace quiver::parquet::encoding
