#include "quiver/parquet/bloom_filter.h"

#include <fmt/format.h>
// Inlined: the fixed 4- and 8-byte inputs of most columns then hash without a call.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "quiver/core/arena.h"
#include "quiver/core/bit_util.h"
#include "quiver/parquet/metadata_codec.h"

namespace quiver::parquet {

namespace {

// The spec's eight odd constants: one per word of a block, each picking that word's bit.
constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};

// Values hashed per batch before they are inserted: the hashes stay in registers/L1 and the
// insert loop runs without calls.
constexpr int64_t kBatch = 256;

inline uint32_t* BlockOf(uint32_t* words, int64_t num_blocks, uint64_t hash) {
  // The upper 32 bits times the block count, shifted down: a block index without a division.
  const uint64_t block = ((hash >> 32) * static_cast<uint64_t>(num_blocks)) >> 32;
  return words + block * 8;
}

inline void InsertOne(uint32_t* words, int64_t num_blocks, uint64_t hash) {
  uint32_t* b = BlockOf(words, num_blocks, hash);
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) b[i] |= uint32_t{1} << ((key * kSalt[i]) >> 27);
}

bool IsValidSize(int64_t n) { return n >= BloomFilter::kMinBytes && n <= BloomFilter::kMaxBytes && n % 32 == 0; }

}  // namespace

int64_t BloomFilter::OptimalBytes(int64_t ndv, double fpp) {
  if (ndv <= 0) return kMinBytes;
  fpp = std::clamp(fpp, 1e-12, 0.999999);
  const double bits = -8.0 * static_cast<double>(ndv) / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  if (!(bits / 8.0 < static_cast<double>(kMaxBytes))) return kMaxBytes;
  const int64_t bytes = static_cast<int64_t>(std::ceil(bits / 8.0));
  int64_t p = kMinBytes;
  while (p < bytes) p <<= 1;
  return p;
}

Result<BloomFilter> BloomFilter::Make(int64_t num_bytes, MemoryPool* pool) {
  if (!IsValidSize(num_bytes)) {
    return Status::Invalid(fmt::format("bloom filter size {} bytes is not a multiple of 32 between {} and {}", num_bytes,
                                       kMinBytes, kMaxBytes));
  }
  QUIVER_ASSIGN_OR_RETURN(auto words, Buffer::AllocateZeroed(num_bytes, pool));
  return BloomFilter(std::move(words), num_bytes / kBlockBytes);
}

uint64_t BloomFilter::Hash(const void* data, size_t size) { return XXH64(data, size, 0); }

void BloomFilter::InsertHash(uint64_t hash) { InsertOne(words(), num_blocks_, hash); }

void BloomFilter::InsertHashes(const uint64_t* hashes, int64_t n) {
  uint32_t* w = words();
  const int64_t blocks = num_blocks_;
  for (int64_t i = 0; i < n; ++i) InsertOne(w, blocks, hashes[i]);
}

bool BloomFilter::MightContainHash(uint64_t hash) const {
  const uint32_t* b = BlockOf(const_cast<uint32_t*>(words()), num_blocks_, hash);
  const uint32_t key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) {
    if ((b[i] & (uint32_t{1} << ((key * kSalt[i]) >> 27))) == 0) return false;
  }
  return true;
}

namespace {
// A constant width lets the inlined XXH64 reduce to its few steps for that length.
template <int W>
void HashFixed(const uint8_t* p, int64_t m, int /*width*/, uint64_t* h) {
  for (int64_t i = 0; i < m; ++i) h[i] = XXH64(p + i * W, W, 0);
}
template <>
void HashFixed<0>(const uint8_t* p, int64_t m, int width, uint64_t* h) {
  for (int64_t i = 0; i < m; ++i) h[i] = XXH64(p + i * width, static_cast<size_t>(width), 0);
}
}  // namespace

void BloomFilter::InsertFixed(const uint8_t* values, int64_t n, int width) {
  auto hash = width == 4 ? HashFixed<4> : width == 8 ? HashFixed<8> : width == 16 ? HashFixed<16> : HashFixed<0>;
  uint64_t h[kBatch];
  for (int64_t start = 0; start < n; start += kBatch) {
    const int64_t m = std::min(kBatch, n - start);
    hash(values + start * width, m, width, h);
    InsertHashes(h, m);
  }
}

void BloomFilter::InsertByteArrays(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
                                   int64_t validity_offset) {
  uint64_t h[kBatch];
  for (int64_t start = 0; start < n; start += kBatch) {
    const int64_t m = std::min(kBatch, n - start);
    int64_t k = 0;
    for (int64_t i = start; i < start + m; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
      h[k++] = XXH64(data + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]), 0);
    }
    InsertHashes(h, k);
  }
}

Status BloomFilter::InsertPlain(Type physical, int32_t type_length, std::span<const uint8_t> body, int64_t count) {
  int width = 0;
  switch (physical) {
    case Type::INT32:
    case Type::FLOAT: width = 4; break;
    case Type::INT64:
    case Type::DOUBLE: width = 8; break;
    case Type::INT96: width = 12; break;
    case Type::FIXED_LEN_BYTE_ARRAY: width = type_length; break;
    case Type::BYTE_ARRAY: break;
    default: return Status::Invalid(fmt::format("no bloom filter for {} values", TypeName(physical)));
  }
  if (width > 0) {
    if (count < 0 || static_cast<uint64_t>(count) * static_cast<uint64_t>(width) > body.size()) {
      return Status::Corrupt(fmt::format("{} PLAIN values of {} bytes need more than the page's {} bytes", count, width,
                                         body.size()));
    }
    InsertFixed(body.data(), count, width);
    return Status::OK();
  }
  uint64_t h[kBatch];
  size_t pos = 0;
  for (int64_t start = 0; start < count; start += kBatch) {
    const int64_t m = std::min(kBatch, count - start);
    for (int64_t i = 0; i < m; ++i) {
      uint32_t len;
      if (body.size() - pos < 4) return Status::Corrupt(fmt::format("PLAIN byte array {} passes the page's end", start + i));
      std::memcpy(&len, body.data() + pos, 4);
      pos += 4;
      if (body.size() - pos < len) return Status::Corrupt(fmt::format("PLAIN byte array {} passes the page's end", start + i));
      h[i] = XXH64(body.data() + pos, len, 0);
      pos += len;
    }
    InsertHashes(h, m);
  }
  return Status::OK();
}

Status BloomFilter::Serialize(BufferBuilder* out) const {
  BloomFilterHeader h;
  h.numBytes = static_cast<int32_t>(num_bytes());
  h.algorithm.BLOCK = SplitBlockAlgorithm{};
  h.hash.XXHASH = XxHash{};
  h.compression.UNCOMPRESSED = Uncompressed{};
  QUIVER_RETURN_NOT_OK(EncodeBloomFilterHeader(h, out));
  // The words are little-endian in the file, as in memory on every platform quiver builds for.
  return out->Append(words_->data(), num_bytes());
}

Result<BloomFilter> BloomFilter::Parse(std::span<const uint8_t> bytes, MemoryPool* pool, int64_t* consumed) {
  Arena arena(pool);
  BloomFilterHeader h;
  size_t header = 0;
  Status st = DecodeBloomFilterHeader(bytes, &arena, &h, &header);
  if (!st.ok()) return Status::Corrupt(fmt::format("bloom filter header: {}", st.message()));
  if (!h.algorithm.BLOCK) return Status::Corrupt("bloom filter: algorithm is not SPLIT_BLOCK");
  if (!h.hash.XXHASH) return Status::Corrupt("bloom filter: hash is not XXHASH");
  if (!h.compression.UNCOMPRESSED) return Status::Corrupt("bloom filter: compression is not UNCOMPRESSED");
  const int64_t n = h.numBytes;
  if (!IsValidSize(n)) {
    return Status::Corrupt(
        fmt::format("bloom filter: numBytes {} is not a multiple of 32 between {} and {}", n, kMinBytes, kMaxBytes));
  }
  // Checked before allocating: a hostile numBytes costs nothing.
  if (static_cast<uint64_t>(n) > bytes.size() - header) {
    return Status::Corrupt(fmt::format("bloom filter: bitset of {} bytes passes the end of the data ({} bytes after the header)",
                                       n, bytes.size() - header));
  }
  QUIVER_ASSIGN_OR_RETURN(auto words, Buffer::CopyOf(bytes.subspan(header, static_cast<size_t>(n)), pool));
  if (consumed != nullptr) *consumed = static_cast<int64_t>(header) + n;
  return BloomFilter(std::move(words), n / kBlockBytes);
}

Result<std::optional<BloomFilter>> ReadBloomFilter(io::RandomAccessFile& file, const ColumnMetaData& meta,
                                                   MemoryPool* pool) {
  if (!meta.bloom_filter_offset) return std::optional<BloomFilter>();
  const int64_t offset = *meta.bloom_filter_offset;
  const int64_t size = file.size();
  if (offset < 0 || offset >= size) {
    return Status::Corrupt(fmt::format("bloom filter offset {} outside the file ({} bytes)", offset, size));
  }
  auto parse = [&](std::shared_ptr<Buffer> bytes) -> Result<std::optional<BloomFilter>> {
    auto f = BloomFilter::Parse(bytes->span(), pool);
    if (!f.ok()) return f.status().WithContext(fmt::format("bloom filter at offset {}", offset));
    return std::optional<BloomFilter>(std::move(*f));
  };
  if (meta.bloom_filter_length) {
    const int64_t length = *meta.bloom_filter_length;
    if (length <= 0 || length > size - offset) {
      return Status::Corrupt(fmt::format("bloom filter at offset {} of {} bytes passes the end of the file ({} bytes)",
                                         offset, length, size));
    }
    QUIVER_ASSIGN_OR_RETURN(auto bytes, file.ReadAt(offset, length));
    return parse(std::move(bytes));
  }
  // Without a length: the header first (a few bytes; 64 hold any valid one), then its bitset.
  QUIVER_ASSIGN_OR_RETURN(auto head, file.ReadAt(offset, std::min<int64_t>(64, size - offset)));
  Arena arena(pool);
  BloomFilterHeader h;
  size_t header = 0;
  Status st = DecodeBloomFilterHeader(head->span(), &arena, &h, &header);
  if (!st.ok()) {
    return Status::Corrupt(fmt::format("bloom filter header: {}", st.message()))
        .WithContext(fmt::format("bloom filter at offset {}", offset));
  }
  const int64_t total = static_cast<int64_t>(header) + std::max<int64_t>(h.numBytes, 0);
  if (h.numBytes <= 0 || total > size - offset) {
    return Status::Corrupt(fmt::format("bloom filter at offset {}: numBytes {} passes the end of the file ({} bytes)",
                                       offset, h.numBytes, size));
  }
  QUIVER_ASSIGN_OR_RETURN(auto bytes, file.ReadAt(offset, total));
  return parse(std::move(bytes));
}

std::optional<std::string> BloomBytesOf(const Literal& value, Type physical) {
  auto raw = [](const auto& v) { return std::string(reinterpret_cast<const char*>(&v), sizeof(v)); };
  switch (physical) {
    case Type::INT32:
      if (value.kind != Literal::Kind::kInt) return std::nullopt;
      return raw(static_cast<uint32_t>(static_cast<uint64_t>(value.i)));
    case Type::INT64:
      if (value.kind != Literal::Kind::kInt) return std::nullopt;
      return raw(static_cast<uint64_t>(value.i));
    case Type::FLOAT:
      if (value.kind != Literal::Kind::kFloat) return std::nullopt;
      return raw(static_cast<float>(value.f));
    case Type::DOUBLE:
      if (value.kind != Literal::Kind::kFloat) return std::nullopt;
      return raw(value.f);
    case Type::BYTE_ARRAY:
      if (value.kind != Literal::Kind::kBytes) return std::nullopt;
      return value.bytes;
    default:
      return std::nullopt;
  }
}

}  // namespace quiver::parquet
