// Type inference on real-world shapes: codes with leading zeros stay text; dates in day-first,
// month-first and year-first forms get a format when the sample allows one reading only.
#include <gtest/gtest.h>

#include <string>

#include "quiver/columnar/pretty_print.h"
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

}  // namespace
}  // namespace quiver::csv
