#include "quiver/core/status.h"

#include <gtest/gtest.h>

#include "quiver/core/result.h"

namespace quiver {
namespace {

TEST(Status, OkIsNullAndCheap) {
  Status st;
  EXPECT_TRUE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kOk);
  EXPECT_EQ(st.ToString(), "OK");
  EXPECT_EQ(sizeof(Status), sizeof(void*));
}

TEST(Status, CodesAndMessages) {
  EXPECT_TRUE(Status::Invalid("x").IsInvalid());
  EXPECT_TRUE(Status::IOError("x").IsIOError());
  EXPECT_TRUE(Status::OutOfMemory("x").IsOutOfMemory());
  EXPECT_TRUE(Status::NotImplemented("x").IsNotImplemented());
  EXPECT_TRUE(Status::Corrupt("x").IsCorrupt());
  EXPECT_TRUE(Status::Cancelled("x").IsCancelled());
  Status st = Status::Corrupt("varint overflows 64 bits");
  EXPECT_EQ(st.ToString(), "Corrupt: varint overflows 64 bits");
  EXPECT_EQ(st.detail(), "varint overflows 64 bits");
}

TEST(Status, ContextChainReadsOutermostFirst) {
  Status st = Status::Corrupt("varint overflows 64 bits")
                  .WithContext("page header")
                  .WithContext("row group 3, column 'price'")
                  .WithContext("data.parquet");
  EXPECT_EQ(st.message(), "data.parquet: row group 3, column 'price': page header: varint overflows 64 bits");
  EXPECT_EQ(st.detail(), "varint overflows 64 bits");
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_TRUE(Status::OK().WithContext("ignored").ok());
}

TEST(Status, CopyAndMoveKeepTheError) {
  Status a = Status::IOError("disk full").WithContext("out.parquet");
  Status b = a;
  EXPECT_EQ(b.message(), "out.parquet: disk full");
  EXPECT_EQ(a.message(), "out.parquet: disk full");
  Status c = std::move(a);
  EXPECT_EQ(c.message(), "out.parquet: disk full");
  b = Status::OK();
  EXPECT_TRUE(b.ok());
  b = c;
  EXPECT_TRUE(b.IsIOError());
  b = b;  // self-assignment keeps the state
  EXPECT_EQ(b.message(), "out.parquet: disk full");
}

TEST(Status, FromErrno) {
  Status st = Status::FromErrno(ENOENT, "missing.csv");
  EXPECT_EQ(st.message(), "missing.csv: No such file or directory");
  EXPECT_TRUE(st.IsIOError());
}

Status FailIf(bool fail) { return fail ? Status::Invalid("asked to fail") : Status::OK(); }

Status Chain(bool fail) {
  QUIVER_RETURN_NOT_OK_CTX(FailIf(fail), "step 2");
  return Status::OK();
}

TEST(Status, ReturnNotOkMacros) {
  EXPECT_TRUE(Chain(false).ok());
  EXPECT_EQ(Chain(true).message(), "step 2: asked to fail");
}

Result<int64_t> Parse(int64_t v) {
  if (v < 0) return Status::Invalid("negative");
  return v * 2;
}

Result<std::string> UseParse(int64_t v) {
  QUIVER_ASSIGN_OR_RETURN(auto doubled, Parse(v));
  return std::to_string(doubled);
}

TEST(Result, ValueOrError) {
  Result<int64_t> r = Parse(21);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, 42);
  Result<int64_t> e = Parse(-1);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "negative");
  EXPECT_EQ(*UseParse(5), "10");
  EXPECT_EQ(UseParse(-5).status().message(), "negative");
  EXPECT_EQ(Parse(-1).ValueOr(7), 7);
}

TEST(Result, OkStatusWithoutValueIsAnError) {
  Result<int> r{Status::OK()};
  EXPECT_TRUE(r.status().IsInvalid());
}

TEST(Result, HoldsMoveOnlyTypes) {
  Result<std::unique_ptr<int>> r(std::make_unique<int>(9));
  ASSERT_TRUE(r.ok());
  std::unique_ptr<int> p = std::move(r).ValueUnsafe();
  EXPECT_EQ(*p, 9);
  Result<std::unique_ptr<int>> moved = Result<std::unique_ptr<int>>(std::make_unique<int>(3));
  Result<std::unique_ptr<int>> other = std::move(moved);
  EXPECT_EQ(**other, 3);
}

}  // namespace
}  // namespace quiver
