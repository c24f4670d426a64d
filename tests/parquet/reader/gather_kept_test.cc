// The mostly-kept step of a late-materialized read: every SIMD level writes exactly the kept
// rows' values, in order, from a PLAIN page's values or through dictionary indices.
#include "quiver/parquet/reader/gather_kept_internal.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace quiver::parquet::reader {
namespace {

class GatherKeptTest : public ::testing::TestWithParam<SimdLevel> {};

template <typename T>
void Check(const GatherKeptKernels& k, uint64_t keep, std::mt19937_64& rng) {
  constexpr int W = sizeof(T);
  std::vector<T> values(64), entries(50);
  for (auto& v : values) v = static_cast<T>(rng());
  for (auto& e : entries) e = static_cast<T>(rng());
  std::vector<int32_t> idx(64);
  for (auto& i : idx) i = static_cast<int32_t>(rng() % entries.size());
  std::vector<T> want_plain, want_dict;
  for (int r = 0; r < 64; ++r) {
    if ((keep >> r) & 1) {
      want_plain.push_back(values[static_cast<size_t>(r)]);
      want_dict.push_back(entries[static_cast<size_t>(idx[static_cast<size_t>(r)])]);
    }
  }
  // Room for 64 values, as the reader gives (the scalar loop writes each row at the next slot).
  std::vector<T> out(64);
  const auto* v = reinterpret_cast<const uint8_t*>(values.data());
  const auto* e = reinterpret_cast<const uint8_t*>(entries.data());
  auto* o = reinterpret_cast<uint8_t*>(out.data());
  const int64_t np = W == 4 ? k.plain4(keep, v, o) : k.plain8(keep, v, o);
  ASSERT_EQ(np, static_cast<int64_t>(want_plain.size()));
  for (size_t r = 0; r < want_plain.size(); ++r) ASSERT_EQ(out[r], want_plain[r]) << "plain, kept value " << r;
  const int64_t nd = W == 4 ? k.dict4(keep, idx.data(), e, o) : k.dict8(keep, idx.data(), e, o);
  ASSERT_EQ(nd, static_cast<int64_t>(want_dict.size()));
  for (size_t r = 0; r < want_dict.size(); ++r) ASSERT_EQ(out[r], want_dict[r]) << "dictionary, kept value " << r;
  if constexpr (W == 8) {
    // Dictionaries of 11 entries (padded to 16) and 50 (padded to 64), every index used.
    for (int size : {11, 50}) {
      std::vector<T> small(size <= 16 ? 16 : 64, 0), want_small;
      for (int x = 0; x < size; ++x) small[static_cast<size_t>(x)] = static_cast<T>(rng());
      for (int r = 0; r < 64; ++r) {
        idx[static_cast<size_t>(r)] = (r * 7) % size;
        if ((keep >> r) & 1) want_small.push_back(small[static_cast<size_t>(idx[static_cast<size_t>(r)])]);
      }
      const auto* e = reinterpret_cast<const uint8_t*>(small.data());
      const int64_t ns = size <= 16 ? k.dict8_16(keep, idx.data(), e, o) : k.dict8_64(keep, idx.data(), e, o);
      ASSERT_EQ(ns, static_cast<int64_t>(want_small.size()));
      for (size_t r = 0; r < want_small.size(); ++r) {
        ASSERT_EQ(out[r], want_small[r]) << "dictionary of " << size << ", kept value " << r;
      }
    }
  }
}

TEST_P(GatherKeptTest, KeptRowsInOrder) {
  const GatherKeptKernels& k = GatherKeptKernelsFor(GetParam());
  EXPECT_EQ(k.level, GetParam());
  std::mt19937_64 rng(11);
  std::vector<uint64_t> words = {~uint64_t{0}, 0, 1, uint64_t{1} << 63, 0x00FF00FF00FF00FFu, ~uint64_t{0} >> 1};
  for (int t = 0; t < 50; ++t) words.push_back(rng() | rng());  // about three rows in four
  for (uint64_t keep : words) {
    Check<uint32_t>(k, keep, rng);
    Check<uint64_t>(k, keep, rng);
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, GatherKeptTest, ::testing::ValuesIn(SupportedSimdLevels()),
                         [](const ::testing::TestParamInfo<SimdLevel>& info) { return std::string(SimdLevelName(info.param)); });

}  // namespace
}  // namespace quiver::parquet::reader
