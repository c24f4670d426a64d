// Every type of the map (docs/postgres.md) loaded through the library's writer (two
// connections, sliced batches) and read back with COPY ... TO STDOUT, compared value by value
// with the source columns: nulls, integer limits, decimal(38,10), dates before 1970 and after
// 2262, NaN and infinities, empty strings, multi-byte UTF-8, bytes with NUL, arrays, JSON.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <optional>

#include "postgres/pg_test_util.h"
#include "quiver/columnar/builder.h"
#include "quiver/columnar/value_text.h"
#include "quiver/postgres/load.h"

namespace quiver::testing {
namespace {

#define CHECK_OK(expr) ASSERT_TRUE((expr).ok())

template <typename T>
Array Num(TypePtr type, const std::vector<std::optional<T>>& v) {
  NumericBuilder<T> b(std::move(type));
  for (const auto& x : v) {
    if (x) (void)b.Append(*x);
    else (void)b.AppendNull();
  }
  return *b.Finish();
}

Array Bools(const std::vector<std::optional<bool>>& v) {
  BooleanBuilder b;
  for (const auto& x : v) (void)(x ? b.Append(*x) : b.AppendNull());
  return *b.Finish();
}

Array Bin(TypePtr type, const std::vector<std::optional<std::string>>& v) {
  BinaryBuilder b(std::move(type));
  for (const auto& x : v) (void)(x ? b.Append(*x) : b.AppendNull());
  return *b.Finish();
}

Array Dec(int p, int s, const std::vector<std::optional<__int128>>& v) {
  FixedSizeBinaryBuilder b(decimal128(p, s));
  for (const auto& x : v) (void)(x ? b.AppendDecimal(*x) : b.AppendNull());
  return *b.Finish();
}

__int128 Pow10(int n) {
  __int128 r = 1;
  while (n--) r *= 10;
  return r;
}

std::string Hex(std::string_view s) {
  static const char* d = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += d[c >> 4];
    out += d[c & 15];
  }
  return out;
}

// The text the read-back query gives for source value i of column a ("\\N" for null).
std::string Expected(const Array& a, int64_t i) {
  if (a.IsNull(i)) return "\\N";
  const ArrayData& d = *a.data();
  switch (a.type_id()) {
    case TypeId::kBool: return BooleanArray(a).Value(i) ? "t" : "f";
    case TypeId::kInt8: return std::to_string(d.values<int8_t>()[i]);
    case TypeId::kInt16: return std::to_string(d.values<int16_t>()[i]);
    case TypeId::kInt32: return std::to_string(d.values<int32_t>()[i]);
    case TypeId::kInt64: return std::to_string(d.values<int64_t>()[i]);
    case TypeId::kUInt8: return std::to_string(d.values<uint8_t>()[i]);
    case TypeId::kUInt16: return std::to_string(d.values<uint16_t>()[i]);
    case TypeId::kUInt32: return std::to_string(d.values<uint32_t>()[i]);
    case TypeId::kUInt64: return std::to_string(d.values<uint64_t>()[i]);
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, FixedSizeBinaryArray(a).GetValue(i), 16);
      std::string s;
      FormatDecimal(v, a.type()->scale(), &s);
      return s;
    }
    case TypeId::kDate32: return std::to_string(d.values<int32_t>()[i]);  // days since 1970
    case TypeId::kTimestamp: {
      const int64_t v = d.values<int64_t>()[i];
      return std::to_string(a.type()->unit() == TimeUnit::kNano ? v / 1000 : v);  // microseconds
    }
    case TypeId::kTime64: return std::to_string(d.values<int64_t>()[i]);
    case TypeId::kString: return std::string(BinaryArray(a).GetView(i));
    case TypeId::kBinary: return Hex(BinaryArray(a).GetView(i));
    case TypeId::kList: {
      ListArray l(a);
      std::string s = "{";
      Array v = l.values();
      for (int32_t j = l.value_offset(i); j < l.value_offset(i) + l.value_length(i); ++j) {
        if (s.size() > 1) s += ",";
        s += v.IsNull(j) ? "NULL" : std::to_string(v.data()->values<int64_t>()[j]);
      }
      return s + "}";
    }
    case TypeId::kFixedSizeBinary: {
      const std::string h = Hex(FixedSizeBinaryArray(a).GetView(i));
      return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
    }
    default: return "?";
  }
}

class PgTypesTest : public PgTest {};

TEST_F(PgTypesTest, EveryMappedTypeRoundTrips) {
  using L = std::numeric_limits<int64_t>;
  const float nanf = std::numeric_limits<float>::quiet_NaN(), inff = std::numeric_limits<float>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const __int128 max38 = Pow10(38) - 1;

  std::vector<Field> fields;
  std::vector<Array> cols;
  auto add = [&](std::string name, Array a, KeyValueMetadata md = {}) {
    fields.push_back(field(std::move(name), a.type(), true, std::move(md)));
    cols.push_back(std::move(a));
  };
  add("id", Num<int32_t>(int32(), {0, 1, 2, 3, 4, 5}));
  add("b", Bools({true, std::nullopt, false, true, false, true}));
  add("i8", Num<int8_t>(int8(), {1, std::nullopt, -128, 127, 0, 5}));
  add("i16", Num<int16_t>(int16(), {1, std::nullopt, -32768, 32767, 0, 5}));
  add("i32", Num<int32_t>(int32(), {1, std::nullopt, INT32_MIN, INT32_MAX, 0, 5}));
  add("i64", Num<int64_t>(int64(), {1, std::nullopt, L::min(), L::max(), 0, -5}));
  add("u8", Num<uint8_t>(uint8(), {1, std::nullopt, 0, 255, 0, 5}));
  add("u16", Num<uint16_t>(uint16(), {1, std::nullopt, 0, 65535, 0, 5}));
  add("u32", Num<uint32_t>(uint32(), {1, std::nullopt, 0, 4294967295u, 0, 5}));
  add("u64", Num<uint64_t>(uint64(), {1, std::nullopt, 0, std::numeric_limits<uint64_t>::max(), 10000, 5}));
  add("f32", Num<float>(float32(), {1.5f, std::nullopt, -FLT_MAX, FLT_MAX, nanf, inff}));
  add("f64", Num<double>(float64(), {0.1, std::nullopt, -DBL_MAX, 4.9e-324, nan, -inf}));
  add("d38", Dec(38, 10, {123456789012345, std::nullopt, -max38, max38, 0, 1}));
  add("d9", Dec(9, 2, {123456789, std::nullopt, -999999999, 999999999, 0, -1}));
  add("d20", Dec(20, 0, {10000, std::nullopt, -Pow10(20) + 1, Pow10(20) - 1, 0, 100000000}));
  add("dt", Num<int32_t>(date32(), {0, std::nullopt, -719162, 2932896, -25567, 193744}));
  const int64_t min_us = -62135596800000000, max_us = 253402300799999999;
  add("ts", Num<int64_t>(timestamp(TimeUnit::kMicro), {0, std::nullopt, min_us, max_us, -1, 1000000000000}));
  add("tsz", Num<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {0, std::nullopt, min_us, max_us, -1, 1}));
  add("tns", Num<int64_t>(timestamp(TimeUnit::kNano), {1000, std::nullopt, -9223372036854775000,
                                                        9223372036854775000, 0, -1000}));
  add("tm", Num<int64_t>(time64(TimeUnit::kMicro), {0, std::nullopt, 86399999999, 12345678, 0, 1}));
  add("s", Bin(utf8(), {"hello", std::nullopt, "", "ü€😀 multi-byte", "tab\tnew\nline\\back", "x"}));
  add("bin", Bin(binary(), {std::string("\0\1\xff", 3), std::nullopt, "", std::string("\0", 1), "abc",
                            std::string("\0\0", 2)}));
  {
    ListBuilder lb(list(int64()), std::make_unique<NumericBuilder<int64_t>>(int64()));
    auto* v = static_cast<NumericBuilder<int64_t>*>(lb.value_builder());
    (void)lb.Append(); (void)v->Append(1); (void)v->Append(2); (void)v->Append(3);
    (void)lb.AppendNull();
    (void)lb.Append();
    (void)lb.Append(); (void)v->AppendNull(); (void)v->Append(L::min());
    (void)lb.Append(); (void)v->Append(L::max());
    (void)lb.Append(); (void)v->Append(0);
    add("li", *lb.Finish());
  }
  {
    ListBuilder lb(list(utf8()), std::make_unique<BinaryBuilder>(utf8()));
    auto* v = static_cast<BinaryBuilder*>(lb.value_builder());
    (void)lb.Append(); (void)v->Append("a"); (void)v->Append("b c");
    (void)lb.AppendNull();
    (void)lb.Append();
    (void)lb.Append(); (void)v->Append("");
    (void)lb.Append(); (void)v->Append("ü");
    (void)lb.Append(); (void)v->AppendNull();
    add("ls", *lb.Finish());
  }
  {
    std::vector<std::unique_ptr<ArrayBuilder>> fb;
    fb.push_back(std::make_unique<NumericBuilder<int32_t>>(int32()));
    fb.push_back(std::make_unique<BinaryBuilder>(utf8()));
    StructBuilder sb(struct_({field("a", int32()), field("b", utf8())}), std::move(fb));
    auto* fa = static_cast<NumericBuilder<int32_t>*>(sb.field_builder(0));
    auto* fs = static_cast<BinaryBuilder*>(sb.field_builder(1));
    (void)sb.Append(); (void)fa->Append(1); (void)fs->Append("x");
    (void)sb.AppendNull();
    (void)sb.Append(); (void)fa->AppendNull(); (void)fs->AppendNull();
    (void)sb.Append(); (void)fa->Append(-1); (void)fs->Append("q\"uote");
    (void)sb.Append(); (void)fa->Append(2); (void)fs->Append("");
    (void)sb.Append(); (void)fa->Append(3); (void)fs->Append("ü");
    add("st", *sb.Finish());
  }
  {
    FixedSizeBinaryBuilder ub(fixed_size_binary(16));
    std::string u(16, '\0');
    for (int r = 0; r < 6; ++r) {
      if (r == 1) {
        (void)ub.AppendNull();
        continue;
      }
      for (int k = 0; k < 16; ++k) u[static_cast<size_t>(k)] = static_cast<char>(r * 40 + k * 15);
      (void)ub.Append(u);
    }
    add("uuid", *ub.Finish(), {{"ARROW:extension:name", "arrow.uuid"}});
  }
  auto schema = std::make_shared<Schema>(fields);
  auto batch = RecordBatch::Make(schema, cols);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();

  // Two batches of sliced arrays (offsets 0 and 3) over two connections.
  VectorReader reader({(*batch)->Slice(0, 3), (*batch)->Slice(3, 3)});
  postgres::LoadOptions lo;
  lo.table = "all_types";
  lo.connections = 2;
  auto loaded = postgres::Load(reader, conninfo(), lo);
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded->rows, 6);

  EXPECT_EQ(One("SELECT string_agg(format_type(atttypid, atttypmod), ',' ORDER BY attnum) FROM pg_attribute "
                "WHERE attrelid = 'all_types'::regclass AND attnum > 0"),
            "integer,boolean,smallint,smallint,integer,bigint,smallint,integer,bigint,numeric(20,0),real,"
            "double precision,numeric(38,10),numeric(9,2),numeric(20,0),date,timestamp without time zone,"
            "timestamp with time zone,timestamp without time zone,time without time zone,text,bytea,bigint[],"
            "text[],jsonb,uuid");

  std::string select = "SELECT ";
  for (const Field& f : fields) {
    const std::string c = postgres::QuoteIdent(f.name);
    std::string e = c;
    switch (f.type->id()) {
      case TypeId::kDate32: e = "(" + c + " - date '1970-01-01')"; break;
      case TypeId::kTimestamp: case TypeId::kTime64:
        e = "(extract(epoch from " + c + ") * 1000000)::numeric(40,0)";
        break;
      case TypeId::kBinary: e = "encode(" + c + ", 'hex')"; break;
      default: break;
    }
    select += (select.size() > 7 ? ", " : "") + e;
  }
  const auto rows = CopyRows(select + " FROM all_types ORDER BY id");
  ASSERT_EQ(rows.size(), 6u);
  const std::vector<std::string> ls = {"{a,\"b c\"}", "\\N", "{}", "{\"\"}", "{ü}", "{NULL}"};
  const std::vector<std::string> st = {"{\"a\": 1, \"b\": \"x\"}", "\\N", "{\"a\": null, \"b\": null}",
                                       "{\"a\": -1, \"b\": \"q\\\"uote\"}", "{\"a\": 2, \"b\": \"\"}",
                                       "{\"a\": 3, \"b\": \"ü\"}"};
  for (int64_t r = 0; r < 6; ++r) {
    ASSERT_EQ(rows[r].size(), fields.size());
    for (size_t c = 0; c < fields.size(); ++c) {
      const std::string& got = rows[r][c];
      const Array& a = cols[c];
      SCOPED_TRACE(fields[c].name + " row " + std::to_string(r));
      if (fields[c].name == "ls") {
        EXPECT_EQ(got, ls[r]);
      } else if (fields[c].name == "st") {
        EXPECT_EQ(got, st[r]);
      } else if (a.type_id() == TypeId::kFloat32 || a.type_id() == TypeId::kFloat64) {
        if (a.IsNull(r)) {
          EXPECT_EQ(got, "\\N");
          continue;
        }
        const double want = a.type_id() == TypeId::kFloat32 ? a.data()->values<float>()[r] : a.data()->values<double>()[r];
        const double have = a.type_id() == TypeId::kFloat32 ? std::strtof(got.c_str(), nullptr) : std::strtod(got.c_str(), nullptr);
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(have)) << got;
        else EXPECT_EQ(have, want) << got;
      } else {
        EXPECT_EQ(got, Expected(a, r));
      }
    }
  }
  EXPECT_EQ(StagingTables(), 0);
}

// Values the target type cannot hold stop the load before anything is visible, naming the
// column and the input row; so do sub-microsecond timestamps, which PostgreSQL would round.
TEST_F(PgTypesTest, OutOfRangeValuesNameColumnAndRow) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("n", int64()), field("t", timestamp(TimeUnit::kNano))});
  auto b1 = *RecordBatch::Make(schema, {Num<int64_t>(int64(), {1, 2}), Num<int64_t>(timestamp(TimeUnit::kNano), {0, 1000})});
  auto b2 = *RecordBatch::Make(schema, {Num<int64_t>(int64(), {3, 4}), Num<int64_t>(timestamp(TimeUnit::kNano), {0, 1001})});
  VectorReader reader({b1, b2});
  postgres::LoadOptions lo;
  lo.table = "ns_table";
  auto loaded = postgres::Load(reader, conninfo(), lo);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().message(),
            "postgres: \"public\".\"ns_table\": column 't', row 4: 1001 has digits finer than the microseconds "
            "PostgreSQL's timestamp keeps");
  EXPECT_EQ(One("SELECT to_regclass('ns_table') IS NULL"), "t");
  EXPECT_EQ(StagingTables(), 0);
}

}  // namespace
}  // namespace quiver::testing
