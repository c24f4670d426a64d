#include "quiver/columnar/value_parse.h"

#include <gtest/gtest.h>

#include <cmath>

namespace quiver {
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
}  // namespace quiver

#include "quiver/columnar/pretty_print.h"

namespace quiver {
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
}  // namespace quiver

#include <random>

namespace quiver {
namespace {

// The padded parsers read whole 8-byte words past the text; each must give exactly the
// plain parser's answer. `text` is placed in a buffer with what follows it chosen to tempt
// an over-reading parser (digits, points, dashes), as in a real CSV line.
template <typename T, typename Plain, typename Padded>
void ExpectSameAsPlain(const std::string& text, const std::string& after, Plain plain, Padded padded) {
  std::string buf = text + after + std::string(32, '7');
  std::string_view s(buf.data(), text.size());
  T a{}, b{};
  const bool ok_a = plain(std::string_view(text), &a);
  const bool ok_b = padded(s, &b);
  ASSERT_EQ(ok_a, ok_b) << "'" << text << "' then '" << after << "'";
  if (ok_a) {
    ASSERT_EQ(std::memcmp(&a, &b, sizeof(T)), 0) << "'" << text << "': " << a << " vs " << b;
  }
}

std::string RandomText(std::mt19937_64& rng, const std::string& alphabet, size_t max_len) {
  size_t n = rng() % (max_len + 1);
  std::string s;
  for (size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
  return s;
}

TEST(ValueParse, PaddedParsersAgreeWithThePlainOnes) {
  std::mt19937_64 rng(42);
  const std::string numeric = "0123456789012345678901234567890123456789-+.eE x";
  const std::string afters[] = {"", "|", ".5|", "9", "-12", "0000000000000000"};
  for (int i = 0; i < 400000; ++i) {
    std::string t = RandomText(rng, numeric, 20);
    const std::string& after = afters[rng() % 6];
    ExpectSameAsPlain<int64_t>(t, after, ParseInt64, ParseInt64Padded);
    ExpectSameAsPlain<double>(t, after, ParseFloat64, ParseFloat64Padded);
  }
  // Shapes the fast paths take, and their edges.
  const char* cases[] = {"0", "-0", "+0", "-", "+", "", ".", "-.", "1.", ".5", "-.5", "00", "12345678", "123456789",
                         "1234567890123456", "12345678901234567", "-1234567890123456", "9999999999999999",
                         "18446744073709551616", "-9223372036854775808", "9223372036854775807", "1.5", "-1.25",
                         "33.00", "41327.88", "12345678.1234567", "12345678.12345678", "1234567.12345678",
                         "123456789.5", "1.123456789", "0.1", "0.3", "-0.00", "1..2", "1.2.3", "1e5", "1.5e3",
                         "inf", "nan", "1 ", " 1", "1-2", "12:30",
                         // the one-word path: up to 8 digits around a point in the first 8 bytes
                         "104949.50", "-104949.50", "9.9999999", "99999999.", "0.0000001", "1234567.8",
                         "12.", "+1.5", "1.5.", "00000.00", "-.25", "1.-5", "1.+5", "1.5e", "1x.5"};
  for (const char* c : cases) {
    for (const char* after : {"", ".1", "|9", "5"}) {
      ExpectSameAsPlain<int64_t>(c, after, ParseInt64, ParseInt64Padded);
      ExpectSameAsPlain<double>(c, after, ParseFloat64, ParseFloat64Padded);
    }
  }
  // The padded parsers need readable bytes past the text: a string with room after it.
  auto padded = [](const std::string& text) {
    static std::string store;
    store = text + std::string(32, '|');
    return std::string_view(store.data(), text.size());
  };
  int64_t v;
  ASSERT_TRUE(ParseInt64Padded(padded("-1234567890123456"), &v));
  EXPECT_EQ(v, -1234567890123456);
  double d;
  ASSERT_TRUE(ParseFloat64Padded(padded("41327.88"), &d));
  EXPECT_EQ(d, 41327.88);
  ASSERT_TRUE(ParseFloat64Padded(padded("-0.00"), &d));
  EXPECT_TRUE(std::signbit(d));
  ASSERT_TRUE(ParseFloat64Padded(padded("104949.50"), &d));
  EXPECT_EQ(d, 104949.5);
  ASSERT_TRUE(ParseFloat64Padded(padded("0.0000001"), &d));
  EXPECT_EQ(d, 1e-7);
  int32_t days;
  ASSERT_TRUE(ParseDatePadded(padded("2024-02-29"), &days));
  EXPECT_EQ(days, 19782);
  ASSERT_TRUE(ParseDatePadded(padded("1999-12-31"), &days));
  EXPECT_EQ(days, 10956);
  EXPECT_FALSE(ParseDatePadded(padded("2023-02-29"), &days));
  EXPECT_FALSE(ParseDatePadded(padded("2023-13-01"), &days));
  EXPECT_FALSE(ParseDatePadded(padded("2023-1x-01"), &days));
  EXPECT_FALSE(ParseDatePadded(padded("2023/01/01"), &days));
}

TEST(ValueParse, PaddedDatesAgreeWithThePlainParser) {
  // Every day of 1968..2101 (both sides of the table's range), then malformed variants.
  for (int32_t day = -731; day <= 48000; ++day) {
    std::string s;
    FormatDate(day, &s);
    ExpectSameAsPlain<int32_t>(s, "|1997-01-02", ParseDate, ParseDatePadded);
  }
  std::mt19937_64 rng(7);
  const std::string alphabet = "0123456789--/ x";
  for (int i = 0; i < 200000; ++i) {
    std::string t = RandomText(rng, alphabet, 12);
    if (rng() % 2) t = "19" + std::to_string(rng() % 100) + "-" + std::to_string(rng() % 14) + "-" + std::to_string(rng() % 33);
    ExpectSameAsPlain<int32_t>(t, "|", ParseDate, ParseDatePadded);
  }
  for (const char* c : {"2000-02-29", "2100-02-29", "2099-12-31", "1970-00-10", "1970-13-10", "1999-04-31", "1999-04-00",
                        "1999-4-30", "1999-04-3", "+999-04-30", "199a-04-30", "1999/04/30", "-1999-04-30"}) {
    ExpectSameAsPlain<int32_t>(c, "", ParseDate, ParseDatePadded);
  }
}

}  // namespace
}  // namespace quiver
