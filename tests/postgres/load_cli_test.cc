// `quiver load` against the tests' own server: CSV and Parquet inputs, the four modes, the dry
// run, and each error the issue names with its exact message (passwords never shown).
#include <gtest/gtest.h>

#include <fstream>

#include "postgres/pg_test_util.h"
#include "testing/run_cli.h"

namespace quiver::testing {
namespace {

class PgLoadCliTest : public PgTest {
 protected:
  void SetUp() override {
    PgTest::SetUp();
    if (IsSkipped()) return;
    dir_ = server_->dir() + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string p = dir_ + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
  CliResult Load(const std::string& args) { return RunCli("load " + args); }
  std::string Ci() const { return "'" + conninfo() + "'"; }
  std::string dir_;
};

TEST_F(PgLoadCliTest, ModesCreateAppendTruncateReplace) {
  const std::string a = Write("a.csv", "id,name,price\n1,x,1.50\n2,ü,-2.25\n");
  const std::string b = Write("b.csv", "name,id\nnew,3\n");
  CliResult r = Load(a + " " + Ci() + " --table m --types \"price=decimal(10,2)\"");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(One("SELECT string_agg(id || ':' || name || ':' || price, ' ' ORDER BY id) FROM m"), "1:x:1.50 2:ü:-2.25");
  EXPECT_EQ(One("SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'm'::regclass AND attname = 'price'"),
            "numeric(10,2)");

  r = Load(a + " " + Ci() + " --table m");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: postgres: table \"public\".\"m\" already exists (use --append, --truncate or --replace)\n");

  // Columns by name, in another order; the rest of the table's columns get their defaults.
  r = Load(b + " " + Ci() + " --table m --append");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(One("SELECT string_agg(id || ':' || name || ':' || coalesce(price::text, 'null'), ' ' ORDER BY id) FROM m"),
            "1:x:1.50 2:ü:-2.25 3:new:null");

  r = Load(b + " " + Ci() + " --table m --truncate");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(One("SELECT string_agg(id || ':' || name, ' ') FROM m"), "3:new");

  // --replace: a new table (from b's schema) in the old one's place.
  r = Load(b + " " + Ci() + " --table m --replace -j 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(One("SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'm'::regclass AND attnum > 0"),
            "name,id");
  EXPECT_EQ(StagingTables(), 0);
}

TEST_F(PgLoadCliTest, ParquetInputAndSchemaQualifiedTable) {
  const std::string csv = Write("c.csv", "k,d,v\n1,2024-02-29,0.5\n2,1950-01-01,\n");
  const std::string pq = dir_ + "/c.parquet";
  ASSERT_EQ(RunCli("convert " + csv + " " + pq).exit_code, 0);
  Exec("CREATE SCHEMA other");
  CliResult r = Load(pq + " " + Ci() + " --table other.p");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(One("SELECT string_agg(k || ' ' || d || ' ' || coalesce(v::text, 'null'), ';' ORDER BY k) FROM other.p"),
            "1 2024-02-29 0.5;2 1950-01-01 null");
}

TEST_F(PgLoadCliTest, DryRunPrintsCreateTableAndPlan) {
  const std::string a = Write("a.csv", "id,when\n1,2024-01-02 03:04:05\n");
  CliResult r = Load(a + " --table dry --dry-run");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "CREATE TABLE \"dry\" (\"id\" bigint, \"when\" timestamp);");
  EXPECT_NE(r.out.find("-- plan: --create into \"dry\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("RENAME TO \"dry\""), std::string::npos) << r.out;
  EXPECT_EQ(One("SELECT to_regclass('dry') IS NULL"), "t");
}

TEST_F(PgLoadCliTest, ErrorsNameTheProblem) {
  const std::string a = Write("a.csv", "a,b\n1,x\n70000,y\n");
  // Connection refused (no server on this socket), the password kept out of the message.
  CliResult r = Load(a + " 'host=" + dir_ + " port=5999 user=u password=Hush-123 dbname=d' --table t");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("quiver: postgres: cannot connect to postgresql://u@" + dir_ + ":5999/d: connection to server on socket"),
            std::string::npos) << r.err;
  EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Hush-123"), std::string::npos);
  // Authentication failed, by URL with the password in it.
  r = Load(a + " 'postgresql://pwuser:Wrong-pw@/postgres?host=" + server_->dir() + "' --table t");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("password authentication failed for user \"pwuser\""), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("Wrong-pw"), std::string::npos) << r.err;
  // The right password works.
  r = Load(a + " 'postgresql://pwuser:Secr3t-pw@/postgres?host=" + server_->dir() + "' --table pw_ok");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Missing table.
  r = Load(a + " " + Ci() + " --table nosuch --append");
  EXPECT_EQ(r.err, "quiver: postgres: table \"public\".\"nosuch\" does not exist (use --create)\n");
  // A column type that cannot hold the data, refused before any row is sent.
  Exec("CREATE TABLE typed (a smallint, b integer)");
  r = Load(a + " " + Ci() + " --table typed --append");
  EXPECT_EQ(r.err,
            "quiver: postgres: column 'b': string values cannot go into \"public\".\"typed\".\"b\" of type integer "
            "(read the column as a type that fits (for CSV, --types), or load with --create/--replace)\n");
  // A value out of range, with its row.
  r = Load(a + " " + Ci() + " --table typed --append --columns a");
  EXPECT_EQ(r.err, "quiver: postgres: \"public\".\"typed\": column 'a', row 2: 70000 is out of range for smallint\n");
  // A value the server refuses: its message, the target's name and the input row.
  Exec("CREATE TABLE narrow (a bigint, b varchar(1))");
  const std::string c = Write("c.csv", "a,b\n1,x\n2,yy\n");
  r = Load(c + " " + Ci() + " --table narrow --append");
  EXPECT_EQ(r.err, "quiver: postgres: loading \"public\".\"narrow\": value too long for type character varying(1) "
                   "CONTEXT: COPY narrow, line 2, column b (input row 2)\n");
  EXPECT_EQ(One("SELECT count(*) FROM typed"), "0");
  EXPECT_EQ(One("SELECT count(*) FROM narrow"), "0");
  EXPECT_EQ(StagingTables(), 0);
}

}  // namespace
}  // namespace quiver::testing
