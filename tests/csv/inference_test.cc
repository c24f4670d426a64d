// Type inference on real-world shapes: codes with leading zeros stay text; dates in day-first,
// month-first and year-first forms get a format when the sample allows one reading only.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/date_format.h"
#include "quiver/csv/reader.h"

namespace quiver::csv {
namespace {

std::shared_ptr<Buffer> Bytes(const std::string& s) {
  return *Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

struct Read {
  Status status;
  std::string types;  // "name:type" per column, formats after a space
  std::string rows;   // "v|v" per row
};

Read ReadText(const std::string& text, CsvOptions o = {}) {
  Read out;
  auto r = CsvReader::OpenBuffer(Bytes(text), o, "t.csv");
  if (!r.ok()) {
    out.status = r.status();
    return out;
  }
  for (int c = 0; c < (*r)->schema()->num_fields(); ++c) {
    if (c) out.types += ",";
    out.types += (*r)->schema()->field(c).name + ":" + (*r)->schema()->field(c).type->ToString();
    if (!(*r)->column_format(c).empty()) out.types += " " + (*r)->column_format(c);
  }
  auto b = (*r)->ReadAll();
  if (!b.ok()) {
    out.status = b.status();
    return out;
  }
  for (int64_t row = 0; row < (*b)->num_rows(); ++row) {
    for (int c = 0; c < (*b)->num_columns(); ++c) {
      if (c) out.rows += "|";
      FormatValue((*b)->column(c), row, &out.rows);
    }
    out.rows += "\n";
  }
  return out;
}

// One value written with a leading zero makes a column text: the codes keep their zeros.
// Zero itself, a signed zero and a fraction below one are numbers.
TEST(CsvInference, LeadingZerosKeepACodeColumnText) {
  Read r = ReadText(
      "zip,fips,neg,plus,dec,zero,frac,twozeros\n"
      "00501,01,-01,+01,007.5,0,0.5,00\n"
      "12345,9005,2,2,2.5,-0,-0.25,1\n");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.types,
            "zip:string,fips:string,neg:string,plus:string,dec:string,zero:int64,frac:double,twozeros:string");
  EXPECT_EQ(r.rows, "00501|01|-01|+01|007.5|0|0.5|00\n12345|9005|2|2|2.5|0|-0.25|1\n");
  // A zero-padded code late in the sample is enough.
  std::string late = "county\n";
  for (int i = 1; i < 500; ++i) late += std::to_string(1000 + i) + "\n";
  late += "09005\n";
  EXPECT_EQ(ReadText(late).types, "county:string");
  // An explicit number type still reads the code as a number.
  CsvOptions o;
  o.column_types = {{"zip", int64()}};
  EXPECT_EQ(ReadText("zip\n00501\n", o).rows, "501\n");
}

// Day-first or month-first is decided by a value above 12; year-first, dots, dashes and times
// as they come. The whole sample must fit one format.
TEST(CsvInference, NonIsoDatesGetTheOneFormatTheSampleAllows) {
  Read r = ReadText(
      "us,eu,ymd,dots,dashes,stamp,minutes\n"
      "1/1/1948,24/08/2008,2015/01/01,24.12.2019,31-01-2000,2015/01/01 01:00:00,7/4/2021 9:05\n"
      "12/31/1999,1/2/2008,2015/1/2,1.2.2019,1-2-2000,2015/01/02 13:05:09.25,7/14/2021 23:59\n");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.types,
            "us:date32 %m/%d/%Y,eu:date32 %d/%m/%Y,ymd:date32 %Y/%m/%d,dots:date32 %d.%m.%Y,dashes:date32 %d-%m-%Y,"
            "stamp:timestamp[us] %Y/%m/%d %H:%M:%S,minutes:timestamp[us] %m/%d/%Y %H:%M");
  EXPECT_EQ(r.rows,
            "1948-01-01|2008-08-24|2015-01-01|2019-12-24|2000-01-31|2015-01-01 01:00:00|2021-07-04 09:05:00\n"
            "1999-12-31|2008-02-01|2015-01-02|2019-02-01|2000-02-01|2015-01-02 13:05:09.250000|2021-07-14 23:59:00\n");
}

// Readings that stay ambiguous, formats that disagree and impossible dates leave the column
// text; ISO dates keep their own (format-free) path.
TEST(CsvInference, NeverGuessesADateFormat) {
  Read r = ReadText(
      "ambiguous,mixed,impossible,iso,two_digit\n"
      "1/2/2008,24/08/2008,31/02/2008,2008-08-24,7/1/68\n"
      "3/4/2008,12/31/2008,30/02/2008,2008-08-25,12/25/68\n");
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.types, "ambiguous:string,mixed:string,impossible:string,iso:date32,two_digit:string");
  // Two-digit years only in a window the caller names: then 68 is 1968, not DuckDB's 2068.
  CsvOptions o;
  o.two_digit_years_from = 1930;
  r = ReadText("two_digit\n7/1/68\n12/25/68\n1/1/29\n", o);
  EXPECT_EQ(r.types, "two_digit:date32 %m/%d/%y");
  EXPECT_EQ(r.rows, "1968-07-01\n1968-12-25\n2029-01-01\n");
}

// A named format reads the whole file; a later value that does not fit is the usual error,
// with the format, at every thread count and block size.
TEST(CsvInference, ExplicitFormatsAndLateValues) {
  std::vector<std::pair<std::string, std::string>> formats;
  auto types = ParseColumnTypes("d=date:%d/%m/%Y,t=timestamp:%d.%m.%Y %H:%M", &formats);
  ASSERT_TRUE(types.ok()) << types.status().message();
  CsvOptions o;
  o.column_types = *types;
  o.column_formats = formats;
  Read r = ReadText("d,t\n1/2/2008,3.4.2009 5:06\n", o);
  EXPECT_EQ(r.types, "d:date32 %d/%m/%Y,t:timestamp[us] %d.%m.%Y %H:%M");
  EXPECT_EQ(r.rows, "2008-02-01|2009-04-03 05:06:00\n");

  std::string text = "id,when\n";
  for (int i = 0; i < 3000; ++i) text += std::to_string(i) + "," + std::to_string(i % 28 + 1) + "/10/2020\n";
  const size_t bad_byte = text.size() + 5;
  text += "3000,2020-10-01\n";
  for (int threads : {1, 2}) {
    for (int64_t block : {int64_t{4} << 20, int64_t{1000}}) {
      CsvOptions late;
      late.threads = threads;
      late.block_size = block;
      late.infer_rows = 100;
      r = ReadText(text, late);
      EXPECT_EQ(r.types, "id:int64,when:date32 %d/%m/%Y");
      EXPECT_EQ(r.status.message(),
                fmt::format("t.csv:3002:2 'when': cannot convert to date32 with format '%d/%m/%Y', got \"2020-10-01\" "
                            "(byte {}); the type was inferred from the first 100 rows",
                            bad_byte))
          << threads << " threads, block " << block;
    }
  }
  // --on-error skip and null judge the late value by the same format.
  CsvOptions skip;
  skip.infer_rows = 100;
  skip.on_error = OnError::kSkip;
  r = ReadText(text, skip);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(std::count(r.rows.begin(), r.rows.end(), '\n'), 3000);
  skip.on_error = OnError::kNull;
  r = ReadText(text, skip);
  EXPECT_EQ(r.rows.substr(r.rows.size() - 26), "2999|2020-10-04\n3000|null\n");
  // --infer-all sees the ISO value and keeps the column text.
  CsvOptions all;
  all.infer_all = true;
  all.infer_rows = 100;
  EXPECT_EQ(ReadText(text, all).types, "id:int64,when:string");
}

TEST(CsvInference, FormatErrorsSayWhatToPass) {
  std::vector<std::pair<std::string, std::string>> formats;
  EXPECT_EQ(ParseColumnTypes("a=int64:%Y", &formats).status().message(),
            "column type 'a=int64:%Y': only date, timestamp and timestamptz take a format");
  EXPECT_EQ(ParseColumnTypes("a=date:%Y").status().message(),
            "column type 'a=date:%Y': formats are not accepted here");
  CsvOptions o;
  o.column_types = {{"d", date32()}};
  o.column_formats = {{"d", "%m/%d/%y"}};
  EXPECT_EQ(ReadText("d\n1/2/08\n", o).status.message(),
            "t.csv: column 'd': date format '%m/%d/%y' has a two-digit year (%y): say which century with "
            "two_digit_years_from (e.g. 1930 reads 30..99 as 1930..1999 and 00..29 as 2000..2029)");
  o.column_formats = {{"d", "%d/%m/%Y %H"}};
  EXPECT_EQ(ReadText("d\n1/2/2008 3\n", o).status.message(),
            "t.csv: column 'd': date format '%d/%m/%Y %H' has time fields: use timestamp:%d/%m/%Y %H");
  o.column_formats = {{"d", "%d/%b/%Y"}};
  EXPECT_EQ(ReadText("d\n1/Feb/2008\n", o).status.message(),
            "t.csv: column 'd': date format '%d/%b/%Y': unknown directive %b (known: %Y %y %m %d %H %M %S %%)");
  o.column_types = {{"d", int64()}};
  o.column_formats = {{"d", "%d/%m/%Y"}};
  EXPECT_EQ(ReadText("d\n1\n", o).status.message(),
            "t.csv: column 'd' has a format ('%d/%m/%Y') but is not a date or timestamp column");
}

TEST(DateFormat, ParsesExactlyWhatThePatternSays) {
  auto f = DateFormat::Compile("%d/%m/%Y %H:%M:%S", true, std::nullopt);
  ASSERT_TRUE(f.ok());
  int64_t us = 0;
  EXPECT_TRUE(f->ParseMicros("29/2/2000 23:59:59.1234567", &us));
  EXPECT_EQ(us, 951868799123456);
  EXPECT_FALSE(f->ParseMicros("29/2/1900 00:00:00", &us));   // 1900 is no leap year
  EXPECT_FALSE(f->ParseMicros("1/1/2000 24:00:00", &us));
  EXPECT_FALSE(f->ParseMicros("1/1/2000 1:00:00 ", &us));    // trailing byte
  EXPECT_FALSE(f->ParseMicros("1/1/200 1:00:00", &us));      // %Y takes four digits
  EXPECT_FALSE(f->ParseMicros("001/1/2000 1:00:00", &us));   // %d takes at most two
  EXPECT_FALSE(f->ParseMicros("1/1/2000 1:00:00.", &us));
  auto y = DateFormat::Compile("%y%m%d", false, 2000);
  ASSERT_TRUE(y.ok());
  int32_t days = 0;
  EXPECT_TRUE(y->ParseDays("991231", &days));
  EXPECT_EQ(days, 47481);  // 2099-12-31: the window is 2000..2099
  EXPECT_TRUE(y->ParseDays("000101", &days));
  EXPECT_EQ(days, 10957);
  EXPECT_EQ(DateFormatCandidates(std::nullopt).size(), 24u);
  EXPECT_EQ(DateFormatCandidates(1950).size(), 42u);
}

}  // namespace
}  // namespace quiver::csv
