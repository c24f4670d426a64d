// The predicate bitmaps of a late-materialized scan: a dictionary page's answers looked up 64
// rows to a word by every SIMD level, and bits ANDed in at any row offset.
#include "quiver/parquet/reader/select_bits_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace quiver::parquet::reader {
namespace {

class SelectBitsTest : public ::testing::TestWithParam<SimdLevel> {};

bool Bit(const std::vector<uint64_t>& bits, int64_t i) { return (bits[static_cast<size_t>(i >> 6)] >> (i & 63)) & 1; }

TEST_P(SelectBitsTest, AnswerWordLooksEachIndexUp) {
  const SelectKernels& k = SelectKernelsFor(GetParam());
  EXPECT_EQ(k.level, GetParam());
  // Entry e passes when e % 3 == 1; the indices 0..63 then 63 - i: the word's bits are known.
  std::vector<int32_t> answers(64);
  for (int e = 0; e < 64; ++e) answers[static_cast<size_t>(e)] = e % 3 == 1 ? -1 : 0;
  std::vector<int32_t> idx(64);
  for (int i = 0; i < 64; ++i) idx[static_cast<size_t>(i)] = i;
  EXPECT_EQ(k.answer_word(idx.data(), answers.data()), 0x2492492492492492u);
  for (int i = 0; i < 64; ++i) idx[static_cast<size_t>(i)] = 63 - i;
  EXPECT_EQ(k.answer_word(idx.data(), answers.data()), 0x4924924924924924u);
}

// The small-dictionary kernel on the same known words, with entries in both halves of the 64
// (each half is its own table or shift in the SIMD kernels).
TEST_P(SelectBitsTest, SmallAnswerWordLooksEachIndexUp) {
  const SelectKernels& k = SelectKernelsFor(GetParam());
  std::vector<int32_t> answers(64);
  for (int e = 0; e < 64; ++e) answers[static_cast<size_t>(e)] = e % 3 == 1 ? -1 : 0;
  std::vector<int32_t> idx(64);
  for (int i = 0; i < 64; ++i) idx[static_cast<size_t>(i)] = i;
  EXPECT_EQ(k.answer_word_small(idx.data(), answers.data()), 0x2492492492492492u);
  for (int i = 0; i < 64; ++i) idx[static_cast<size_t>(i)] = 63 - i;
  EXPECT_EQ(k.answer_word_small(idx.data(), answers.data()), 0x4924924924924924u);
  // Only entries 32 and 37 pass (the first of the upper half, and one inside it); rows 5 and 60
  // point at 37, row 7 at 32, the others at 36, 0 and 31 (each a step from them, or the same
  // place in the lower half).
  std::fill(answers.begin(), answers.end(), 0);
  answers[32] = answers[37] = -1;
  for (int i = 0; i < 64; ++i) idx[static_cast<size_t>(i)] = i % 3 == 0 ? 36 : i % 3 == 1 ? 0 : 31;
  idx[5] = idx[60] = 37;
  idx[7] = 32;
  EXPECT_EQ(k.answer_word_small(idx.data(), answers.data()),
            (uint64_t{1} << 5) | (uint64_t{1} << 7) | (uint64_t{1} << 60));
}

// Every offset into a word and lengths around word ends: rows outside the range untouched, rows
// inside out when they were out or their entry fails, all-out words left as they are.
void CheckAnswersAtAnyOffset(const SelectKernels& k, int dict, std::mt19937_64& rng) {
  std::vector<int32_t> answers(static_cast<size_t>(dict));
  for (auto& a : answers) a = (rng() % 7 == 0) ? -1 : 0;
  for (int64_t offset : {0, 1, 13, 63, 64, 65, 127}) {
    for (int64_t n : {0, 1, 63, 64, 65, 128, 200, 1000}) {
      const int64_t rows = offset + n + 70;
      std::vector<uint64_t> bits(static_cast<size_t>(rows / 64 + 2));
      for (auto& w : bits) w = rng();
      // One whole word of rows out already (its lookups are skipped, the result the same).
      if (rows >= 192) bits[1] = 0;
      const std::vector<uint64_t> before = bits;
      std::vector<int32_t> idx(static_cast<size_t>(n));
      for (auto& i : idx) i = static_cast<int32_t>(rng() % static_cast<uint64_t>(dict));
      AndDictionaryAnswers(k, bits.data(), offset, idx.data(), n, answers.data(), dict);
      for (int64_t r = 0; r < rows; ++r) {
        bool want = Bit(before, r);
        if (r >= offset && r < offset + n) want = want && answers[static_cast<size_t>(idx[static_cast<size_t>(r - offset)])] != 0;
        ASSERT_EQ(Bit(bits, r), want) << "offset " << offset << " n " << n << " row " << r;
      }
    }
  }
}

// The dictionary sizes of l_discount (11) and l_quantity (50), one of exactly 64 entries (the
// small kernel's largest), and 65 and l_shipdate's 2526 (the gathers).
TEST_P(SelectBitsTest, DictionaryAnswersAtAnyOffset) {
  const SelectKernels& k = SelectKernelsFor(GetParam());
  std::mt19937_64 rng(7);
  for (const int dict : {1, 11, 50, 64, 65, 2526}) {
    SCOPED_TRACE("dictionary of " + std::to_string(dict) + " entries");
    CheckAnswersAtAnyOffset(k, dict, rng);
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, SelectBitsTest, ::testing::ValuesIn(SupportedSimdLevels()),
                         [](const ::testing::TestParamInfo<SimdLevel>& info) { return std::string(SimdLevelName(info.param)); });

TEST(SelectBits, AndBitsAtShiftsIntoPlace) {
  // 0b1011'0110 twice (16 bits) ANDed in at bit 60 of all-ones words: it straddles a word.
  std::vector<uint64_t> bits(3, ~uint64_t{0});
  const uint8_t src[2] = {0xB6, 0xB6};
  AndBitsAt(bits.data(), 60, src, 16);
  EXPECT_EQ(bits[0], 0x6FFFFFFFFFFFFFFFu);  // bits 60..63 take src bits 0..3 (0110)
  EXPECT_EQ(bits[1], ~uint64_t{0xFFF} | 0xB6B);  // bits 0..11 take src bits 4..15
  EXPECT_EQ(bits[2], ~uint64_t{0});
  // WordAt reads the same 64 rows back across the boundary.
  EXPECT_EQ(WordAt(bits.data(), 60) & 0xFFFF, 0xB6B6u);
}

}  // namespace
}  // namespace quiver::parquet::reader
