#include "quiver/orc/writer/out_stream_internal.h"

#include <libdeflate.h>

#include <algorithm>
#include <array>
#include <span>

#include "quiver/compress/codec.h"
#include "quiver/orc/format.h"

namespace quiver::orc::writer {
namespace {

// libdeflate compressors cost about a MiB each to set up: one per level and thread, kept.
struct DeflateCompressors {
  std::array<libdeflate_compressor*, 13> by_level{};
  ~DeflateCompressors() {
    for (libdeflate_compressor* c : by_level) {
      if (c != nullptr) libdeflate_free_compressor(c);
    }
  }
};

}  // namespace

Status CompressChunk(uint32_t compression, int level, const uint8_t* input, int64_t n, BufferBuilder* out) {
  const std::span<const uint8_t> in(input, static_cast<size_t>(n));
  switch (compression) {
    case format::kZlib: {
      const int lvl = level == compress::kDefaultCompressionLevel ? 6 : std::clamp(level, 0, 12);
      thread_local DeflateCompressors compressors;
      libdeflate_compressor*& c = compressors.by_level[static_cast<size_t>(lvl)];
      if (c == nullptr) c = libdeflate_alloc_compressor(lvl);
      if (c == nullptr) return Status::OutOfMemory("cannot create a deflate compressor");
      const auto bound = static_cast<int64_t>(libdeflate_deflate_compress_bound(c, in.size()));
      QUIVER_RETURN_NOT_OK(out->Reserve(bound));
      const size_t written = libdeflate_deflate_compress(c, in.data(), in.size(), out->mutable_data() + out->size(),
                                                         static_cast<size_t>(bound));
      if (written == 0 && n > 0) return Status::Invalid("ZLIB compression failed");
      out->UnsafeSetSize(out->size() + static_cast<int64_t>(written));
      return Status::OK();
    }
    case format::kSnappy: return compress::Compress(compress::Codec::kSnappy, level, in, out);
    case format::kLz4: return compress::Compress(compress::Codec::kLz4Raw, level, in, out);
    case format::kZstd: return compress::Compress(compress::Codec::kZstd, level, in, out);
    default: return Status::NotImplemented("ORC compression kind " + std::to_string(compression) + " is not written");
  }
}

OutStream::OutStream(uint32_t compression, int level, int64_t block_size, MemoryPool* pool)
    : compression_(compression), level_(level), block_size_(block_size), pending_(pool), output_(pool) {}

void OutStream::WriteSlow(const uint8_t* data, int64_t n) {
  if (!status_.ok()) return;
  if (limit_ < block_size_) {
    status_ = pending_.Reserve(block_size_ - pending_.size());
    if (!status_.ok()) return;
    limit_ = block_size_;
  }
  while (n > 0) {
    const int64_t take = std::min(n, block_size_ - pending_.size());
    pending_.UnsafeAppend(data, take);
    data += take;
    n -= take;
    if (pending_.size() == block_size_) {
      status_ = EmitChunk();
      if (!status_.ok()) return;
    }
  }
}

Status OutStream::EmitChunk() {
  const int64_t n = pending_.size();
  if (n == 0) return Status::OK();
  raw_bytes_ += n;
  if (compression_ == format::kNone) {
    QUIVER_RETURN_NOT_OK(output_.Append(pending_.data(), n));
    pending_.Clear();
    return Status::OK();
  }
  const int64_t header_at = output_.size();
  QUIVER_RETURN_NOT_OK(output_.AppendZeros(format::kChunkHeaderSize));
  QUIVER_RETURN_NOT_OK(CompressChunk(compression_, level_, pending_.data(), n, &output_));
  int64_t length = output_.size() - header_at - format::kChunkHeaderSize;
  bool original = false;
  if (length >= n) {  // does not pay: the chunk is kept as it was
    output_.UnsafeSetSize(header_at + format::kChunkHeaderSize);
    output_.UnsafeAppend(pending_.data(), n);
    length = n;
    original = true;
  }
  const uint32_t header = static_cast<uint32_t>(length) << 1 | (original ? 1u : 0u);
  uint8_t* h = output_.mutable_data() + header_at;
  h[0] = static_cast<uint8_t>(header);
  h[1] = static_cast<uint8_t>(header >> 8);
  h[2] = static_cast<uint8_t>(header >> 16);
  pending_.Clear();
  return Status::OK();
}

void OutStream::RecordPosition(std::vector<uint64_t>* positions) const {
  if (compression_ == format::kNone) {
    positions->push_back(static_cast<uint64_t>(output_.size() + pending_.size()));
  } else {
    positions->push_back(static_cast<uint64_t>(output_.size()));
    positions->push_back(static_cast<uint64_t>(pending_.size()));
  }
}

Status OutStream::Flush() {
  QUIVER_RETURN_NOT_OK(status_);
  status_ = EmitChunk();
  return status_;
}

}  // namespace quiver::orc::writer
