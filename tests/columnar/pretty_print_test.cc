#include "quiver/columnar/pretty_print.h"

#include <gtest/gtest.h>

#include <cmath>

#include "quiver/columnar/builder.h"

namespace quiver {
namespace {

std::string Date(int32_t d) {
  std::string s;
  FormatDate(d, &s);
  return s;
}

TEST(PrettyPrint, Dates) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(11016), "2000-02-29");
  EXPECT_EQ(Date(19782), "2024-02-29");
  EXPECT_EQ(Date(-719162), "0001-01-01");
  EXPECT_EQ(Date(2932896), "9999-12-31");
}

TEST(PrettyPrint, TimestampsAndTimes) {
  std::string s;
  FormatTimestamp(1700000000123456, TimeUnit::kMicro, true, &s);
  EXPECT_EQ(s, "2023-11-14 22:13:20.123456Z");
  s.clear();
  FormatTimestamp(-1, TimeUnit::kMilli, false, &s);
  EXPECT_EQ(s, "1969-12-31 23:59:59.999");
  s.clear();
  FormatTimestamp(86400, TimeUnit::kSecond, false, &s);
  EXPECT_EQ(s, "1970-01-02 00:00:00");
  s.clear();
  FormatTimeOfDay(45296000000001, TimeUnit::kNano, &s);
  EXPECT_EQ(s, "12:34:56.000000001");
}

// The Parquet statistics printer's style of the same functions: 'T' and every digit of the unit.
TEST(PrettyPrint, TimestampsWithEveryDigitAndT) {
  std::string s;
  FormatTimestamp(1700000000000000, TimeUnit::kMicro, true, &s, 'T', true);
  EXPECT_EQ(s, "2023-11-14T22:13:20.000000Z");
  s.clear();
  FormatTimestamp(-1000, TimeUnit::kMilli, false, &s, 'T', true);
  EXPECT_EQ(s, "1969-12-31T23:59:59.000");
  s.clear();
  FormatTimeOfDay(45296000, TimeUnit::kMilli, &s, true);
  EXPECT_EQ(s, "12:34:56.000");
  s.clear();
  FormatTimeOfDay(45296, TimeUnit::kSecond, &s, true);
  EXPECT_EQ(s, "12:34:56");
}

TEST(PrettyPrint, Decimals) {
  auto dec = [](__int128 v, int s) {
    std::string out;
    FormatDecimal(v, s, &out);
    return out;
  };
  EXPECT_EQ(dec(12345, 2), "123.45");
  EXPECT_EQ(dec(-5, 3), "-0.005");
  EXPECT_EQ(dec(0, 2), "0.00");
  EXPECT_EQ(dec(7, 0), "7");
  __int128 big = static_cast<__int128>(1) << 100;
  EXPECT_EQ(dec(big, 0), "1267650600228229401496703205376");
}

TEST(PrettyPrint, Half) {
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x0001), 5.960464477539063e-08f);
  EXPECT_TRUE(std::isinf(HalfToFloat(0x7c00)));
}

TEST(PrettyPrint, Table) {
  NumericBuilder<int32_t> ids(int32());
  BinaryBuilder names(utf8());
  ASSERT_TRUE(ids.Append(1).ok());
  ASSERT_TRUE(ids.Append(22).ok());
  ASSERT_TRUE(names.Append("ann").ok());
  ASSERT_TRUE(names.AppendNull().ok());
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("id", int32()), field("name", utf8())});
  auto batch = RecordBatch::Make(schema, {*ids.Finish(), *names.Finish()});
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(FormatTable(**batch), "id  name\n--  ----\n1   ann\n22  null\n");
  EXPECT_EQ(FormatTable(**batch, 1), "id  name\n--  ----\n1   ann\n... 1 more rows\n");
}

}  // namespace
}  // namespace quiver

namespace quiver {
namespace {

TEST(PrettyPrint, TimestampExtremesDoNotOverflow) {
  std::string s;
  FormatTimestamp(INT64_MIN, TimeUnit::kNano, false, &s);
  EXPECT_EQ(s, "1677-09-21 00:12:43.145224192");
  s.clear();
  FormatTimestamp(INT64_MAX, TimeUnit::kMilli, true, &s);
  EXPECT_EQ(s, "292278994-08-17 07:12:55.807Z");
  s.clear();
  FormatTimestamp(INT64_MIN, TimeUnit::kMilli, false, &s);
  EXPECT_EQ(s, "-292275055-05-16 16:47:04.192");
  s.clear();
  FormatDecimal(5, 60, &s);  // a hostile scale must not overrun anything
  EXPECT_EQ(s.size(), 62u);
  EXPECT_EQ(s.substr(0, 3), "0.0");
}

}  // namespace
}  // namespace quiver
