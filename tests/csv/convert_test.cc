// Column conversion at every SIMD level: the 8-row AVX-512 parsers and the one-by-one path give
// exactly what the plain parsers (and strtod, and the date printer) give, nulls and errors too.
#include "quiver/csv/convert_internal.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <unordered_map>

#include "quiver/columnar/pretty_print.h"
#include "quiver/columnar/value_parse.h"

namespace quiver::csv {
namespace {

// Field texts laid out as in a block buffer: '|' after each, 64 bytes of digits past the end
// (what an over-reading parser would wrongly take in).
struct Column {
  std::string text;
  std::vector<FieldSpan> spans;
  void Add(const std::string& v) {
    spans.push_back(FieldSpan{static_cast<uint32_t>(text.size()), static_cast<uint32_t>(text.size() + v.size())});
    text += v;
    text += '|';
  }
  void AddMissing() { spans.push_back(FieldSpan{FieldSpan::kMissing, FieldSpan::kMissing}); }
  const uint8_t* data() {
    if (padded_ != text.size()) {
      text.append(64, '7');
      padded_ = text.size();
    }
    return reinterpret_cast<const uint8_t*>(text.data());
  }
  std::string Value(size_t r) const {
    const FieldSpan& f = spans[r];
    return f.start == FieldSpan::kMissing ? std::string() : text.substr(f.start, f.end - f.start);
  }

 private:
  size_t padded_ = SIZE_MAX;
};

CsvOptions Plain() { return CsvOptions{}; }

// Converts `col` at every level with on_error=null and checks each row: null when
// FieldSyntax::Text says so, else `expect(text, &value)` (false: does not convert, so null and
// counted), and the null counts.
template <typename T, typename Expect>
void CheckEveryLevel(const TypePtr& type, Column& col, const FieldSyntax& syn, Expect expect) {
  const uint8_t* data = col.data();
  for (SimdLevel level : SupportedSimdLevels()) {
    SCOPED_TRACE(std::string(SimdLevelName(level)));
    int64_t nulled = 0;
    ConvertError err;
    auto arr = ConvertColumn(type, data, col.spans.data(), static_cast<int64_t>(col.spans.size()), syn, true, &nulled, &err,
                             default_memory_pool(), level);
    ASSERT_TRUE(arr.ok()) << arr.status().ToString();
    ASSERT_EQ(err.failure, ConvertFailure::kNone);
    ASSERT_EQ(arr->length(), static_cast<int64_t>(col.spans.size()));
    const T* values = arr->data()->template values<T>(1);
    const ArrayData& ad = *arr->data();
    int64_t nulls = 0, bad = 0;
    for (size_t r = 0; r < col.spans.size(); ++r) {
      T want{};
      const std::string v = col.Value(r);
      std::string_view text;
      bool quoted;
      const int outcome = !syn.Text(data, col.spans[r], false, &text, &quoted) ? 0 : expect(std::string(text), &want) ? 1 : -1;
      const bool valid = ad.IsValid(static_cast<int64_t>(r));
      ASSERT_EQ(valid, outcome == 1) << "row " << r << " '" << v << "'";
      if (outcome == 1) {
        ASSERT_EQ(std::memcmp(&values[r], &want, sizeof(T)), 0) << "row " << r << " '" << v << "': " << values[r] << " vs " << want;
      }
      nulls += outcome != 1;
      bad += outcome == -1;
    }
    EXPECT_EQ(arr->null_count(), nulls);
    EXPECT_EQ(nulled, bad);
  }
}

std::string RandomDigits(std::mt19937_64& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
  return s;
}

TEST(CsvConvert, Int64AtEveryLevelMatchesThePlainParser) {
  std::mt19937_64 rng(1);
  Column col;
  const std::string junk = "0123456789+-. x\"";
  const char* edges[] = {"0", "-0", "+0", "-", "+", "--1", "+-1", "12345678", "-12345678", "+12345678", "123456789",
                         "-1234567", "00000000", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                         "-9223372036854775809", "99999999999999999999", "1 ", " 1", "1.0", "1e3", "0x10", "\"12\"",
                         "\"-3\"", "\"\"", "\"1\"\"2\""};
  for (const char* e : edges) col.Add(e);
  for (int i = 0; i < 60000; ++i) {
    switch (rng() % 6) {
      case 0: col.Add(std::to_string(static_cast<int64_t>(rng()))); break;  // the whole range, both signs
      case 1: col.Add(std::string(rng() % 3 == 0 ? "-" : rng() % 2 ? "+" : "") + RandomDigits(rng, 1 + rng() % 9)); break;
      case 2: col.Add(std::to_string(rng() % 100000000)); break;
      case 3: {
        std::string s;
        for (size_t n = rng() % 10; n > 0; --n) s += junk[rng() % junk.size()];
        col.Add(s);
        break;
      }
      case 4: col.Add(rng() % 2 ? "" : "9223372036854775808"); break;  // empty (null), overflow by one
      default: {
        if (rng() % 4 == 0) {
          col.AddMissing();
        } else {
          col.Add(std::to_string(rng() % 1000));
        }
      }
    }
  }
  col.Add("1");  // a row count that is not a multiple of 8
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  CheckEveryLevel<int64_t>(int64(), col, syn, [&](const std::string& t, int64_t* out) {
    // strtoll as the second opinion, on the exact grammar ([+-]digits)
    const size_t digits_from = (t[0] == '-' || t[0] == '+') ? 1 : 0;
    const bool grammar = t.size() > digits_from && t.find_first_not_of("0123456789", digits_from) == std::string::npos;
    const bool ok = ParseInt64(t, out);
    if (grammar) {
      errno = 0;
      const long long ref = std::strtoll(t.c_str(), nullptr, 10);
      EXPECT_EQ(ok, errno == 0) << t;
      if (ok) {
        EXPECT_EQ(*out, ref) << t;
      }
    } else {
      EXPECT_FALSE(ok) << t;
    }
    return ok;
  });
}

TEST(CsvConvert, Float64AtEveryLevelMatchesStrtod) {
  std::mt19937_64 rng(2);
  Column col;
  const char* edges[] = {"0.0", "-0.00", "1.5", "-1.25", "33.00", "41327.88", "104949.50", "-104949.50", "0.04", "9.9999999",
                         "99999999.", ".5", "-.5", "1.", "12.", "1..2", "1.2.3", "1.5e3", "1e5", "+1.5", "1234567.8",
                         "12345678.9", "0.0000001", "00000.00", "1.-5", "1x.5", "-", "-1", "7", "inf", "nan", "1.5 ",
                         "\"2.50\"", "\"\"", "-1234567.5"};
  for (const char* e : edges) col.Add(e);
  const std::string junk = "0123456789.-+eE x";
  for (int i = 0; i < 60000; ++i) {
    switch (rng() % 5) {
      case 0:
      case 1: {  // decimals of up to 8 digits around a point, both signs: the kernels' shape
        const size_t ip = 1 + rng() % 7;
        const size_t fp = 1 + rng() % (8 - ip);
        col.Add(std::string(rng() % 4 == 0 ? "-" : "") + RandomDigits(rng, ip) + "." + RandomDigits(rng, fp));
        break;
      }
      case 2: {  // longer decimals and integers: the scalar path
        std::string v = RandomDigits(rng, 1 + rng() % 12);
        if (rng() % 2) v.append(".").append(RandomDigits(rng, 1 + rng() % 9));
        col.Add(v);
        break;
      }
      case 3: {
        std::string s;
        for (size_t n = rng() % 11; n > 0; --n) s += junk[rng() % junk.size()];
        col.Add(s);
        break;
      }
      default: {
        if (rng() % 8 == 0) {
          col.AddMissing();
        } else {
          char buf[32];
          std::snprintf(buf, sizeof(buf), "%u.%02u", static_cast<unsigned>(rng() % 100000), static_cast<unsigned>(rng() % 100));
          col.Add(buf);
        }
      }
    }
  }
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  CheckEveryLevel<double>(float64(), col, syn, [&](const std::string& t, double* out) {
    const bool ok = ParseFloat64(t, out);
    // strtod as the second opinion on plain decimals ([-]digits[.digits])
    const size_t from = t[0] == '-' ? 1 : 0;
    const bool decimal = t.size() > from && t.find_first_not_of("0123456789.", from) == std::string::npos &&
                         std::count(t.begin(), t.end(), '.') <= 1 && t.find_first_of("0123456789") != std::string::npos;
    if (decimal) {
      EXPECT_TRUE(ok) << t;
      if (ok) {
        EXPECT_EQ(*out, std::strtod(t.c_str(), nullptr)) << t;
      }
    }
    return ok;
  });
}

TEST(CsvConvert, Date32AtEveryLevelMatchesThePrinterAndThePlainParser) {
  Column col;
  std::unordered_map<std::string, int32_t> days;
  // Every day of 1900..2100, so both sides of the kernels' 1970..2099 range.
  for (int32_t d = -25567; d <= 47482; ++d) {
    std::string s;
    FormatDate(d, &s);
    col.Add(s);
    days[s] = d;
  }
  const char* invalid[] = {"2023-02-29", "2023-13-01", "2023-1-1",   "2023-00-10", "1999-04-31", "1999-04-00", "2100-02-29",
                           "1900-02-29", "2000-02-30", "199a-04-30", "1999/04/30", "1999-04-3",  "+999-04-30", "-1999-04-30",
                           "1999-04-30x", "19990430",  "",           "\"1999-04-30\"", "2024-02-29", "1970-01-01"};
  for (const char* e : invalid) col.Add(e);
  std::mt19937_64 rng(3);
  const std::string junk = "0123456789-";
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (int k = 0; k < 10; ++k) s += junk[rng() % junk.size()];
    col.Add(rng() % 3 ? "20" + std::to_string(rng() % 100) + "-" + std::to_string(rng() % 14) + "-" + std::to_string(rng() % 33) : s);
    if (i % 97 == 0) col.AddMissing();  // a field the row did not have: its lane must read nothing
  }
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  CheckEveryLevel<int32_t>(date32(), col, syn, [&](const std::string& t, int32_t* out) {
    const bool ok = ParseDate(t, out);
    if (auto it = days.find(t); it != days.end()) {
      EXPECT_TRUE(ok) << t;
      EXPECT_EQ(*out, it->second) << t;
    }
    return ok;
  });
}

// Every byte value in each digit place of the kernels' shapes (an integer, a decimal, a date):
// the bytes next to the digits ('/' and ':') and the top-bit ones must not pass as digits at any level.
TEST(CsvConvert, EveryByteInADigitPlaceAtEveryLevel) {
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  auto column = [](const std::string& shape) {
    Column col;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] < '0' || shape[i] > '9') continue;
      for (int c = 1; c < 256; ++c) {
        std::string v = shape;
        v[i] = static_cast<char>(c);
        col.Add(v);
      }
    }
    return col;
  };
  Column ints = column("-1234567");
  CheckEveryLevel<int64_t>(int64(), ints, syn, [](const std::string& t, int64_t* out) { return ParseInt64(t, out); });
  Column decimals = column("-12345.67");
  CheckEveryLevel<double>(float64(), decimals, syn, [](const std::string& t, double* out) { return ParseFloat64(t, out); });
  Column dates = column("1998-09-02");
  CheckEveryLevel<int32_t>(date32(), dates, syn, [](const std::string& t, int32_t* out) { return ParseDate(t, out); });
}

// on_error=fail stops at the first bad row, wherever it falls in a group of 8; null tokens and
// quotes keep their meaning at every level.
TEST(CsvConvert, FirstBadRowNullTokensAndQuotesAtEveryLevel) {
  for (SimdLevel level : SupportedSimdLevels()) {
    SCOPED_TRACE(std::string(SimdLevelName(level)));
    for (int bad : {0, 5, 8, 13, 16}) {
      Column col;
      for (int r = 0; r < 20; ++r) col.Add(r == bad ? "1.5x" : r == bad + 2 ? "oops" : "2.25");
      ConvertError err;
      int64_t nulled = 0;
      auto arr = ConvertColumn(float64(), col.data(), col.spans.data(), 20, FieldSyntax::From(Plain(), Dialect{}), false,
                               &nulled, &err, default_memory_pool(), level);
      ASSERT_TRUE(arr.ok());
      EXPECT_EQ(err.failure, ConvertFailure::kBadValue);
      EXPECT_EQ(err.row, bad);
    }
    CsvOptions o;
    o.null_values = {"", "0", "-1", "1970-01-01"};
    const FieldSyntax syn = FieldSyntax::From(o, Dialect{});
    Column ints, dates;
    for (int r = 0; r < 16; ++r) {
      ints.Add(r % 3 == 0 ? std::string("0") : r % 3 == 1 ? std::string("-1") : fmt::format("\"{}\"", r));
      dates.Add(r % 2 ? "1970-01-01" : "1970-01-02");
    }
    ConvertError err;
    int64_t nulled = 0;
    auto a = ConvertColumn(int64(), ints.data(), ints.spans.data(), 16, syn, false, &nulled, &err, default_memory_pool(), level);
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->null_count(), 11);  // rows 0, 1, 3, 4, ... : "0" and "-1" are null tokens
    EXPECT_EQ(a->data()->values<int64_t>(1)[2], 2);
    EXPECT_EQ(a->data()->values<int64_t>(1)[14], 14);
    auto d = ConvertColumn(date32(), dates.data(), dates.spans.data(), 16, syn, false, &nulled, &err, default_memory_pool(), level);
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d->null_count(), 8);
    EXPECT_EQ(d->data()->values<int32_t>(1)[0], 1);
  }
}

// String values around the copy loop's fixed moves (1..70 bytes: 16, 32, 48 and 64 are
// where moves start and stop), with quoted, empty and missing fields between them, and the
// UTF-8 check that the loop skips when every byte it read was ASCII: a valid non-ASCII value,
// a non-ASCII byte just past a value, and invalid bytes deep in a long value or cut between
// two values must each still be found.
// Columns of one-byte values (the AVX-512 level takes 16 per step): every value and offset at
// every level, a lone quote character among them (its own text), a tail short of 16 rows, and
// a byte that is not UTF-8 reported at its row.
TEST(CsvConvert, OneByteStringsAtEveryLevel) {
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  for (SimdLevel level : SupportedSimdLevels()) {
    SCOPED_TRACE(std::string(SimdLevelName(level)));
    auto convert = [&](Column& col, ConvertError* err) {
      int64_t nulled = 0;
      return ConvertColumn(utf8(), col.data(), col.spans.data(), static_cast<int64_t>(col.spans.size()), syn, false,
                           &nulled, err, default_memory_pool(), level);
    };
    Column col;
    std::vector<std::string> want;
    for (int r = 0; r < 107; ++r) {
      const std::string v = r == 37 ? "\"" : std::string(1, static_cast<char>('A' + (r * 7) % 26));
      col.Add(v);
      want.push_back(v);
    }
    ConvertError err;
    auto arr = convert(col, &err);
    ASSERT_TRUE(arr.ok()) << arr.status().ToString();
    ASSERT_EQ(err.failure, ConvertFailure::kNone);
    ASSERT_EQ(arr->length(), 107);
    const BinaryArray strings(*arr);
    for (int64_t r = 0; r < 107; ++r) {
      EXPECT_EQ(std::string(strings.GetView(r)), want[static_cast<size_t>(r)]) << "row " << r;
      EXPECT_EQ(arr->data()->values<int32_t>(1)[r + 1], r + 1) << "row " << r;
    }
    Column bad;
    for (int r = 0; r < 40; ++r) bad.Add(r == 21 ? "\xC3" : "n");
    ConvertError e;
    EXPECT_TRUE(convert(bad, &e).ok());
    EXPECT_EQ(e.failure, ConvertFailure::kInvalidUtf8);
    EXPECT_EQ(e.row, 21);
  }
}

TEST(CsvConvert, StringsAroundTheCopyMovesAndTheirUtf8Check) {
  const FieldSyntax syn = FieldSyntax::From(Plain(), Dialect{});
  auto convert = [&](Column& col, ConvertError* err) {
    int64_t nulled = 0;
    return ConvertColumn(utf8(), col.data(), col.spans.data(), static_cast<int64_t>(col.spans.size()), syn, false,
                         &nulled, err, default_memory_pool(), ActiveSimdLevel());
  };
  // Groups whose longest field is 16, 32 or 64 bytes take one, two or four moves per value.
  for (size_t longest : {size_t{16}, size_t{17}, size_t{32}, size_t{33}, size_t{64}, size_t{70}}) {
    Column col;
    std::vector<std::string> want;  // "<null>" for a null
    for (size_t n = 1; n <= longest; ++n) {
      std::string v;
      for (size_t i = 0; i < n; ++i) v += static_cast<char>('a' + (n + i) % 26);
      col.Add(v);
      want.push_back(v);
      if (n % 9 == 0) {
        col.Add("\"say \"\"" + v.substr(0, 3) + "\"\"\"");
        want.push_back("say \"" + v.substr(0, 3) + "\"");
        col.Add("");
        want.push_back("<null>");
        col.AddMissing();
        want.push_back("<null>");
      }
    }
    ConvertError err;
    auto arr = convert(col, &err);
    ASSERT_TRUE(arr.ok()) << arr.status().ToString();
    ASSERT_EQ(err.failure, ConvertFailure::kNone);
    ASSERT_EQ(arr->length(), static_cast<int64_t>(want.size()));
    const BinaryArray strings(*arr);
    for (size_t r = 0; r < want.size(); ++r) {
      const int64_t i = static_cast<int64_t>(r);
      const std::string got = arr->data()->IsValid(i) ? std::string(strings.GetView(i)) : "<null>";
      EXPECT_EQ(got, want[r]) << "longest " << longest << ", row " << r;
    }
  }

  // Valid: a two-byte character in a short and in a long value, and one right past a value.
  Column utf;
  utf.Add("caf\xC3\xA9");
  utf.Add(std::string(50, 'x') + "\xC3\xA9");
  utf.Add("plain");
  utf.Add("\xC3\xA9t\xC3\xA9");
  ConvertError err;
  auto ok = convert(utf, &err);
  ASSERT_TRUE(ok.ok());
  ASSERT_EQ(err.failure, ConvertFailure::kNone);
  EXPECT_EQ(BinaryArray(*ok).GetView(1), std::string(50, 'x') + "\xC3\xA9");
  EXPECT_EQ(BinaryArray(*ok).GetView(3), "\xC3\xA9t\xC3\xA9");

  // Invalid: a stray byte at offset 40 of row 2, in a quoted value (copied outside the loop),
  // and a character cut between rows 1 and 2. Each gives the row of the first bad value.
  auto invalid_row = [&](Column& col) -> int64_t {
    ConvertError e;
    EXPECT_TRUE(convert(col, &e).ok());
    EXPECT_EQ(e.failure, ConvertFailure::kInvalidUtf8);
    return e.row;
  };
  Column bad;
  bad.Add("ok");
  bad.Add("fine");
  bad.Add(std::string(40, 'y') + "\xFF" + std::string(10, 'y'));
  EXPECT_EQ(invalid_row(bad), 2);
  Column quoted;
  quoted.Add("\"q\xFF\"");
  quoted.Add("ok");  // the bytes the moves read from here on are all ASCII
  EXPECT_EQ(invalid_row(quoted), 0);
  Column cut;
  cut.Add("ok");
  cut.Add("x\xC3");
  cut.Add("\xA9y");
  EXPECT_EQ(invalid_row(cut), 1);
}

}  // namespace
}  // namespace quiver::csv
