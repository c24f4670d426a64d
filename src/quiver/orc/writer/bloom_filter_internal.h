// ORC's bloom filter as Apache ORC Java writes it (BloomFilterUtf8): Murmur3 64-bit (Hive's
// variant, seed 104729) of a string's bytes, Thomas Wang's 64-bit hash of an integer (and of a
// double's bits), and k probe positions h1 + i * h2 over a bit set of 64-bit words, sized for
// the row-index stride's rows at a false-positive probability.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace quiver::orc::writer {

class OrcBloomFilter {
 public:
  // Sized as the Java writer sizes it: bits = -n ln(p) / ln(2)^2, rounded up past a multiple of
  // 64; hash functions = round(bits / n ln 2), at least 1.
  OrcBloomFilter(int64_t expected_entries, double fpp);
  OrcBloomFilter(uint64_t num_bits, uint32_t num_hash_functions)
      : words_((num_bits + 63) / 64, 0), bits_(num_bits), k_(num_hash_functions) {}

  void AddBytes(const void* data, size_t n) { AddHash(Murmur3Hash64(static_cast<const uint8_t*>(data), n)); }
  void AddLong(int64_t v) { AddHash(LongHash(v)); }
  void AddDouble(double v) { AddLong(std::bit_cast<int64_t>(v)); }
  void Clear() { std::fill(words_.begin(), words_.end(), 0); }

  uint32_t num_hash_functions() const { return k_; }
  const std::vector<uint64_t>& words() const { return words_; }
  // The words as little-endian bytes (BloomFilter.utf8bitset).
  std::string Bytes() const;

  static uint64_t Murmur3Hash64(const uint8_t* data, size_t n, uint64_t seed = 104729);
  static uint64_t LongHash(int64_t key);

 private:
  void AddHash(uint64_t hash) {
    const auto h1 = static_cast<int32_t>(hash), h2 = static_cast<int32_t>(hash >> 32);
    for (uint32_t i = 1; i <= k_; ++i) {
      int32_t combined = static_cast<int32_t>(static_cast<uint32_t>(h1) + i * static_cast<uint32_t>(h2));
      if (combined < 0) combined = ~combined;
      const uint64_t pos = static_cast<uint64_t>(combined) % bits_;
      words_[pos >> 6] |= uint64_t{1} << (pos & 63);
    }
  }

  std::vector<uint64_t> words_;
  uint64_t bits_;
  uint32_t k_;
};

}  // namespace quiver::orc::writer
