// The JSON reader: nested values, widening, declared types, a round trip through quiver's JSON
// Lines writer, blocks and pieces, and the exact error messages of malformed input.
#include "quiver/json/reader.h"

#include <gtest/gtest.h>

#include <fstream>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/io/output_stream.h"
#include "quiver/jsonl/writer.h"
#include "quiver/stream/file_format.h"
#include "testing/gzip.h"
#include "testing/random_array.h"
#include "testing/scratch_dir.h"

namespace quiver::json {
namespace {

std::shared_ptr<Buffer> Bytes(const std::string& s) {
  auto owner = std::make_shared<std::string>(s);
  return Buffer::Wrap(reinterpret_cast<const uint8_t*>(owner->data()), static_cast<int64_t>(owner->size()), owner);
}

struct Read {
  Status status;
  SchemaPtr schema;
  std::shared_ptr<RecordBatch> batch;  // every batch joined
  int64_t batches = 0;
};

Read ReadAll(const std::string& text, JsonReadOptions options = {}) {
  Read r;
  auto reader = JsonReader::OpenBuffer(Bytes(text), "t.jsonl", std::move(options));
  if (!reader.ok()) {
    r.status = reader.status();
    return r;
  }
  r.schema = (*reader)->schema();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  while (true) {
    auto b = (*reader)->Next();
    if (!b.ok()) {
      r.status = b.status();
      return r;
    }
    if (*b == nullptr) break;
    batches.push_back(*b);
  }
  r.batches = static_cast<int64_t>(batches.size());
  auto joined = ConcatenateBatches(r.schema, batches);
  if (!joined.ok()) r.status = joined.status();
  else r.batch = *joined;
  return r;
}

// The rows as JSON Lines, through the writer (the one JSON spelling of every value).
std::string AsJsonl(const RecordBatch& batch) {
  io::BufferOutputStream out;
  jsonl::JsonlWriter w(&out);
  EXPECT_TRUE(w.Write(batch).ok());
  return std::string((*out.Finish())->view());
}

std::string Error(const std::string& text, JsonReadOptions options = {}) {
  Read r = ReadAll(text, std::move(options));
  return r.status.ok() ? "(no error)" : r.status.message();
}

TEST(JsonReader, NestedObjectsListsNullsAndMissingKeys) {
  const std::string in =
      "{\"id\":1,\"u\":{\"n\":\"a\",\"tags\":[\"x\",\"y\"],\"geo\":{\"lat\":1.5}},\"v\":null}\n"
      "{\"id\":2,\"u\":{\"n\":\"b\",\"tags\":[]},\"v\":null,\"w\":2}\n"
      "\n"
      "  {\"w\":3.25,\"id\":3,\"u\":null}\r\n";
  Read r = ReadAll(in);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema->ToString(),
            "id: int64\nu: struct<n: string, tags: list<item: string>, geo: struct<lat: double>>\nv: string\nw: double\n");
  EXPECT_EQ(AsJsonl(*r.batch),
            "{\"id\":1,\"u\":{\"n\":\"a\",\"tags\":[\"x\",\"y\"],\"geo\":{\"lat\":1.5}},\"v\":null,\"w\":null}\n"
            "{\"id\":2,\"u\":{\"n\":\"b\",\"tags\":[],\"geo\":null},\"v\":null,\"w\":2}\n"
            "{\"id\":3,\"u\":null,\"v\":null,\"w\":3.25}\n");
  EXPECT_TRUE(r.batch->column(1).data()->children[0]->utf8_checked);
}

TEST(JsonReader, TopLevelArrayAndDeclaredTypes) {
  const std::string in =
      "[{\"d\":\"2024-02-29\",\"ts\":\"2024-02-29T10:11:12.5Z\",\"n\":7,\"any\":{\"k\":[1,2]}},\n"
      " {\"d\":null,\"ts\":\"1999-12-31 23:59:59\",\"n\":-7,\"any\":\"text\"}]";
  JsonReadOptions o;
  o.types = {{"d", date32()}, {"ts", timestamp(TimeUnit::kMicro)}, {"n", int32()}, {"any", utf8()}};
  Read r = ReadAll(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema->ToString(), "d: date32\nts: timestamp[us]\nn: int32\nany: string\n");
  EXPECT_EQ(AsJsonl(*r.batch),
            "{\"d\":\"2024-02-29\",\"ts\":\"2024-02-29 10:11:12.500000\",\"n\":7,\"any\":\"{\\\"k\\\":[1,2]}\"}\n"
            "{\"d\":null,\"ts\":\"1999-12-31 23:59:59\",\"n\":-7,\"any\":\"text\"}\n");
  // Undeclared, a date stays a string.
  Read plain = ReadAll("{\"d\":\"2024-02-29\"}\n");
  EXPECT_EQ(plain.schema->ToString(), "d: string\n");
}

TEST(JsonReader, WideningRules) {
  Read r = ReadAll("{\"a\":1,\"b\":null,\"c\":[1,2.5],\"x\":2.5}\n{\"a\":2.5,\"b\":null,\"c\":[],\"x\":1}\n");
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.schema->ToString(), "a: double\nb: string\nc: list<item: double>\nx: double\n");
  EXPECT_EQ(AsJsonl(*r.batch), "{\"a\":1,\"b\":null,\"c\":[1,2.5],\"x\":2.5}\n{\"a\":2.5,\"b\":null,\"c\":[],\"x\":1}\n");
  EXPECT_EQ(Error("{\"a\":1}\n{\"a\":\"x\"}\n"),
            "t.jsonl:2: 'a' is a string here but an integer at line 1; declare its type (--types 'a=string' keeps "
            "either as text)");
  EXPECT_EQ(Error("{\"a\":[1,\"x\"]}\n"),
            "t.jsonl:1: 'a' is a string here but an integer at line 1; declare its type (--types 'a=string' keeps "
            "either as text)");
  JsonReadOptions o;
  o.types = {{"a", utf8()}};
  Read declared = ReadAll("{\"a\":[1,\"x\"]}\n{\"a\":2}\n", o);
  ASSERT_TRUE(declared.status.ok()) << declared.status.ToString();
  EXPECT_EQ(AsJsonl(*declared.batch), "{\"a\":\"[1,\\\"x\\\"]\"}\n{\"a\":\"2\"}\n");
  o.types = {{"nope.x", int64()}};
  EXPECT_EQ(Error("{\"a\":1}\n", o),
            "--types names 'nope.x', which no row of the sample holds (key paths are dotted: a.b is key b of object a)");
}

// A declared nanosecond timestamp past 2262 does not fit int64: refused as the CSV reader refuses
// it, never wrapped.
TEST(JsonReader, NanosecondTimestampsOutOfRangeAreRefused) {
  JsonReadOptions o;
  o.types = {{"ts", timestamp(TimeUnit::kNano)}};
  Read ok = ReadAll("{\"ts\":\"2262-04-11T23:47:16\"}\n", o);
  ASSERT_TRUE(ok.status.ok()) << ok.status.ToString();
  EXPECT_EQ(AsJsonl(*ok.batch), "{\"ts\":\"2262-04-11 23:47:16\"}\n");
  EXPECT_EQ(Error("{\"ts\":\"2262-04-11T23:47:17\"}\n", o),
            "t.jsonl:1: 'ts' is timestamp[ns], got a string: 2262-04-11T23:47:17");
}

TEST(JsonReader, LateKeysAndWrongTypesNameTheirLine) {
  JsonReadOptions o;
  o.infer_rows = 1;
  EXPECT_EQ(Error("{\"a\":1}\n{\"a\":2,\"b\":3}\n", o),
            "t.jsonl:2: key 'b' is not in the schema: first seen after the rows it was inferred from (a larger "
            "--infer-rows, or --types 'b=TYPE', takes it in)");
  EXPECT_EQ(Error("{\"a\":{\"b\":1}}\n{\"a\":{\"b\":\"" + std::string(100, 'z') + "\"}}\n", o),
            "t.jsonl:2: 'a.b' is int64, got a string: " + std::string(80, 'z') + "... (100 bytes)");
  EXPECT_EQ(Error("{\"a\":1,\"a\":2}\n"), "t.jsonl:1: key 'a' appears twice in one object");
  EXPECT_EQ(Error("[1,2]\n"), "t.jsonl: element 1: a row must be a JSON object, got an integer");
  EXPECT_EQ(Error("{\"a\":1}\n7\n"), "t.jsonl:2: a row must be a JSON object, got an integer");
}

TEST(JsonReader, MalformedInputNamesLineColumnAndByte) {
  EXPECT_EQ(Error("{\"a\":1}\n{\"a\":[1,\n"),
            "t.jsonl:2:9: malformed JSON: the text ends inside a value, found the end of the line (byte 16 of the input)");
  EXPECT_EQ(Error("{\"a\":1}\n{\"a\":1}}\n"),
            "t.jsonl:2:8: malformed JSON: more than one JSON value on the line, found '}' (byte 15 of the input)");
  EXPECT_EQ(Error("{\"a\":\"\xff\"}\n"),
            "t.jsonl:1:7: malformed JSON: invalid UTF-8, found '\\xff' (byte 6 of the input)");
  EXPECT_EQ(Error(std::string("{\"a\":\"x\0y\"}\n", 12)),
            "t.jsonl:1:8: malformed JSON: a control character inside a string (escape it), found '\\x00' (byte 7 of the "
            "input)");
  EXPECT_EQ(Error("{\"b\":2, \"a\":123456789012345678901234567890}\n"),
            "t.jsonl:1:13: malformed JSON: an integer past the 64-bit range (quote it to keep it as text), found '1' "
            "(byte 12 of the input)");
  EXPECT_EQ(Error("{\"a\":1e999}\n"),
            "t.jsonl:1:6: malformed JSON: a number past float64's range (quote it to keep it as text), found '1' (byte 5 "
            "of the input)");
  EXPECT_EQ(Error("{\"a\":" + std::string(2000, '[') + std::string(2000, ']') + "}\n"),
            "t.jsonl:1:1029: malformed JSON: nested deeper than 1024 arrays and objects, found '[' (byte 1028 of the "
            "input)");
  EXPECT_EQ(Error("{\"a\":tru}\n"),
            "t.jsonl:1:6: malformed JSON: not a JSON value (expected true), found 't' (byte 5 of the input)");
  EXPECT_EQ(Error("[{\"a\":1},\n {\"a\":2}"),
            "t.jsonl:2:9: malformed JSON: the text ends inside a value, found the end of the line (byte 18 of the input)");
}

// Many lines over small blocks and two threads: pieces and blocks joined in order, and an
// error's line counted across them.
TEST(JsonReader, BlocksAndPiecesKeepOrderAndLines) {
  std::string in;
  for (int i = 1; i <= 20000; ++i) in += "{\"i\":" + std::to_string(i) + ",\"s\":\"row " + std::to_string(i) + "\"}\n";
  ThreadPool pool(2);
  JsonReadOptions o;
  o.block_bytes = 4096;
  o.thread_pool = &pool;
  Read r = ReadAll(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_GT(r.batches, 20);
  ASSERT_EQ(r.batch->num_rows(), 20000);
  EXPECT_EQ(AsJsonl(*r.batch), in);
  std::string bad = in;
  const std::string line15000 = "{\"i\":15000,\"s\":\"row 15000\"}\n";
  bad.replace(bad.find(line15000), line15000.size(), "{\"i\":15000,\"s\":row}\n");
  EXPECT_EQ(Error(bad, o), "t.jsonl:15000:16: malformed JSON: not a JSON value, found 'r' (byte " +
                               std::to_string(in.find(line15000) + 15) + " of the input)");
  const std::string gz = testing::Gzip(in);
  Read z = ReadAll(gz, o);
  ASSERT_TRUE(z.status.ok()) << z.status.ToString();
  EXPECT_EQ(AsJsonl(*z.batch), in);
}

// on_error = skip: malformed lines and lines whose values do not convert (one failing inside a
// struct, after some of its columns took the row's values) are left out and handed to
// on_reject in input order with their line, reason and text; the rows around them keep their
// values, across small blocks and pieces parsed on two threads.
TEST(JsonReader, SkipLeavesOutBadLinesAndReportsThemInOrder) {
  std::string in, want;
  std::vector<std::string> want_rejects;
  for (int i = 1; i <= 6000; ++i) {
    const std::string good = "{\"i\":" + std::to_string(i) + ",\"s\":{\"x\":" + std::to_string(i) + ",\"y\":\"v" +
                             std::to_string(i) + "\"}}\n";
    if (i % 997 == 0) {
      const std::string bad = "{\"i\":" + std::to_string(i) + ",\"s\":{\"x\":\"no\",\"y\":\"v\"}}";
      in += bad + "\n";
      want_rejects.push_back(std::to_string(i) + "|'s.x' is int64, got a string: no|" + bad);
    } else if (i % 1499 == 0) {
      const std::string bad = "{\"i\":" + std::to_string(i) + ",\"s\":";
      in += bad + "\n";
      want_rejects.push_back(std::to_string(i) + "|column " + std::to_string(bad.size() + 1) +
                             ": malformed JSON: the text ends inside a value, found the end of the line|" + bad);
    } else {
      in += good;
      want += good;
    }
  }
  ThreadPool pool(2);
  JsonReadOptions o;
  o.block_bytes = 4096;
  o.thread_pool = &pool;
  o.types = {{"s.x", int64()}};
  o.on_error = OnError::kSkip;
  std::vector<std::string> got_rejects;
  o.on_reject = [&](int64_t line, std::string_view reason, std::string_view text) {
    got_rejects.push_back(std::to_string(line) + "|" + std::string(reason) + "|" + std::string(text));
    return Status::OK();
  };
  Read r = ReadAll(in, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(AsJsonl(*r.batch), want);
  EXPECT_EQ(got_rejects, want_rejects);
  // Without skip the first bad line stops the read.
  o.on_error = OnError::kFail;
  EXPECT_EQ(Error(in, o), "t.jsonl:997: 's.x' is int64, got a string: no");
  // A top-level array has no lines to leave out.
  o.on_error = OnError::kSkip;
  EXPECT_EQ(Error("[{\"a\":1}]", o), "t.jsonl: on_error skip applies to JSON Lines, and this input is a top-level array");
}

// quiver's JSON Lines writer, read back with the types declared that JSON cannot tell (int32,
// dates, timestamps): equal to the source, nulls, NaN and infinities, escapes and nesting
// included.
TEST(JsonReader, RoundTripThroughTheJsonlWriter) {
  testing::RandomArrays gen(7);
  const int64_t n = 3000;
  NumericBuilder<int32_t> days(date32());
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE((i % 7 == 3 ? days.AppendNull() : days.Append(static_cast<int32_t>(i * 97 % 80000 - 20000))).ok());
  }
  const TypePtr nested =
      struct_({field("a", int64()), field("b", utf8()), field("c", list(struct_({field("x", float64()), field("y", boolean())})))});
  std::vector<Field> fields = {field("i64", int64()),   field("i32", int32()),   field("f64", float64()),
                               field("b", boolean()),    field("s", utf8()),      field("d", date32()),
                               field("ts", timestamp(TimeUnit::kMicro)), field("l", list(int64())),
                               field("st", nested)};
  std::vector<Array> cols;
  for (const Field& f : fields) {
    cols.push_back(f.name == "d" ? *days.Finish() : gen.Make(f.type, n, 0.1));
  }
  auto schema = std::make_shared<const Schema>(fields);
  auto batch = RecordBatch::Make(schema, cols);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const std::string text = AsJsonl(**batch);
  JsonReadOptions o;
  o.types = {{"i32", int32()}, {"d", date32()}, {"ts", timestamp(TimeUnit::kMicro)}};
  o.infer_rows = n;
  Read r = ReadAll(text, o);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  ASSERT_EQ(r.schema->ToString(), schema->ToString());
  for (int c = 0; c < schema->num_fields(); ++c) {
    EXPECT_TRUE(r.batch->column(c).Equals((*batch)->column(c))) << schema->field(c).name;
  }
  EXPECT_EQ(AsJsonl(*r.batch), text);
}

class JsonFormat : public testing::ScratchDirTest {};

TEST_F(JsonFormat, ExtensionsFirstRefusalsByNameSniffingOtherwise) {
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  };
  EXPECT_EQ(*stream::ResolveInputFormat(write("a.jsonl", "x,y\n1,2\n")), "jsonl");
  EXPECT_EQ(*stream::ResolveInputFormat(write("a.NDJSON.gz", "")), "jsonl");
  EXPECT_EQ(*stream::ResolveInputFormat(write("a.json", "{}")), "json");
  EXPECT_EQ(*stream::ResolveInputFormat(write("a.csv", "{\"a\":1}\n")), "csv");
  EXPECT_EQ(*stream::ResolveInputFormat(write("data", "  \n{\"a\":1}\n")), "jsonl");
  EXPECT_EQ(*stream::ResolveInputFormat(write("data2", "\n[{\"a\":1}]")), "json");
  EXPECT_EQ(*stream::ResolveInputFormat(write("data3", "a,b\n1,2\n")), "csv");
  EXPECT_EQ(*stream::ResolveInputFormat(write("r.xlsx", "a,b\n"), "csv"), "csv");
  const std::string xlsx = write("r.xlsx", "a,b\n");
  auto refused = stream::ResolveInputFormat(xlsx);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            xlsx + ": quiver cannot read an Excel workbook (its extension says so); export it as CSV, JSON, Parquet, "
                   "ORC or Arrow first, or name the format (--from) if the extension is wrong");
  EXPECT_FALSE(stream::ResolveInputFormat(write("x.avro", "")).ok());
  EXPECT_FALSE(stream::ResolveInputFormat(write("x.sqlite", "")).ok());
  EXPECT_FALSE(stream::ResolveInputFormat(write("x.pdf.gz", "")).ok());
}

}  // namespace
}  // namespace quiver::json
