#include "quiver/csv/value_parse.h"

#include <gtest/gtest.h>

#include <cmath>

namespace quiver::csv {
namespace {

TEST(ValueParse, Int64) {
  int64_t v;
  EXPECT_TRUE(ParseInt64("0", &v));
  EXPECT_EQ(v, 0);
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v));
  EXPECT_EQ(v, INT64_MIN);
  EXPECT_TRUE(ParseInt64("+9223372036854775807", &v));
  EXPECT_EQ(v, INT64_MAX);
  EXPECT_FALSE(ParseInt64("9223372036854775808", &v));
  EXPECT_FALSE(ParseInt64("-9223372036854775809", &v));
  EXPECT_FALSE(ParseInt64("99999999999999999999", &v));
  EXPECT_FALSE(ParseInt64("", &v));
  EXPECT_FALSE(ParseInt64("-", &v));
  EXPECT_FALSE(ParseInt64("1.0", &v));
  EXPECT_FALSE(ParseInt64(" 1", &v));
  EXPECT_TRUE(ParseInt64("000123", &v));
  EXPECT_EQ(v, 123);
}

TEST(ValueParse, Float64RoundTrips) {
  double d;
  EXPECT_TRUE(ParseFloat64("0.1", &d));
  EXPECT_EQ(d, 0.1);
  EXPECT_TRUE(ParseFloat64("+1e-310", &d));
  EXPECT_EQ(d, 1e-310);
  EXPECT_TRUE(ParseFloat64("-2.5E3", &d));
  EXPECT_EQ(d, -2500.0);
  EXPECT_TRUE(ParseFloat64("1.7976931348623157e308", &d));
  EXPECT_EQ(d, 1.7976931348623157e308);
  EXPECT_TRUE(ParseFloat64("inf", &d));
  EXPECT_TRUE(std::isinf(d));
  EXPECT_FALSE(ParseFloat64("1,5", &d));
  EXPECT_FALSE(ParseFloat64("", &d));
  EXPECT_FALSE(ParseFloat64("abc", &d));
}

TEST(ValueParse, Dates) {
  int32_t d;
  EXPECT_TRUE(ParseDate("1970-01-01", &d));
  EXPECT_EQ(d, 0);
  EXPECT_TRUE(ParseDate("2000-02-29", &d));
  EXPECT_EQ(d, 11016);
  EXPECT_FALSE(ParseDate("1900-02-29", &d));
  EXPECT_FALSE(ParseDate("2023-13-01", &d));
  EXPECT_FALSE(ParseDate("2023-04-31", &d));
  EXPECT_TRUE(ParseDate("0001-01-01", &d));
  EXPECT_EQ(d, -719162);
  EXPECT_TRUE(ParseDate("1969-12-31", &d));
  EXPECT_EQ(d, -1);
  EXPECT_FALSE(ParseDate("2023-01-01x", &d));
  EXPECT_FALSE(ParseDate("01/02/2023", &d));
}

TEST(ValueParse, Timestamps) {
  ParsedTimestamp t;
  ASSERT_TRUE(ParseTimestamp("2023-11-14 22:13:20.123456", &t));
  EXPECT_EQ(t.micros, 1700000000123456);
  EXPECT_FALSE(t.has_offset);
  ASSERT_TRUE(ParseTimestamp("2023-11-14T22:13:20Z", &t));
  EXPECT_EQ(t.micros, 1700000000000000);
  EXPECT_TRUE(t.has_offset);
  ASSERT_TRUE(ParseTimestamp("2023-11-15T00:13:20+02:00", &t));
  EXPECT_EQ(t.micros, 1700000000000000);
  ASSERT_TRUE(ParseTimestamp("2023-11-14T17:13:20-0500", &t));
  EXPECT_EQ(t.micros, 1700000000000000);
  ASSERT_TRUE(ParseTimestamp("2023-11-14 22:13", &t));
  EXPECT_EQ(t.micros, 1699999980000000);
  ASSERT_TRUE(ParseTimestamp("2023-11-14", &t));
  ASSERT_TRUE(ParseTimestamp("1969-12-31 23:59:59.999999999", &t));
  EXPECT_EQ(t.micros, -1);  // nanoseconds truncate to microseconds
  EXPECT_FALSE(ParseTimestamp("2023-11-14 25:00:00", &t));
  EXPECT_FALSE(ParseTimestamp("2023-11-14 10:00:00 garbage", &t));
  int64_t n;
  EXPECT_TRUE(ParseTimeOfDayNanos("12:34:56.000000001", &n));
  EXPECT_EQ(n, 45296000000001);
  EXPECT_FALSE(ParseTimeOfDayNanos("12:3", &n));
}

TEST(ValueParse, Decimals) {
  __int128 v;
  EXPECT_TRUE(ParseDecimal("123.45", 12, 2, &v));
  EXPECT_EQ(static_cast<int64_t>(v), 12345);
  EXPECT_TRUE(ParseDecimal("-0.5", 12, 2, &v));
  EXPECT_EQ(static_cast<int64_t>(v), -50);
  EXPECT_TRUE(ParseDecimal("7", 3, 2, &v));
  EXPECT_EQ(static_cast<int64_t>(v), 700);
  EXPECT_FALSE(ParseDecimal("1.234", 12, 2, &v));  // more fraction digits than the scale
  EXPECT_FALSE(ParseDecimal("12345", 5, 2, &v));   // 7 digits with the scale > precision 5
  EXPECT_FALSE(ParseDecimal(".", 5, 2, &v));
  EXPECT_TRUE(ParseDecimal("99999999999999999999999999999999999999", 38, 0, &v));
}

}  // namespace
}  // namespace quiver::csv

#include "quiver/columnar/pretty_print.h"

namespace quiver::csv {
namespace {

// The table path (1970-2099) and the general era formula agree with the printer everywhere.
TEST(ValueParse, DatesRoundTripThroughThePrinter) {
  for (int32_t d = -800000; d <= 800000; d += (d > -1000 && d < 60000) ? 1 : 97) {
    std::string s;
    FormatDate(d, &s);
    int32_t back;
    ASSERT_TRUE(ParseDate(s, &back)) << s;
    ASSERT_EQ(back, d) << s;
  }
}

}  // namespace
}  // namespace quiver::csv
