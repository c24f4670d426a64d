// Codec throughput on 1 MiB of lineitem-shaped CSV text (a realistic page payload): compress
// and decompress in bytes of uncompressed data per second, with the compression ratio; and the
// project's snappy decoder and compressor against libsnappy's on lineitem's columns as Parquet
// pages hold them.
#include <benchmark/benchmark.h>
#include <snappy.h>

#include <charconv>
#include <cstring>
#include <string>
#include <vector>

#include "quiver/compress/codec.h"
#include "quiver/compress/snappy_compress_internal.h"
#include "quiver/compress/snappy_decompress_internal.h"
#include "quiver/csv/generate.h"
#include "quiver/io/output_stream.h"

namespace quiver::compress {
namespace {

const std::vector<uint8_t>& Page() {
  static const std::vector<uint8_t> page = [] {
    io::BufferOutputStream out;
    csv::LineitemOptions options;
    options.rows = 12000;
    (void)csv::GenerateLineitem(options, &out);
    auto buf = out.Finish();
    std::vector<uint8_t> v((*buf)->data(), (*buf)->data() + std::min<int64_t>((*buf)->size(), 1 << 20));
    return v;
  }();
  return page;
}

void BM_Compress(benchmark::State& state) {
  const auto codec = static_cast<Codec>(state.range(0));
  const auto& page = Page();
  BufferBuilder out;
  for (auto _ : state) {
    out.Clear();
    if (!Compress(codec, kDefaultCompressionLevel, page, &out).ok()) state.SkipWithError("compress failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(std::string(CodecName(codec)));
  state.counters["ratio"] = static_cast<double>(page.size()) / static_cast<double>(out.size());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(page.size()));
}

void BM_Decompress(benchmark::State& state) {
  const auto codec = static_cast<Codec>(state.range(0));
  const auto& page = Page();
  BufferBuilder compressed;
  (void)Compress(codec, kDefaultCompressionLevel, page, &compressed);
  std::vector<uint8_t> out(page.size());
  for (auto _ : state) {
    if (!Decompress(codec, {compressed.data(), static_cast<size_t>(compressed.size())}, out).ok()) {
      state.SkipWithError("decompress failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetLabel(std::string(CodecName(codec)));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(page.size()));
}

// 200,000 lineitem rows cut into columns, each as a PLAIN page would hold it (integers and
// decimals as 8-byte values, text as length-prefixed bytes), in 1 MiB pages compressed by libsnappy.
struct SnappyPages {
  std::vector<std::string> compressed;
  std::vector<size_t> sizes;
  int64_t bytes = 0;
};

const SnappyPages& LineitemColumnPages() {
  static const SnappyPages pages = [] {
    io::BufferOutputStream out;
    csv::LineitemOptions options;
    options.rows = 200000;
    options.header = false;
    (void)csv::GenerateLineitem(options, &out);
    auto buf = out.Finish();
    const std::string_view text(reinterpret_cast<const char*>((*buf)->data()), static_cast<size_t>((*buf)->size()));
    std::vector<std::string> columns(csv::kLineitemColumns);
    size_t col = 0;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != ',' && text[i] != '\n') continue;
      const std::string_view field = text.substr(start, i - start);
      std::string& c = columns[std::min<size_t>(col, columns.size() - 1)];
      int64_t v = 0;
      auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
      if (ec == std::errc() && end == field.data() + field.size()) {
        c.append(reinterpret_cast<const char*>(&v), 8);
      } else {
        const auto n = static_cast<uint32_t>(field.size());
        c.append(reinterpret_cast<const char*>(&n), 4);
        c.append(field);
      }
      col = text[i] == '\n' ? 0 : col + 1;
      start = i + 1;
    }
    SnappyPages p;
    for (const std::string& c : columns) {
      for (size_t at = 0; at < c.size(); at += 1 << 20) {
        const size_t n = std::min<size_t>(c.size() - at, 1 << 20);
        std::string z;
        snappy::Compress(c.data() + at, n, &z);
        p.compressed.push_back(std::move(z));
        p.sizes.push_back(n);
        p.bytes += static_cast<int64_t>(n);
      }
    }
    return p;
  }();
  return pages;
}

// Arg 0: libsnappy's RawUncompress; 1: the project's SnappyDecompress.
void BM_SnappyDecompressLineitemColumns(benchmark::State& state) {
  const SnappyPages& pages = LineitemColumnPages();
  std::vector<uint8_t> out(1 << 20);
  const bool ours = state.range(0) == 1;
  for (auto _ : state) {
    for (size_t i = 0; i < pages.compressed.size(); ++i) {
      const std::string& z = pages.compressed[i];
      bool ok;
      if (ours) {
        ok = SnappyDecompress({reinterpret_cast<const uint8_t*>(z.data()), z.size()}, {out.data(), pages.sizes[i]}).ok();
      } else {
        ok = snappy::RawUncompress(z.data(), z.size(), reinterpret_cast<char*>(out.data()));
      }
      if (!ok) state.SkipWithError("decompress failed");
      benchmark::DoNotOptimize(out.data());
    }
  }
  state.SetLabel(ours ? "quiver" : "libsnappy");
  int64_t compressed = 0;
  for (const auto& z : pages.compressed) compressed += static_cast<int64_t>(z.size());
  state.counters["ratio"] = static_cast<double>(pages.bytes) / static_cast<double>(compressed);
  state.SetBytesProcessed(state.iterations() * pages.bytes);
}
BENCHMARK(BM_SnappyDecompressLineitemColumns)->Arg(0)->Arg(1)->ArgName("ours");

// The same pages compressed. Arg 0: libsnappy's RawCompress; 1: the project's SnappyCompress
// (whose bytes equal libsnappy's; checked here on every page before timing).
void BM_SnappyCompressLineitemColumns(benchmark::State& state) {
  const SnappyPages& pages = LineitemColumnPages();
  std::vector<std::vector<uint8_t>> raw;
  for (size_t i = 0; i < pages.compressed.size(); ++i) {
    raw.emplace_back(pages.sizes[i]);
    const std::string& z = pages.compressed[i];
    (void)snappy::RawUncompress(z.data(), z.size(), reinterpret_cast<char*>(raw.back().data()));
  }
  std::vector<uint8_t> out(SnappyMaxCompressedLength(1 << 20));
  const bool ours = state.range(0) == 1;
  int64_t compressed = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    const size_t n = SnappyCompress(raw[i], out.data());
    if (n != pages.compressed[i].size() || std::memcmp(out.data(), pages.compressed[i].data(), n) != 0) {
      state.SkipWithError("SnappyCompress differs from libsnappy");
      return;
    }
    compressed += static_cast<int64_t>(n);
  }
  for (auto _ : state) {
    for (const auto& page : raw) {
      if (ours) {
        benchmark::DoNotOptimize(SnappyCompress(page, out.data()));
      } else {
        size_t n = 0;
        snappy::RawCompress(reinterpret_cast<const char*>(page.data()), page.size(), reinterpret_cast<char*>(out.data()), &n);
        benchmark::DoNotOptimize(n);
      }
      benchmark::ClobberMemory();
    }
  }
  state.SetLabel(ours ? "quiver" : "libsnappy");
  state.counters["ratio"] = static_cast<double>(pages.bytes) / static_cast<double>(compressed);
  state.SetBytesProcessed(state.iterations() * pages.bytes);
}
BENCHMARK(BM_SnappyCompressLineitemColumns)->Arg(0)->Arg(1)->ArgName("ours");

// UNCOMPRESSED, SNAPPY, GZIP, BROTLI, LZ4 (Hadoop), ZSTD, LZ4_RAW.
BENCHMARK(BM_Compress)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7)->ArgName("codec");
BENCHMARK(BM_Decompress)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7)->ArgName("codec");

}  // namespace
}  // namespace quiver::compress
