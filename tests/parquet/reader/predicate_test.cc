// Row-group skipping decisions on hand-built statistics (exact and truncated bounds, unsigned
// and byte-wise orders, NaN, null-only and missing statistics) and the exact row filter.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/columnar/builder.h"
#include "quiver/core/bit_util.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/parquet/reader/predicate.h"

namespace quiver::parquet {
namespace {

// Statistics hold views; the test keeps the bytes alive here.
struct Stats {
  std::string min_bytes, max_bytes;
  Statistics s;
};

template <typename T>
std::string Bytes(T v) {
  std::string b(sizeof(T), '\0');
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}

// min_value/max_value (the current fields), exact unless told.
Stats Current(std::string lo, std::string hi, std::optional<int64_t> nulls = 0) {
  Stats st;
  st.min_bytes = std::move(lo);
  st.max_bytes = std::move(hi);
  st.s.null_count = nulls;
  return st;
}
const Statistics* Fix(Stats& st, bool legacy = false) {
  if (legacy) {
    st.s.min = OptionalBinary(std::string_view(st.min_bytes));
    st.s.max = OptionalBinary(std::string_view(st.max_bytes));
  } else {
    st.s.min_value = OptionalBinary(std::string_view(st.min_bytes));
    st.s.max_value = OptionalBinary(std::string_view(st.max_bytes));
  }
  return &st.s;
}

BoundPredicate Pred(Type physical, CompareOp op, Literal v, bool is_unsigned = false) {
  BoundPredicate p;
  p.field = 0;
  p.leaf = 0;
  p.physical = physical;
  p.is_unsigned = is_unsigned;
  p.op = op;
  p.value = std::move(v);
  return p;
}

TEST(StatisticsMayMatch, SignedIntegersEveryOperator) {
  Stats st = Current(Bytes<int64_t>(-10), Bytes<int64_t>(20));
  const Statistics* s = Fix(st);
  auto may = [&](CompareOp op, int64_t v) { return StatisticsMayMatch(Pred(Type::INT64, op, Literal::Int(v)), s, 100); };
  EXPECT_FALSE(may(CompareOp::kEq, -11));
  EXPECT_TRUE(may(CompareOp::kEq, -10));
  EXPECT_TRUE(may(CompareOp::kEq, 20));
  EXPECT_FALSE(may(CompareOp::kEq, 21));
  EXPECT_FALSE(may(CompareOp::kLt, -10));
  EXPECT_TRUE(may(CompareOp::kLt, -9));
  EXPECT_FALSE(may(CompareOp::kLe, -11));
  EXPECT_TRUE(may(CompareOp::kLe, -10));
  EXPECT_FALSE(may(CompareOp::kGt, 20));
  EXPECT_TRUE(may(CompareOp::kGt, 19));
  EXPECT_FALSE(may(CompareOp::kGe, 21));
  EXPECT_TRUE(may(CompareOp::kGe, 20));
  EXPECT_TRUE(may(CompareOp::kNe, 5));
  EXPECT_TRUE(may(CompareOp::kNe, -10));  // min == literal but max differs
}

TEST(StatisticsMayMatch, NotEqualSkipsOnlyAnExactSingleValue) {
  Stats st = Current(Bytes<int32_t>(7), Bytes<int32_t>(7));
  const Statistics* s = Fix(st);
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kNe, Literal::Int(7)), s, 10));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kNe, Literal::Int(8)), s, 10));
  st.s.is_max_value_exact = false;  // 7 is only an upper bound: smaller values may be present
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kNe, Literal::Int(7)), s, 10));
}

TEST(StatisticsMayMatch, TruncatedStringBoundsStillBound) {
  // A writer truncated "abcdefgh..." to the lower bound "abc" and the upper bound "abd" (inexact).
  Stats st = Current("abc", "abd");
  st.s.is_min_value_exact = false;
  st.s.is_max_value_exact = false;
  const Statistics* s = Fix(st);
  auto may = [&](CompareOp op, std::string v) {
    return StatisticsMayMatch(Pred(Type::BYTE_ARRAY, op, Literal::Bytes(std::move(v))), s, 10);
  };
  EXPECT_TRUE(may(CompareOp::kEq, "abcdefgh"));
  EXPECT_TRUE(may(CompareOp::kEq, "abczzzz"));
  EXPECT_FALSE(may(CompareOp::kEq, "abda"));  // above the upper bound
  EXPECT_FALSE(may(CompareOp::kEq, "abb"));
  EXPECT_FALSE(may(CompareOp::kGt, "abd"));
  EXPECT_TRUE(may(CompareOp::kGt, "abczz"));
  EXPECT_FALSE(may(CompareOp::kLt, "abc"));
  EXPECT_TRUE(may(CompareOp::kLe, "abc"));
  EXPECT_TRUE(may(CompareOp::kNe, "abc"));
}

TEST(StatisticsMayMatch, StringsCompareBytewiseUnsigned) {
  Stats st = Current("apple", "zebra");
  const Statistics* s = Fix(st);
  // "é" is 0xC3 0xA9: above "zebra" byte-wise unsigned, below it if bytes were signed.
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kEq, Literal::Bytes("\xC3\xA9")), s, 3));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kGt, Literal::Bytes("zeb")), s, 3));
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kGt, Literal::Bytes("zebra")), s, 3));
  // A prefix sorts first.
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kLt, Literal::Bytes("apple")), s, 3));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kLt, Literal::Bytes("applf")), s, 3));
  // Legacy min/max of byte arrays were written in signed byte order: not used.
  Stats legacy = Current("apple", "zebra");
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::BYTE_ARRAY, CompareOp::kEq, Literal::Bytes("\xC3\xA9")),
                                 Fix(legacy, true), 3));
}

TEST(StatisticsMayMatch, UnsignedIntegersUseUnsignedOrder) {
  // UINT_32 values 1 .. 4294967295: the max's bytes read as int32 would be -1.
  Stats st = Current(Bytes<int32_t>(1), Bytes<int32_t>(-1));
  const Statistics* s = Fix(st);
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kGt, Literal::Int(100), true), s, 5));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kEq, Literal::Int(4294967295LL), true), s, 5));
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kEq, Literal::Int(0), true), s, 5));
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kLt, Literal::Int(-5), true), s, 5));
  // UINT_64 above INT64_MAX.
  Stats big = Current(Bytes<uint64_t>(1ULL << 63), Bytes<uint64_t>(~0ULL));
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT64, CompareOp::kLt, Literal::Int(1000), true), Fix(big), 5));
  EXPECT_TRUE(StatisticsMayMatch(
      Pred(Type::INT64, CompareOp::kEq, Literal::Int(static_cast<__int128>(~0ULL)), true), Fix(big), 5));
  // The legacy fields of unsigned columns were written in signed order: not used.
  Stats legacy = Current(Bytes<int32_t>(1), Bytes<int32_t>(-1));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kEq, Literal::Int(0), true), Fix(legacy, true), 5));
}

TEST(StatisticsMayMatch, LegacySignedFieldsAndColumnOrder) {
  Stats legacy = Current(Bytes<int32_t>(100), Bytes<int32_t>(200));
  const Statistics* s = Fix(legacy, true);
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kLt, Literal::Int(100)), s, 5));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT32, CompareOp::kLt, Literal::Int(101)), s, 5));
  // min_value/max_value under a column order the reader does not know are ignored.
  Stats cur = Current(Bytes<int32_t>(100), Bytes<int32_t>(200));
  BoundPredicate p = Pred(Type::INT32, CompareOp::kLt, Literal::Int(100));
  p.type_order = false;
  EXPECT_TRUE(StatisticsMayMatch(p, Fix(cur), 5));
  p.type_order = true;
  EXPECT_FALSE(StatisticsMayMatch(p, Fix(cur), 5));
}

TEST(StatisticsMayMatch, NullOnlyAndMissingStatistics) {
  Statistics all_null;
  all_null.null_count = 40;
  for (CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kGe}) {
    EXPECT_FALSE(StatisticsMayMatch(Pred(Type::INT64, op, Literal::Int(0)), &all_null, 40)) << CompareOpName(op);
  }
  Statistics some_null;
  some_null.null_count = 39;  // no min/max: nothing known about the one value
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT64, CompareOp::kEq, Literal::Int(0)), &some_null, 40));
  Statistics unknown;  // no null_count, no bounds
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT64, CompareOp::kEq, Literal::Int(0)), &unknown, 40));
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT64, CompareOp::kEq, Literal::Int(0)), nullptr, 40));
  // Bounds of the wrong width for the physical type conclude nothing.
  Stats odd = Current("abc", "abd");
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::INT64, CompareOp::kEq, Literal::Int(0)), Fix(odd), 40));
}

TEST(StatisticsMayMatch, FloatsAndNaN) {
  Stats st = Current(Bytes<double>(1.5), Bytes<double>(50.0), 0);
  const Statistics* s = Fix(st);
  auto may = [&](CompareOp op, double v) { return StatisticsMayMatch(Pred(Type::DOUBLE, op, Literal::Float(v)), s, 9); };
  // nan_count unknown: NaN (above every number) may satisfy > and >= and != unseen in max.
  EXPECT_TRUE(may(CompareOp::kGt, 100));
  EXPECT_TRUE(may(CompareOp::kGe, 100));
  EXPECT_FALSE(may(CompareOp::kLt, 1.5));
  EXPECT_FALSE(may(CompareOp::kEq, 100));
  st.s.nan_count = 0;
  EXPECT_FALSE(may(CompareOp::kGt, 50));
  EXPECT_TRUE(may(CompareOp::kGe, 50));
  st.s.nan_count = 2;
  EXPECT_TRUE(may(CompareOp::kGt, 50));
  // A NaN literal or a NaN bound: nothing concluded.
  EXPECT_TRUE(may(CompareOp::kEq, std::nan("")));
  Stats nan_max = Current(Bytes<float>(1.0f), Bytes<float>(std::nanf("")), 0);
  nan_max.s.nan_count = 0;
  EXPECT_TRUE(StatisticsMayMatch(Pred(Type::FLOAT, CompareOp::kLt, Literal::Float(0)), Fix(nan_max), 9));
  Stats f32 = Current(Bytes<float>(1.0f), Bytes<float>(2.0f), 0);
  EXPECT_FALSE(StatisticsMayMatch(Pred(Type::FLOAT, CompareOp::kLt, Literal::Float(1.0)), Fix(f32), 9));
}

TEST(EvaluatePredicate, NullsNeverMatchAndNaNSortsLast) {
  NumericBuilder<int32_t> ib(int32());
  for (int v : {5, 1, 9, 5}) ASSERT_TRUE(ib.Append(v).ok());
  ASSERT_TRUE(ib.AppendNull().ok());
  auto ints = ib.Finish();
  ASSERT_TRUE(ints.ok());
  int64_t n = -1;
  auto bits = EvaluatePredicate(*ints, CompareOp::kNe, Literal::Int(5), &n);
  ASSERT_TRUE(bits.ok()) << bits.status().ToString();
  EXPECT_EQ(n, 2);
  EXPECT_EQ((*bits)->data()[0], 0b00110);  // rows 1 and 2; the null (row 4) does not match !=
  bits = EvaluatePredicate(*ints, CompareOp::kGe, Literal::Int(5), &n);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)->data()[0], 0b01101);

  NumericBuilder<double> db(float64());
  for (double v : {1.0, std::nan(""), -0.0, 3.0}) ASSERT_TRUE(db.Append(v).ok());
  auto dbl = db.Finish();
  ASSERT_TRUE(dbl.ok());
  bits = EvaluatePredicate(*dbl, CompareOp::kGt, Literal::Float(2.0), &n);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)->data()[0], 0b1010);  // NaN and 3
  bits = EvaluatePredicate(*dbl, CompareOp::kEq, Literal::Float(std::nan("")), &n);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)->data()[0], 0b0010);
  bits = EvaluatePredicate(*dbl, CompareOp::kEq, Literal::Float(0.0), &n);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)->data()[0], 0b0100);  // -0.0 == 0.0

  NumericBuilder<uint64_t> ub(uint64());
  for (uint64_t v : {uint64_t{0}, ~uint64_t{0}, uint64_t{7}}) ASSERT_TRUE(ub.Append(v).ok());
  auto u = ub.Finish();
  ASSERT_TRUE(u.ok());
  bits = EvaluatePredicate(*u, CompareOp::kGt, Literal::Int(-1), &n);  // every unsigned value is > -1
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(n, 3);
  bits = EvaluatePredicate(*u, CompareOp::kGt, Literal::Int(std::numeric_limits<int64_t>::max()), &n);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)->data()[0], 0b010);

  EXPECT_FALSE(EvaluatePredicate(*ints, CompareOp::kEq, Literal::Bytes("5"), &n).ok());
}

// Columns without nulls take a loop per operator over the native values: each operator, on
// more rows than one byte of bits, agrees with the row-by-row comparison (NaN above every
// number and equal to itself; -0 equal to 0; an integer literal outside int32 handled whole).
TEST(EvaluatePredicate, DenseColumnsAgreeWithTheRowByRowRule) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> dv = {1.5, nan, -0.0, 0.0, 2.5, -3.0, 1.5, nan, 7.0, 0.5, 1.5};
  NumericBuilder<double> db(float64());
  for (double v : dv) ASSERT_TRUE(db.Append(v).ok());
  auto doubles = db.Finish();
  ASSERT_TRUE(doubles.ok());
  const std::vector<int32_t> iv = {5, -7, 0, 2147483647, 5, 9, -2147483647 - 1, 4, 5, 6};
  NumericBuilder<int32_t> ib(int32());
  for (int32_t v : iv) ASSERT_TRUE(ib.Append(v).ok());
  auto ints = ib.Finish();
  ASSERT_TRUE(ints.ok());
  auto bits_of = [](const Array& a, CompareOp op, const Literal& lit) {
    int64_t n = 0;
    auto bits = EvaluatePredicate(a, op, lit, &n);
    std::string out;
    if (!bits.ok()) return bits.status().ToString();
    for (int64_t i = 0; i < a.length(); ++i) out += bit_util::GetBit((*bits)->data(), i) ? '1' : '0';
    return out + " " + std::to_string(n);
  };
  EXPECT_EQ(bits_of(*doubles, CompareOp::kEq, Literal::Float(1.5)), "10000010001 3");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kNe, Literal::Float(1.5)), "01111101110 8");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kLt, Literal::Float(1.5)), "00110100010 4");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kLe, Literal::Float(1.5)), "10110110011 7");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kGt, Literal::Float(1.5)), "01001001100 4");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kGe, Literal::Float(1.5)), "11001011101 7");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kEq, Literal::Float(0.0)), "00110000000 2");
  EXPECT_EQ(bits_of(*doubles, CompareOp::kEq, Literal::Float(nan)), "01000001000 2");
  EXPECT_EQ(bits_of(*ints, CompareOp::kGe, Literal::Int(5)), "1001110011 6");
  EXPECT_EQ(bits_of(*ints, CompareOp::kLt, Literal::Int(0)), "0100001000 2");
  EXPECT_EQ(bits_of(*ints, CompareOp::kNe, Literal::Int(5)), "0111011101 7");
  EXPECT_EQ(bits_of(*ints, CompareOp::kLt, Literal::Int(int64_t{1} << 40)), "1111111111 10");
  EXPECT_EQ(bits_of(*ints, CompareOp::kEq, Literal::Int(-(int64_t{1} << 40))), "0000000000 0");
}

// Flat columns are copied row by row: nulls, booleans, strings and a sliced batch (offsets
// into its buffers) keep their values; a count that disagrees with the bits is refused.
TEST(FilterBatch, CopiesNullsBooleansStringsAndSlices) {
  NumericBuilder<int32_t> nb(int32());
  BooleanBuilder bb;
  BinaryBuilder sb(utf8());
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE((i % 4 == 1 ? nb.AppendNull() : nb.Append(i)).ok());
    ASSERT_TRUE(bb.Append(i % 4 == 0).ok());
    ASSERT_TRUE(sb.Append(std::string(static_cast<size_t>(i % 5), static_cast<char>('a' + i))).ok());
  }
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{field("n", int32()), field("b", boolean()), field("s", utf8())});
  auto whole = std::make_shared<RecordBatch>(schema, 20, std::vector<Array>{*nb.Finish(), *bb.Finish(), *sb.Finish()});
  auto batch = whole->Slice(3, 12);  // rows 3..14
  const uint8_t keep[2] = {0b10100110, 0b0101};  // rows 1, 2, 5, 7, 8, 10 of the slice: 4, 5, 8, 10, 11, 13
  auto f = FilterBatch(batch, keep, 6);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->num_rows(), 6);
  EXPECT_EQ(ArrayToString((*f)->column(0)), "[4, null, 8, 10, 11, null]");
  EXPECT_EQ((*f)->column(0).null_count(), 2);
  EXPECT_EQ(ArrayToString((*f)->column(1)), "[true, false, true, false, false, false]");
  EXPECT_EQ(ArrayToString((*f)->column(2)), "[\"eeee\", \"\", \"iii\", \"\", \"l\", \"nnn\"]");
  EXPECT_EQ(FilterBatch(batch, keep, 5).status().message(), "filter: 5 rows said to be selected, the selection holds 6");
}

TEST(FilterBatch, KeepsSelectedRowsInOrderAcrossRuns) {
  BinaryBuilder sb(utf8());
  NumericBuilder<int64_t> kb(int64());
  const char* words[] = {"AIR", "RAIL", "SHIP", "AIR", "é", "AIR", "TRUCK"};
  for (int i = 0; i < 7; ++i) {
    ASSERT_TRUE(sb.Append(words[i]).ok());
    ASSERT_TRUE(kb.Append(i * 10).ok());
  }
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("mode", utf8()), field("k", int64())});
  auto batch = std::make_shared<RecordBatch>(schema, 7, std::vector<Array>{*sb.Finish(), *kb.Finish()});
  int64_t n = 0;
  auto bits = EvaluatePredicate(batch->column(0), CompareOp::kLe, Literal::Bytes("AIR"), &n);
  ASSERT_TRUE(bits.ok());
  auto f = FilterBatch(batch, (*bits)->data(), n);
  ASSERT_TRUE(f.ok()) << f.status().ToString();
  EXPECT_EQ((*f)->num_rows(), 3);
  EXPECT_EQ(ArrayToString((*f)->column(1)), "[0, 30, 50]");
  bits = EvaluatePredicate(batch->column(0), CompareOp::kGt, Literal::Bytes("TRUCK"), &n);  // "é" only
  ASSERT_TRUE(bits.ok());
  f = FilterBatch(batch, (*bits)->data(), n);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(ArrayToString((*f)->column(1)), "[40]");
  bits = EvaluatePredicate(batch->column(1), CompareOp::kLt, Literal::Int(0), &n);
  ASSERT_TRUE(bits.ok());
  f = FilterBatch(batch, (*bits)->data(), n);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ((*f)->num_rows(), 0);
  bits = EvaluatePredicate(batch->column(1), CompareOp::kGe, Literal::Int(0), &n);
  ASSERT_TRUE(bits.ok());
  f = FilterBatch(batch, (*bits)->data(), n);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->get(), batch.get());  // everything selected: the batch itself
}

}  // namespace
}  // namespace quiver::parquet
