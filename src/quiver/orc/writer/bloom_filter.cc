#include "quiver/orc/writer/bloom_filter_internal.h"

#include <algorithm>
#include <cstring>

namespace quiver::orc::writer {
namespace {

constexpr uint64_t kC1 = 0x87c37b91114253d5ULL, kC2 = 0x4cf5ad432745937fULL;

inline uint64_t Mix(uint64_t k) {
  k *= kC1;
  k = std::rotl(k, 31);
  return k * kC2;
}

inline uint64_t Finalize(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

OrcBloomFilter::OrcBloomFilter(int64_t expected_entries, double fpp) {
  const double n = static_cast<double>(std::max<int64_t>(1, expected_entries));
  const auto nb = static_cast<int64_t>(-n * std::log(fpp) / (std::log(2.0) * std::log(2.0)));
  bits_ = static_cast<uint64_t>(nb + (64 - nb % 64));
  k_ = static_cast<uint32_t>(std::max<int64_t>(1, std::llround(static_cast<double>(bits_) / n * std::log(2.0))));
  words_.assign(bits_ / 64, 0);
}

std::string OrcBloomFilter::Bytes() const {
  std::string out(words_.size() * 8, '\0');
  std::memcpy(out.data(), words_.data(), out.size());  // little-endian, as the format says
  return out;
}

uint64_t OrcBloomFilter::Murmur3Hash64(const uint8_t* data, size_t n, uint64_t seed) {
  uint64_t h = seed;
  const size_t blocks = n / 8;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k;
    std::memcpy(&k, data + i * 8, 8);
    h ^= Mix(k);
    h = std::rotl(h, 27) * 5 + 0x52dce729;
  }
  uint64_t k = 0;
  const uint8_t* tail = data + blocks * 8;
  switch (n & 7) {
    case 7: k ^= uint64_t{tail[6]} << 48; [[fallthrough]];
    case 6: k ^= uint64_t{tail[5]} << 40; [[fallthrough]];
    case 5: k ^= uint64_t{tail[4]} << 32; [[fallthrough]];
    case 4: k ^= uint64_t{tail[3]} << 24; [[fallthrough]];
    case 3: k ^= uint64_t{tail[2]} << 16; [[fallthrough]];
    case 2: k ^= uint64_t{tail[1]} << 8; [[fallthrough]];
    case 1:
      k ^= uint64_t{tail[0]};
      h ^= Mix(k);
      break;
    default: break;
  }
  h ^= static_cast<uint64_t>(n);
  return Finalize(h);
}

uint64_t OrcBloomFilter::LongHash(int64_t key) {
  // Java's arithmetic right shifts on a signed long; additions wrap.
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  auto s = [](uint64_t v) { return static_cast<int64_t>(v); };
  key = s(u(~key) + (u(key) << 21));
  key = key ^ (key >> 24);
  key = s(u(key) + (u(key) << 3) + (u(key) << 8));
  key = key ^ (key >> 14);
  key = s(u(key) + (u(key) << 2) + (u(key) << 4));
  key = key ^ (key >> 28);
  key = s(u(key) + (u(key) << 31));
  return u(key);
}

}  // namespace quiver::orc::writer
