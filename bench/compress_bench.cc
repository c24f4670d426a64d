// Codec throughput on 1 MiB of lineitem-shaped CSV text (a realistic page payload): compress
// and decompress in bytes of uncompressed data per second, with the compression ratio.
#include <benchmark/benchmark.h>

#include <vector>

#include "quiver/compress/codec.h"
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

// UNCOMPRESSED, SNAPPY, GZIP, BROTLI, LZ4 (Hadoop), ZSTD, LZ4_RAW.
BENCHMARK(BM_Compress)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7)->ArgName("codec");
BENCHMARK(BM_Decompress)->Arg(0)->Arg(1)->Arg(2)->Arg(4)->Arg(5)->Arg(6)->Arg(7)->ArgName("codec");

}  // namespace
}  // namespace quiver::compress
