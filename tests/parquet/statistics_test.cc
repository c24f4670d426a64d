// The statistics rules shared by the writer, the reader's pruning and `quiver meta`: sort
// orders over PLAIN bytes, which values are bounds, zero and NaN, the bounds a reader uses.
#include "quiver/parquet/statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace quiver::parquet {
namespace {

template <typename T>
std::string Plain(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

TEST(Statistics, SortOrderOfEachType) {
  EXPECT_EQ(SortOrderFor(*int64()), SortOrder::kSigned);
  EXPECT_EQ(SortOrderFor(*uint8()), SortOrder::kSigned);  // widened to non-negative INT32
  EXPECT_EQ(SortOrderFor(*uint32()), SortOrder::kUnsigned);
  EXPECT_EQ(SortOrderFor(*uint64()), SortOrder::kUnsigned);
  EXPECT_EQ(SortOrderFor(*float64()), SortOrder::kFloat);
  EXPECT_EQ(SortOrderFor(*utf8()), SortOrder::kBytes);
  EXPECT_EQ(SortOrderFor(*decimal128(18, 2)), SortOrder::kSigned);
  EXPECT_EQ(SortOrderFor(*decimal128(19, 2)), SortOrder::kSignedBigEndian);
  EXPECT_EQ(SortOrderFor(*float16()), SortOrder::kNone);
}

TEST(Statistics, PlainLessInEachOrder) {
  EXPECT_TRUE(PlainLess(SortOrder::kSigned, Type::INT32, Plain<int32_t>(-1), Plain<int32_t>(0)));
  EXPECT_FALSE(PlainLess(SortOrder::kUnsigned, Type::INT32, Plain<int32_t>(-1), Plain<int32_t>(0)));
  EXPECT_TRUE(PlainLess(SortOrder::kUnsigned, Type::INT64, Plain<int64_t>(1), Plain<int64_t>(-1)));
  EXPECT_TRUE(PlainLess(SortOrder::kSigned, Type::BOOLEAN, Plain<uint8_t>(0), Plain<uint8_t>(1)));
  EXPECT_TRUE(PlainLess(SortOrder::kFloat, Type::DOUBLE, Plain(-2.5), Plain(1.0)));
  const std::string nan = Plain(std::numeric_limits<double>::quiet_NaN());
  EXPECT_FALSE(PlainLess(SortOrder::kFloat, Type::DOUBLE, nan, Plain(1.0)));
  EXPECT_FALSE(PlainLess(SortOrder::kFloat, Type::DOUBLE, Plain(1.0), nan));
  EXPECT_TRUE(PlainLess(SortOrder::kBytes, Type::BYTE_ARRAY, "ab", "b"));
  EXPECT_TRUE(PlainLess(SortOrder::kBytes, Type::BYTE_ARRAY, "a", "\xff"));  // unsigned bytes
  // Big-endian two's complement: the first byte signed, the rest unsigned.
  EXPECT_TRUE(PlainLess(SortOrder::kSignedBigEndian, Type::FIXED_LEN_BYTE_ARRAY, std::string("\xff\x01", 2),
                        std::string("\x00\x00", 2)));
  EXPECT_TRUE(PlainLess(SortOrder::kSignedBigEndian, Type::FIXED_LEN_BYTE_ARRAY, std::string("\x00\x7f", 2),
                        std::string("\x00\x80", 2)));
  EXPECT_FALSE(PlainLess(SortOrder::kNone, Type::FIXED_LEN_BYTE_ARRAY, "a", "b"));
}

TEST(Statistics, NaNIsNeverABoundAndNoOrderHasNone) {
  EXPECT_FALSE(CanBeBound(SortOrder::kFloat, Type::FLOAT, Plain(std::nanf(""))));
  EXPECT_FALSE(CanBeBound(SortOrder::kFloat, Type::DOUBLE, Plain(std::nan(""))));
  EXPECT_TRUE(CanBeBound(SortOrder::kFloat, Type::DOUBLE, Plain(-0.0)));
  EXPECT_TRUE(CanBeBound(SortOrder::kSigned, Type::INT64, Plain<int64_t>(0)));
  EXPECT_FALSE(CanBeBound(SortOrder::kNone, Type::FIXED_LEN_BYTE_ARRAY, "ab"));
}

TEST(Statistics, AZeroBoundIsTheWidestZero) {
  std::string mn = Plain(0.0), mx = Plain(-0.0);
  WidenZeroBounds(SortOrder::kFloat, Type::DOUBLE, &mn, &mx);
  EXPECT_TRUE(std::signbit(*reinterpret_cast<const double*>(mn.data())));
  EXPECT_FALSE(std::signbit(*reinterpret_cast<const double*>(mx.data())));
  std::string fmn = Plain(0.0f), fmx = Plain(-0.0f);
  WidenZeroBounds(SortOrder::kFloat, Type::FLOAT, &fmn, &fmx);
  EXPECT_EQ(fmn, Plain(-0.0f));
  EXPECT_EQ(fmx, Plain(0.0f));
  std::string one = Plain(1.0), two = Plain(2.0);
  WidenZeroBounds(SortOrder::kFloat, Type::DOUBLE, &one, &two);
  EXPECT_EQ(one, Plain(1.0));
  EXPECT_EQ(two, Plain(2.0));
  std::string imn = Plain<int64_t>(0), imx = Plain<int64_t>(0);
  WidenZeroBounds(SortOrder::kSigned, Type::INT64, &imn, &imx);  // not a float order: untouched
  EXPECT_EQ(imn, Plain<int64_t>(0));
}

TEST(Statistics, CompareFloatPutsNaNAboveEveryNumber) {
  const double nan = std::nan("");
  EXPECT_EQ(CompareFloat(nan, std::numeric_limits<double>::infinity()), 1);
  EXPECT_EQ(CompareFloat(1.0, nan), -1);
  EXPECT_EQ(CompareFloat(nan, nan), 0);
  EXPECT_EQ(CompareFloat(-0.0, 0.0), 0);
  EXPECT_EQ(CompareBytes("ab", "abc"), -1);
  EXPECT_EQ(CompareBytes("\xff", "a"), 1);
  EXPECT_EQ(CompareBytes("", ""), 0);
}

TEST(Statistics, BytesLessAgreesWithLexicographicOrder) {
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; ++i) {
    std::string a(rng() % 20, '\0'), b(rng() % 20, '\0');
    for (char& c : a) c = static_cast<char>("ab\xff\x00"[rng() % 4]);
    for (char& c : b) c = static_cast<char>("ab\xff\x00"[rng() % 4]);
    if (rng() % 3 == 0) b = a.substr(0, rng() % (a.size() + 1));
    ASSERT_EQ(BytesLess(a, b), std::string_view(a) < std::string_view(b)) << i;
    ASSERT_EQ(BytesLess(a, b), CompareBytes(a, b) < 0) << i;
  }
}

TEST(Statistics, BoundsAReaderUses) {
  Statistics s;
  s.min_value = "b";
  s.max_value = "y";
  s.is_max_value_exact = false;
  s.min = "legacy-min";
  s.max = "legacy-max";
  auto b = BoundsOf(s, /*type_order=*/true, /*legacy_usable=*/true);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->min, "b");
  EXPECT_EQ(b->max, "y");
  EXPECT_TRUE(b->min_exact);
  EXPECT_FALSE(b->max_exact);
  // Without a declared type order only the legacy bounds of signed integers are used.
  b = BoundsOf(s, false, true);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->min, "legacy-min");
  EXPECT_TRUE(b->max_exact);
  EXPECT_FALSE(BoundsOf(s, false, false).has_value());
  Statistics only_min;
  only_min.min_value = "a";
  EXPECT_FALSE(BoundsOf(only_min, true, true).has_value());
}

}  // namespace
}  // namespace quiver::parquet
