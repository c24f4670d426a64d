// Compression codecs for Parquet pages: one-shot Decompress into a buffer of the exact expected
// size, Compress appending to a BufferBuilder; Debian's libraries, but snappy is the project's own
// (snappy_decompress_internal.h, snappy_compress_internal.h).
#pragma once

#include <climits>
#include <cstdint>
#include <span>
#include <string_view>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/core/status.h"

namespace quiver::compress {

// Numbered as Parquet's CompressionCodec so the footer value casts straight to it.
enum class Codec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4Hadoop = 5,  // Parquet "LZ4": Hadoop block framing, raw LZ4 blocks accepted as fallback
  kZstd = 6,
  kLz4Raw = 7,
};

// "ZSTD", "LZ4_RAW"... as Parquet spells them; "UNKNOWN(n)" style names are the caller's job.
std::string_view CodecName(Codec codec);
// Parses a Parquet codec name, case-insensitively ("snappy", "LZ4_RAW", "none" == UNCOMPRESSED).
Result<Codec> CodecFromName(std::string_view name);
// True for codecs this build can compress and decompress (every one but LZO).
bool IsCodecSupported(Codec codec);

// Asks for the codec's own default level.
inline constexpr int kDefaultCompressionLevel = INT_MIN;

// Decompresses `input` into `output`, whose size is the exact uncompressed size the page header
// promised. Corrupt when the stream is malformed or decodes to any other size; never writes past
// `output`. Per-thread decompression contexts are reused across calls.
Status Decompress(Codec codec, std::span<const uint8_t> input, std::span<uint8_t> output);

// An upper bound on the compressed size of `input_size` bytes (what Compress reserves).
int64_t MaxCompressedLength(Codec codec, int64_t input_size);

// Appends the compressed form of `input` to `out`. `level` is codec-specific: zstd 1..22 (or
// negative for fast modes), gzip 0..12 (libdeflate's scale), brotli 0..11, lz4 1 = fast and
// 2..12 = LZ4HC; snappy ignores it. kDefaultCompressionLevel picks the codec's default.
// LZ4 (Hadoop) writes one Hadoop frame per 128 KiB of input so that Hadoop's fixed-size
// decompression buffer copes; GZIP writes a single gzip member. LZO is NotImplemented.
Status Compress(Codec codec, int level, std::span<const uint8_t> input, BufferBuilder* out);

// The LZ4 frame format (Arrow IPC's LZ4_FRAME body compression; no Parquet codec number): one
// frame decoded into exactly `output`, and one frame of `input` appended to `out`.
Status DecompressLz4Frame(std::span<const uint8_t> input, std::span<uint8_t> output);
Status CompressLz4Frame(std::span<const uint8_t> input, BufferBuilder* out);

}  // namespace quiver::compress
