// The where-clause parser (`quiver cat --where`, Python's filter operators) and its binding to
// a schema's column, and OpenReader's columns and where clause for every format.
#include <gtest/gtest.h>

#include <fstream>

#include "quiver/stream/open.h"
#include "quiver/stream/where.h"
#include "testing/scratch_dir.h"

namespace quiver::stream {
namespace {

using parquet::CompareOp;

TEST(Where, ParsesColumnOperatorAndLiteral) {
  auto w = ParseWhere(" \"l shipdate\" >= '1998-09-01' ");
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ(w->column, "l shipdate");
  EXPECT_EQ(w->op, CompareOp::kGe);
  EXPECT_EQ(w->literal, "1998-09-01");
  w = ParseWhere("name <> 'it''s'");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->op, CompareOp::kNe);
  EXPECT_EQ(w->literal, "it's");
  w = ParseWhere("id==3");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->op, CompareOp::kEq);
  EXPECT_EQ(w->literal, "3");
}

TEST(Where, RefusesWhatIsNotAPredicateNamingItsLabel) {
  auto w = ParseWhere("id ~ 3", "--where");
  EXPECT_EQ(w.status().message(),
            "--where 'id ~ 3': no operator; expected 'column op literal' with op one of = != <> < <= > >=");
  EXPECT_EQ(ParseWhere("= 3").status().message(),
            "where '= 3': no column; expected 'column op literal' with op one of = != <> < <= > >=");
  EXPECT_EQ(ParseWhere("id =").status().message(),
            "where 'id =': no literal; expected 'column op literal' with op one of = != <> < <= > >=");
  EXPECT_EQ(ParseWhere("id !3").status().message(),
            "where 'id !3': unknown operator; expected 'column op literal' with op one of = != <> < <= > >=");
}

TEST(Where, NamesOperators) {
  EXPECT_EQ(CompareOpFromName("<="), CompareOp::kLe);
  EXPECT_EQ(CompareOpFromName("=="), CompareOp::kEq);
  EXPECT_EQ(CompareOpFromName("<>"), CompareOp::kNe);
  EXPECT_EQ(CompareOpFromName("=<"), std::nullopt);
  EXPECT_EQ(CompareOpFromName(""), std::nullopt);
}

TEST(Where, BindsToAColumnOfTheSchema) {
  const Schema schema({{"id", int32()}, {"d", date32()}});
  WhereClause w{"d", CompareOp::kLt, "2024-01-02", "filter"};
  auto p = BindWhere(schema, w, "f.parquet");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->column, "d");
  EXPECT_EQ(p->op, CompareOp::kLt);
  w.column = "nope";
  EXPECT_EQ(BindWhere(schema, w, "f.parquet").status().message(), "f.parquet: filter: no column named 'nope'");
  w = WhereClause{"id", CompareOp::kEq, "3.5", "--where"};
  EXPECT_EQ(BindWhere(schema, w, "f.parquet").status().message(),
            "--where: '3.5' is not an integer (column 'id' is int32)");
}

class OpenReaderColumns : public testing::ScratchDirTest {};

TEST_F(OpenReaderColumns, CutsCsvBatchesAndRefusesAWhereClause) {
  const std::string csv = Path("t.csv");
  std::ofstream(csv) << "a,b,c\n1,x,2.5\n2,y,3.5\n";
  ReadOptions ro;
  ro.columns = {"c", "a"};
  auto r = OpenReader(csv, ro);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->schema()->ToString(), "c: double\na: int64\n");
  auto b = (*r)->Next();
  ASSERT_TRUE(b.ok() && *b);
  EXPECT_EQ((*b)->num_columns(), 2);
  EXPECT_EQ((*b)->num_rows(), 2);
  EXPECT_NE(CsvReaderOf(**r), nullptr);
  ro.columns = {"nope"};
  EXPECT_EQ(OpenReader(csv, ro).status().message(), csv + ": no column named 'nope'");
  ro.columns.clear();
  ro.where = WhereClause{"a", CompareOp::kEq, "1", "--where"};
  EXPECT_EQ(OpenReader(csv, ro).status().message(), csv + ": --where applies to Parquet and ORC files only");
}

}  // namespace
}  // namespace quiver::stream
