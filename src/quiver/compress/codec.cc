#include "quiver/compress/codec.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <libdeflate.h>
#include <lz4.h>
#include <lz4frame.h>
#include <lz4hc.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <memory>
#include <string>

#include "quiver/compress/snappy_compress_internal.h"
#include "quiver/compress/snappy_decompress_internal.h"

namespace quiver::compress {

namespace {

std::string SizeMismatch(std::string_view codec, int64_t got, int64_t expected) {
  return std::string(codec) + " data decompressed to " + std::to_string(got) + " bytes, page header says " +
         std::to_string(expected);
}

// Contexts cost tens to hundreds of KiB to set up; one per thread, kept for the thread's life.
struct ThreadContexts {
  ZSTD_DCtx* zstd_d = nullptr;
  ZSTD_CCtx* zstd_c = nullptr;
  libdeflate_decompressor* deflate_d = nullptr;
  std::array<libdeflate_compressor*, 13> deflate_c{};
  LZ4F_dctx* lz4f_d = nullptr;
  std::unique_ptr<char[]> lz4_state;
  std::unique_ptr<char[]> lz4hc_state;

  ~ThreadContexts() {
    ZSTD_freeDCtx(zstd_d);
    ZSTD_freeCCtx(zstd_c);
    if (deflate_d != nullptr) libdeflate_free_decompressor(deflate_d);
    for (auto* c : deflate_c) {
      if (c != nullptr) libdeflate_free_compressor(c);
    }
    if (lz4f_d != nullptr) LZ4F_freeDecompressionContext(lz4f_d);
  }
};

ThreadContexts& Contexts() {
  thread_local ThreadContexts ctx;
  return ctx;
}

uint32_t LoadBE32(const uint8_t* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
void StoreBE32(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 24);
  p[1] = static_cast<uint8_t>(v >> 16);
  p[2] = static_cast<uint8_t>(v >> 8);
  p[3] = static_cast<uint8_t>(v);
}

// ---- decompression ----

// Through the project's own decoder (snappy_decompress_internal.h says why).
Status DecompressSnappy(std::span<const uint8_t> in, std::span<uint8_t> out) {
  uint32_t len = 0;
  size_t header = 0;
  if (!SnappyUncompressedLength(in, &len, &header)) {
    return Status::Corrupt("SNAPPY data has a malformed length header");
  }
  if (len != out.size()) return Status::Corrupt(SizeMismatch("SNAPPY", static_cast<int64_t>(len), out.size()));
  return SnappyDecompress(in, out);
}

Status DecompressZstd(std::span<const uint8_t> in, std::span<uint8_t> out) {
  ThreadContexts& ctx = Contexts();
  if (ctx.zstd_d == nullptr) {
    ctx.zstd_d = ZSTD_createDCtx();
    if (ctx.zstd_d == nullptr) return Status::OutOfMemory("cannot create a ZSTD decompression context");
  }
  size_t n = ZSTD_decompressDCtx(ctx.zstd_d, out.data(), out.size(), in.data(), in.size());
  if (ZSTD_isError(n)) {
    if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall) {
      return Status::Corrupt("ZSTD data decompresses to more than the " + std::to_string(out.size()) +
                             " bytes the page header says");
    }
    return Status::Corrupt(std::string("ZSTD data is malformed: ") + ZSTD_getErrorName(n));
  }
  if (n != out.size()) return Status::Corrupt(SizeMismatch("ZSTD", static_cast<int64_t>(n), out.size()));
  return Status::OK();
}

libdeflate_decompressor* DeflateDecompressor() {
  ThreadContexts& ctx = Contexts();
  if (ctx.deflate_d == nullptr) ctx.deflate_d = libdeflate_alloc_decompressor();
  return ctx.deflate_d;
}

// GZIP pages may hold several gzip members back to back (concatenated_gzip_members.parquet);
// a zlib-wrapped stream is accepted too, as zlib's auto-detecting inflate does for other readers.
Status DecompressGzip(std::span<const uint8_t> in, std::span<uint8_t> out) {
  libdeflate_decompressor* d = DeflateDecompressor();
  if (d == nullptr) return Status::OutOfMemory("cannot create a deflate decompressor");
  size_t in_pos = 0;
  size_t out_pos = 0;
  if (in.size() >= 2 && !(in[0] == 0x1f && in[1] == 0x8b)) {
    size_t got = 0;
    libdeflate_result r = libdeflate_zlib_decompress(d, in.data(), in.size(), out.data(), out.size(), &got);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      return Status::Corrupt("GZIP (zlib) data decompresses to more than the " + std::to_string(out.size()) +
                             " bytes the page header says");
    }
    if (r != LIBDEFLATE_SUCCESS) return Status::Corrupt("GZIP data is neither a gzip nor a zlib stream");
    if (got != out.size()) return Status::Corrupt(SizeMismatch("GZIP", static_cast<int64_t>(got), out.size()));
    return Status::OK();
  }
  int members = 0;
  while (in_pos < in.size()) {
    size_t used_in = 0;
    size_t used_out = 0;
    libdeflate_result r = libdeflate_gzip_decompress_ex(d, in.data() + in_pos, in.size() - in_pos,
                                                        out.data() + out_pos, out.size() - out_pos, &used_in,
                                                        &used_out);
    if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
      return Status::Corrupt("GZIP data decompresses to more than the " + std::to_string(out.size()) +
                             " bytes the page header says");
    }
    if (r != LIBDEFLATE_SUCCESS) {
      return Status::Corrupt("GZIP member " + std::to_string(members) + " at byte " + std::to_string(in_pos) +
                             " is malformed");
    }
    ++members;
    in_pos += used_in;
    out_pos += used_out;
  }
  if (members == 0 && !out.empty()) return Status::Corrupt("GZIP data is empty");
  if (out_pos != out.size()) return Status::Corrupt(SizeMismatch("GZIP", static_cast<int64_t>(out_pos), out.size()));
  return Status::OK();
}

Status DecompressBrotli(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t got = out.size();
  BrotliDecoderResult r = BrotliDecoderDecompress(in.size(), in.data(), &got, out.data());
  if (r != BROTLI_DECODER_RESULT_SUCCESS) {
    return Status::Corrupt("BROTLI data is malformed or decompresses to more than the " +
                           std::to_string(out.size()) + " bytes the page header says");
  }
  if (got != out.size()) return Status::Corrupt(SizeMismatch("BROTLI", static_cast<int64_t>(got), out.size()));
  return Status::OK();
}

bool Lz4RawInto(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE) || out.size() > static_cast<size_t>(INT32_MAX)) return false;
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()),
                              static_cast<int>(in.size()), static_cast<int>(out.size()));
  return n >= 0 && static_cast<size_t>(n) == out.size();
}

Status DecompressLz4Raw(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE) || out.size() > static_cast<size_t>(INT32_MAX)) {
    return Status::Corrupt("LZ4_RAW page larger than LZ4 supports");
  }
  int n = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(out.data()),
                              static_cast<int>(in.size()), static_cast<int>(out.size()));
  if (n < 0) {
    return Status::Corrupt("LZ4_RAW data is malformed or decompresses to more than the " +
                           std::to_string(out.size()) + " bytes the page header says");
  }
  if (static_cast<size_t>(n) != out.size()) return Status::Corrupt(SizeMismatch("LZ4_RAW", n, out.size()));
  return Status::OK();
}

// Hadoop's BlockCompressorStream: frames of [uncompressed size BE32][compressed size BE32][block].
bool Lz4HadoopInto(std::span<const uint8_t> in, std::span<uint8_t> out) {
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (in.size() - in_pos >= 8) {
    uint32_t raw_size = LoadBE32(in.data() + in_pos);
    uint32_t comp_size = LoadBE32(in.data() + in_pos + 4);
    in_pos += 8;
    if (comp_size > in.size() - in_pos || raw_size > out.size() - out_pos) return false;
    if (!Lz4RawInto(in.subspan(in_pos, comp_size), out.subspan(out_pos, raw_size))) return false;
    in_pos += comp_size;
    out_pos += raw_size;
  }
  return in_pos == in.size() && out_pos == out.size();
}

bool Lz4FrameInto(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (in.size() < 4 || !(in[0] == 0x04 && in[1] == 0x22 && in[2] == 0x4d && in[3] == 0x18)) return false;
  ThreadContexts& ctx = Contexts();
  if (ctx.lz4f_d == nullptr && LZ4F_isError(LZ4F_createDecompressionContext(&ctx.lz4f_d, LZ4F_VERSION))) {
    ctx.lz4f_d = nullptr;
    return false;
  }
  LZ4F_resetDecompressionContext(ctx.lz4f_d);
  size_t in_pos = 0;
  size_t out_pos = 0;
  while (in_pos < in.size()) {
    size_t in_n = in.size() - in_pos;
    size_t out_n = out.size() - out_pos;
    size_t hint = LZ4F_decompress(ctx.lz4f_d, out.data() + out_pos, &out_n, in.data() + in_pos, &in_n, nullptr);
    if (LZ4F_isError(hint)) return false;
    in_pos += in_n;
    out_pos += out_n;
    if (hint == 0) break;  // end of frame
    if (in_n == 0 && out_n == 0) return false;  // no progress: output full or input truncated
  }
  return in_pos == in.size() && out_pos == out.size();
}

// Parquet's "LZ4" is ambiguous in the wild: parquet-mr writes Hadoop framing, older parquet-cpp
// wrote bare LZ4 blocks (and some writers LZ4 frames); try them in that order, as Arrow does.
Status DecompressLz4Hadoop(std::span<const uint8_t> in, std::span<uint8_t> out) {
  if (Lz4HadoopInto(in, out) || Lz4RawInto(in, out) || Lz4FrameInto(in, out)) return Status::OK();
  return Status::Corrupt("LZ4 data is neither Hadoop-framed LZ4, a raw LZ4 block nor an LZ4 frame of the " +
                         std::to_string(out.size()) + " bytes the page header says");
}

// ---- compression ----

int Lz4Level(int level) { return level == kDefaultCompressionLevel ? 1 : level; }

Status CompressLz4Block(int level, std::span<const uint8_t> in, uint8_t* dst, int capacity, int* written) {
  ThreadContexts& ctx = Contexts();
  int n;
  const char* src = reinterpret_cast<const char*>(in.data());
  if (level <= 1) {
    if (!ctx.lz4_state) ctx.lz4_state.reset(new char[LZ4_sizeofState()]);
    n = LZ4_compress_fast_extState(ctx.lz4_state.get(), src, reinterpret_cast<char*>(dst),
                                   static_cast<int>(in.size()), capacity, 1);
  } else {
    if (!ctx.lz4hc_state) ctx.lz4hc_state.reset(new char[LZ4_sizeofStateHC()]);
    n = LZ4_compress_HC_extStateHC(ctx.lz4hc_state.get(), src, reinterpret_cast<char*>(dst),
                                   static_cast<int>(in.size()), capacity, level);
  }
  if (n <= 0 && !in.empty()) return Status::Invalid("LZ4 compression failed");
  *written = n;
  return Status::OK();
}

constexpr int64_t kHadoopChunk = 128 * 1024;

}  // namespace

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kUncompressed: return "UNCOMPRESSED";
    case Codec::kSnappy: return "SNAPPY";
    case Codec::kGzip: return "GZIP";
    case Codec::kLzo: return "LZO";
    case Codec::kBrotli: return "BROTLI";
    case Codec::kLz4Hadoop: return "LZ4";
    case Codec::kZstd: return "ZSTD";
    case Codec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

Result<Codec> CodecFromName(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "NONE") return Codec::kUncompressed;
  for (int i = 0; i <= 7; ++i) {
    if (upper == CodecName(static_cast<Codec>(i))) return static_cast<Codec>(i);
  }
  return Status::Invalid("unknown compression codec '" + std::string(name) +
                         "' (expected one of uncompressed, snappy, gzip, brotli, lz4, zstd, lz4_raw)");
}

bool IsCodecSupported(Codec codec) {
  int v = static_cast<int>(codec);
  return v >= 0 && v <= 7 && codec != Codec::kLzo;
}

Status Decompress(Codec codec, std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (codec != Codec::kUncompressed && input.empty() && output.empty()) return Status::OK();
  switch (codec) {
    case Codec::kUncompressed:
      if (input.size() != output.size()) {
        return Status::Corrupt("UNCOMPRESSED page has " + std::to_string(input.size()) +
                               " bytes, page header says " + std::to_string(output.size()));
      }
      if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
      return Status::OK();
    case Codec::kSnappy: return DecompressSnappy(input, output);
    case Codec::kGzip: return DecompressGzip(input, output);
    case Codec::kLzo:
      return Status::NotImplemented("LZO compression is not supported (no writer in use produces it)");
    case Codec::kBrotli: return DecompressBrotli(input, output);
    case Codec::kLz4Hadoop: return DecompressLz4Hadoop(input, output);
    case Codec::kZstd: return DecompressZstd(input, output);
    case Codec::kLz4Raw: return DecompressLz4Raw(input, output);
  }
  return Status::Corrupt("unknown compression codec " + std::to_string(static_cast<int>(codec)));
}

int64_t MaxCompressedLength(Codec codec, int64_t n) {
  switch (codec) {
    case Codec::kUncompressed: return n;
    case Codec::kSnappy: return static_cast<int64_t>(SnappyMaxCompressedLength(static_cast<size_t>(n)));
    case Codec::kGzip: return n + n / 1000 * 5 + 64 + 5 * (n / 16384 + 1);  // stored-block worst case + header
    case Codec::kBrotli: {
      size_t b = BrotliEncoderMaxCompressedSize(static_cast<size_t>(n));
      return b == 0 ? n + n / 8 + 1024 : static_cast<int64_t>(b);
    }
    case Codec::kLz4Hadoop: return n + n / 255 + 16 + 8 * (n / kHadoopChunk + 1) + 16 * (n / kHadoopChunk + 1);
    case Codec::kZstd: return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(n)));
    case Codec::kLz4Raw: return n + n / 255 + 16;
    case Codec::kLzo: return 0;
  }
  return 0;
}

Status Compress(Codec codec, int level, std::span<const uint8_t> input, BufferBuilder* out) {
  const int64_t bound = MaxCompressedLength(codec, static_cast<int64_t>(input.size()));
  switch (codec) {
    case Codec::kUncompressed:
      return out->Append(input.data(), static_cast<int64_t>(input.size()));
    case Codec::kSnappy: {
      // Through the project's own compressor, whose bytes equal libsnappy 1.1.9's
      // (snappy_compress_internal.h says why).
      if (input.size() > UINT32_MAX) {
        return Status::Invalid("SNAPPY cannot compress " + std::to_string(input.size()) +
                               " bytes at once (at most 4294967295)");
      }
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      const size_t n = SnappyCompress(input, out->mutable_data() + out->size());
      out->UnsafeSetSize(out->size() + static_cast<int64_t>(n));
      return Status::OK();
    }
    case Codec::kGzip: {
      int lvl = level == kDefaultCompressionLevel ? 6 : std::clamp(level, 0, 12);
      ThreadContexts& ctx = Contexts();
      if (ctx.deflate_c[lvl] == nullptr) ctx.deflate_c[lvl] = libdeflate_alloc_compressor(lvl);
      if (ctx.deflate_c[lvl] == nullptr) return Status::OutOfMemory("cannot create a deflate compressor");
      int64_t gz_bound = static_cast<int64_t>(libdeflate_gzip_compress_bound(ctx.deflate_c[lvl], input.size()));
      QUIVER_RETURN_NOT_OK(out->Reserve(gz_bound));
      size_t n = libdeflate_gzip_compress(ctx.deflate_c[lvl], input.data(), input.size(),
                                          out->mutable_data() + out->size(), static_cast<size_t>(gz_bound));
      if (n == 0) return Status::Invalid("GZIP compression failed");
      out->UnsafeSetSize(out->size() + static_cast<int64_t>(n));
      return Status::OK();
    }
    case Codec::kLzo:
      return Status::NotImplemented("LZO compression is not supported (no writer in use produces it)");
    case Codec::kBrotli: {
      int quality = level == kDefaultCompressionLevel ? 8 : std::clamp(level, BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY);
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      size_t n = static_cast<size_t>(bound);
      if (!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, input.size(), input.data(),
                                 &n, out->mutable_data() + out->size())) {
        return Status::Invalid("BROTLI compression failed");
      }
      out->UnsafeSetSize(out->size() + static_cast<int64_t>(n));
      return Status::OK();
    }
    case Codec::kLz4Raw: {
      if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return Status::Invalid("page too large for LZ4");
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      int n = 0;
      QUIVER_RETURN_NOT_OK(CompressLz4Block(Lz4Level(level), input, out->mutable_data() + out->size(),
                                            static_cast<int>(bound), &n));
      out->UnsafeSetSize(out->size() + n);
      return Status::OK();
    }
    case Codec::kLz4Hadoop: {
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      size_t pos = 0;
      do {
        size_t chunk = std::min<size_t>(input.size() - pos, kHadoopChunk);
        int capacity = LZ4_compressBound(static_cast<int>(chunk));
        uint8_t* frame = out->mutable_data() + out->size();
        int n = 0;
        QUIVER_RETURN_NOT_OK(CompressLz4Block(Lz4Level(level), input.subspan(pos, chunk), frame + 8, capacity, &n));
        StoreBE32(frame, static_cast<uint32_t>(chunk));
        StoreBE32(frame + 4, static_cast<uint32_t>(n));
        out->UnsafeSetSize(out->size() + 8 + n);
        pos += chunk;
      } while (pos < input.size());
      return Status::OK();
    }
    case Codec::kZstd: {
      ThreadContexts& ctx = Contexts();
      if (ctx.zstd_c == nullptr) ctx.zstd_c = ZSTD_createCCtx();
      if (ctx.zstd_c == nullptr) return Status::OutOfMemory("cannot create a ZSTD compression context");
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      size_t n = ZSTD_compressCCtx(ctx.zstd_c, out->mutable_data() + out->size(), static_cast<size_t>(bound),
                                   input.data(), input.size(),
                                   level == kDefaultCompressionLevel ? ZSTD_CLEVEL_DEFAULT : level);
      if (ZSTD_isError(n)) return Status::Invalid(std::string("ZSTD compression failed: ") + ZSTD_getErrorName(n));
      out->UnsafeSetSize(out->size() + static_cast<int64_t>(n));
      return Status::OK();
    }
  }
  return Status::Invalid("unknown compression codec " + std::to_string(static_cast<int>(codec)));
}

Status DecompressLz4Frame(std::span<const uint8_t> input, std::span<uint8_t> output) {
  if (Lz4FrameInto(input, output)) return Status::OK();
  return Status::Corrupt("LZ4 frame does not decode to the " + std::to_string(output.size()) + " bytes expected");
}

Status CompressLz4Frame(std::span<const uint8_t> input, BufferBuilder* out) {
  const size_t bound = LZ4F_compressFrameBound(input.size(), nullptr);
  QUIVER_RETURN_NOT_OK(out->Reserve(static_cast<int64_t>(bound)));
  const size_t n = LZ4F_compressFrame(out->mutable_data() + out->size(), bound, input.data(), input.size(), nullptr);
  if (LZ4F_isError(n)) return Status::IOError(std::string("LZ4 frame compression failed: ") + LZ4F_getErrorName(n));
  out->UnsafeSetSize(out->size() + static_cast<int64_t>(n));
  return Status::OK();
}

}  // namespace quiver::compress
