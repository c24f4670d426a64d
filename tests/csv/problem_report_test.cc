// Problem reporting alone: a chunk's problem or a rejected row, resolved to line and byte,
// becomes the typed Problem handed to on_failure / on_reject and the message of the error.
#include "quiver/csv/problem_report_internal.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace quiver::csv {
namespace {

struct Fixture {
  std::string file = "in.csv";
  std::vector<std::string> names = {"id", "price\x1b"};
  std::vector<bool> inferred = {false, true};
  CsvOptions options;
  std::vector<Problem> failed;
  Fixture() {
    options.infer_rows = 100;
    options.on_failure = [this](const Problem& p) { failed.push_back(p); };
  }
  ProblemContext Context() { return ProblemContext{file, names, inferred, options}; }
};

TEST(ProblemReport, AConversionProblemNamesItsCellValueAndTheInferredType) {
  Fixture f;
  ChunkProblem p{0, 1, "cannot convert to double", "x\ty", ProblemKind::kConversion};
  Status st = f.Context().Report(p, 7, 1234);
  EXPECT_EQ(st.message(),
            "in.csv:7:2 'price\\x1b': cannot convert to double, got \"x\\ty\" (byte 1234); the type was inferred "
            "from the first 100 rows");
  ASSERT_EQ(f.failed.size(), 1u);
  EXPECT_EQ(f.failed[0].kind, ProblemKind::kConversion);
  EXPECT_EQ(f.failed[0].line, 7);
  EXPECT_EQ(f.failed[0].column, 1);
  EXPECT_EQ(f.failed[0].column_name, "price\x1b");
  EXPECT_EQ(f.failed[0].byte, 1234);
  EXPECT_EQ(f.failed[0].value, "x\ty");
  EXPECT_TRUE(f.failed[0].type_inferred);
}

TEST(ProblemReport, RowProblemsAndEncodingDiagnoses) {
  Fixture f;
  EXPECT_EQ(f.Context().Report(ChunkProblem{0, -1, "expected 2 fields, got 3", {}, ProblemKind::kFieldCount}, 3, 40)
                .message(),
            "in.csv:3: expected 2 fields, got 3 (byte 40)");
  EXPECT_EQ(f.Context().Report(ChunkProblem{0, 0, "invalid UTF-8", "\xff", ProblemKind::kInvalidUtf8}, 4, 50).message(),
            "in.csv:4:1 'id': invalid UTF-8, got \"\\xff\" (byte 50); the file may be in another encoding");
  ASSERT_EQ(f.failed.size(), 2u);
  EXPECT_EQ(f.failed[0].column, -1);
  EXPECT_EQ(f.failed[0].column_name, "");
  EXPECT_FALSE(f.failed[1].type_inferred);
}

TEST(ProblemReport, ARejectedRowGoesToTheHandlerWithItsText) {
  Fixture f;
  std::vector<std::string> seen;
  f.options.on_reject = [&](const RejectedRow& r) {
    seen.push_back(fmt::format("{}:{}:{}:{}:{}:{}", r.problem.line, r.problem.column, r.problem.column_name,
                               r.problem.byte, r.problem.reason, r.record));
    return r.problem.line == 9 ? Status::Invalid("stop") : Status::OK();
  };
  Reject r{RowSpan{0, 5}, ProblemKind::kConversion, 1, "cannot convert to double"};
  ASSERT_TRUE(f.Context().PassReject(r, "1,abc", 8, 100).ok());
  EXPECT_EQ(f.Context().PassReject(r, "2,def", 9, 106).message(), "stop");
  EXPECT_EQ(seen, (std::vector<std::string>{"8:1:price\x1b:100:cannot convert to double:1,abc",
                                            "9:1:price\x1b:106:cannot convert to double:2,def"}));
  EXPECT_TRUE(f.failed.empty());
}

}  // namespace
}  // namespace quiver::csv
