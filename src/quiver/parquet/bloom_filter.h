// Parquet's split-block bloom filter (parquet-format BloomFilter.md): values hashed with xxHash64
// of their PLAIN bytes into 32-byte blocks of eight 32-bit words; sizing, insertion, probing,
// serialization with its Thrift header, and loading a column chunk's filter from a file.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/io/file.h"
#include "quiver/parquet/metadata.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet {

// What a writer asks of one column's filters.
struct BloomFilterOptions {
  // Target false-positive probability of each chunk's filter, in (0, 1).
  double fpp = 0.05;
  // Distinct values each chunk's filter is sized for; 0 sizes it from the chunk itself (its
  // dictionary entries, or its non-null values when it is not dictionary-encoded).
  int64_t ndv = 0;
};

class BloomFilter {
 public:
  static constexpr int64_t kBlockBytes = 32;
  static constexpr int64_t kMinBytes = 32;
  static constexpr int64_t kMaxBytes = int64_t{128} << 20;

  // The spec's size for `ndv` distinct values at false-positive probability `fpp`:
  // -8 * ndv / ln(1 - fpp^(1/8)) bits, as bytes rounded up to a power of two in [32, 128 MiB].
  static int64_t OptimalBytes(int64_t ndv, double fpp);
  // An empty filter of `num_bytes` (a multiple of 32 in [32, 128 MiB]).
  static Result<BloomFilter> Make(int64_t num_bytes, MemoryPool* pool = default_memory_pool());

  // xxHash64 (seed 0) of a value's PLAIN bytes (BYTE_ARRAY without its length prefix).
  static uint64_t Hash(const void* data, size_t size);
  template <typename T>
  static uint64_t HashValue(T v) {
    static_assert(std::is_arithmetic_v<T>);
    return Hash(&v, sizeof(T));
  }
  static uint64_t HashValue(std::string_view bytes) { return Hash(bytes.data(), bytes.size()); }

  void InsertHash(uint64_t hash);
  void InsertHashes(const uint64_t* hashes, int64_t n);
  bool MightContainHash(uint64_t hash) const;
  bool MightContain(std::string_view plain_bytes) const { return MightContainHash(HashValue(plain_bytes)); }

  // Batches of PLAIN values, hashed a batch at a time and then inserted: `n` values of `width`
  // bytes back to back; or byte arrays by Arrow offsets, skipping the rows `validity` (bit
  // `validity_offset + i`; may be null) marks null.
  void InsertFixed(const uint8_t* values, int64_t n, int width);
  void InsertByteArrays(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity = nullptr,
                        int64_t validity_offset = 0);
  // The `count` values of a PLAIN page body (e.g. a dictionary page) of `physical` type;
  // Corrupt when the body is shorter than they need.
  Status InsertPlain(Type physical, int32_t type_length, std::span<const uint8_t> body, int64_t count);

  int64_t num_bytes() const { return num_blocks_ * kBlockBytes; }
  // The bitset as stored in the file (words little-endian).
  std::span<const uint8_t> bitset() const { return {words_->data(), static_cast<size_t>(num_bytes())}; }

  // The BloomFilterHeader (BLOCK, XXHASH, UNCOMPRESSED) followed by the bitset.
  Status Serialize(BufferBuilder* out) const;
  // A filter from a header and bitset at the start of `bytes`; `consumed` (optional) receives
  // their length. Corrupt on a header that does not decode, an algorithm, hash or compression
  // other than BLOCK/XXHASH/UNCOMPRESSED, a size that is not a multiple of 32 in [32, 128 MiB],
  // or a bitset longer than `bytes`: never an allocation larger than `bytes`.
  static Result<BloomFilter> Parse(std::span<const uint8_t> bytes, MemoryPool* pool = default_memory_pool(),
                                   int64_t* consumed = nullptr);

 private:
  BloomFilter(std::shared_ptr<Buffer> words, int64_t num_blocks) : words_(std::move(words)), num_blocks_(num_blocks) {}
  uint32_t* words() { return words_->mutable_data_as<uint32_t>(); }
  const uint32_t* words() const { return words_->data_as<uint32_t>(); }

  std::shared_ptr<Buffer> words_;  // owned, 64-byte aligned
  int64_t num_blocks_ = 0;
};

// The bloom filter of a column chunk (bloom_filter_offset, and bloom_filter_length when the
// writer set it), or nullopt when the chunk has none. Corrupt when the filter lies outside the
// file or does not parse; messages name the offset.
Result<std::optional<BloomFilter>> ReadBloomFilter(io::RandomAccessFile& file, const ColumnMetaData& meta,
                                                   MemoryPool* pool = default_memory_pool());

// The PLAIN bytes a bloom filter hashes for a literal (a predicate's value, parsed from text by
// stream::ParseLiteral) compared with a column of physical type `physical`: 4 or 8 bytes of an
// integer (cast: a literal outside the type's range matches no value anyway), of a float or
// double, the bytes of a string. nullopt for physical types bloom filters are not asked about
// (BOOLEAN, INT96, FIXED_LEN_BYTE_ARRAY) and for a literal of another kind than the column's.
std::optional<std::string> BloomBytesOf(const Literal& value, Type physical);

}  // namespace quiver::parquet
