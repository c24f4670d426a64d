// The decompression floor of an ORC file: every compressed chunk of every stripe's data streams
// (all but the row index and bloom filters, which a full read skips) expanded with the library
// quiver's reader uses (libdeflate, the project's snappy decoder, liblzo2, LZ4, libzstd), on one thread, with one
// context and one output block reused, and nothing decoded. No reader of the file that expands
// its chunks can take less; scripts/bench-orc-read.sh sets it beside full reads.
//   orc_decompress_floor FILE   ->  {"chunks":N,"compressed":B,"expanded":B,"original":B,"seconds":S}
// (original: the bytes of chunks stored uncompressed, which a reader uses or copies as they are)
// The stripes' stored bytes are read (mapped) before the clock starts. An uncompressed file's
// floor is 0.
#include <libdeflate.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "quiver/compress/snappy_decompress_internal.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"

using namespace quiver;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: orc_decompress_floor FILE.orc\n");
    return 2;
  }
  orc::OrcReaderOptions options;
  options.thread_pool = nullptr;
  auto reader = orc::OrcFileReader::Open(argv[1], options);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
    return 1;
  }
  const orc::OrcFileReader& r = **reader;
  const uint32_t kind = r.postscript().compression;
  if (kind == orc::format::kNone) {
    std::printf("{\"chunks\":0,\"compressed\":0,\"expanded\":0,\"original\":0,\"seconds\":0}\n");
    return 0;
  }
  if (kind == orc::format::kBrotli) {
    std::fprintf(stderr, "%s: quiver does not read BROTLI\n", argv[1]);
    return 1;
  }
  const uint64_t block = r.postscript().compression_block_size.value_or(orc::format::kDefaultCompressionBlockSize);
  // Every data stream's stored bytes, in file order.
  std::vector<std::shared_ptr<Buffer>> streams;
  for (int s = 0; s < r.num_stripes(); ++s) {
    auto footer = r.ReadStripeFooter(s);
    if (!footer.ok()) {
      std::fprintf(stderr, "%s\n", footer.status().ToString().c_str());
      return 1;
    }
    for (const auto& st : footer->streams) {
      namespace sk = orc::format::stream_kind;
      if (st.kind == sk::kRowIndex || st.kind == sk::kBloomFilter || st.kind == sk::kBloomFilterUtf8) continue;
      auto b = r.StoredStream(s, *footer, st.column, st.kind);
      if (!b.ok()) {
        std::fprintf(stderr, "%s\n", b.status().ToString().c_str());
        return 1;
      }
      if (*b != nullptr && (*b)->size() > 0) streams.push_back(*b);
    }
  }
  std::vector<uint8_t> out(block);
  libdeflate_decompressor* inflate = libdeflate_alloc_decompressor();
  ZSTD_DCtx* zstd = ZSTD_createDCtx();
  if (kind == orc::format::kLzo && lzo_init() != LZO_E_OK) return 1;
  int64_t chunks = 0, compressed = 0, expanded = 0, original = 0;
  bool bad = false;
  const auto t0 = std::chrono::steady_clock::now();
  for (const auto& b : streams) {
    const uint8_t* p = b->data();
    const uint8_t* end = p + b->size();
    while (end - p >= 3) {
      const uint32_t h = p[0] | p[1] << 8 | p[2] << 16;
      const uint32_t len = h >> 1;
      const uint8_t* in = p + 3;
      if (len > static_cast<uint64_t>(end - in)) {
        bad = true;
        break;
      }
      p = in + len;
      if (h & 1) {  // an original chunk: nothing to expand
        original += len;
        continue;
      }
      size_t got = 0;
      switch (kind) {
        case orc::format::kZlib:
          bad |= libdeflate_deflate_decompress(inflate, in, len, out.data(), out.size(), &got) != LIBDEFLATE_SUCCESS;
          break;
        case orc::format::kSnappy: {
          uint32_t want = 0;
          size_t header = 0;
          bad |= !compress::SnappyUncompressedLength({in, len}, &want, &header) || want > out.size();
          if (!bad) bad |= !compress::SnappyDecompress({in, len}, {out.data(), want}).ok();
          got = want;
          break;
        }
        case orc::format::kLz4: {
          const int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out.data()),
                                            static_cast<int>(len), static_cast<int>(out.size()));
          bad |= n < 0;
          got = n < 0 ? 0 : static_cast<size_t>(n);
          break;
        }
        case orc::format::kLzo: {
          lzo_uint n = out.size();
          bad |= lzo1x_decompress_safe(in, len, out.data(), &n, nullptr) != LZO_E_OK;
          got = n;
          break;
        }
        case orc::format::kZstd:
          got = ZSTD_decompressDCtx(zstd, out.data(), out.size(), in, len);
          if (ZSTD_isError(got)) {
            bad = true;
            got = 0;
          }
          break;
      }
      ++chunks;
      compressed += len;
      expanded += static_cast<int64_t>(got);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  libdeflate_free_decompressor(inflate);
  ZSTD_freeDCtx(zstd);
  if (bad) {
    std::fprintf(stderr, "%s: a chunk did not decompress\n", argv[1]);
    return 1;
  }
  std::printf("{\"chunks\":%lld,\"compressed\":%lld,\"expanded\":%lld,\"original\":%lld,\"seconds\":%.4f}\n",
              static_cast<long long>(chunks), static_cast<long long>(compressed), static_cast<long long>(expanded),
              static_cast<long long>(original), seconds);
  return 0;
}
