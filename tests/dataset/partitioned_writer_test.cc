// The Hive-partitioned Parquet writer in-process: rows placed by partition and in order, Hive
// path escaping, spilling under a small memory budget and reading back into full row groups,
// the open-file cap, and nothing left after a failure or an abandoned write.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/dataset/hive.h"
#include "quiver/dataset/partitioned_writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "testing/scratch_dir.h"

namespace quiver::dataset {
namespace {

namespace fs = std::filesystem;

class PartitionedWriter : public testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    schema_ = std::make_shared<const Schema>(std::vector<Field>{{"k", utf8()}, {"v", int64()}});
  }
  // Rows (k[i], v = first + i); a null k where keys[i] is "<null>".
  std::shared_ptr<RecordBatch> Batch(const std::vector<std::string>& keys, int64_t first) const {
    BinaryBuilder k(utf8());
    NumericBuilder<int64_t> v(int64());
    for (size_t i = 0; i < keys.size(); ++i) {
      EXPECT_TRUE((keys[i] == "<null>" ? k.AppendNull() : k.Append(keys[i])).ok());
      EXPECT_TRUE(v.Append(first + static_cast<int64_t>(i)).ok());
    }
    auto ka = k.Finish();
    auto va = v.Finish();
    return std::make_shared<RecordBatch>(schema_, static_cast<int64_t>(keys.size()), std::vector<Array>{*ka, *va});
  }
  // Per file (relative path): its row groups' sizes and its v values in order.
  struct FileRows {
    std::vector<int64_t> groups;
    std::vector<int64_t> values;
  };
  std::map<std::string, FileRows> ReadTree(const std::string& root) const {
    std::map<std::string, FileRows> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (!e.is_regular_file()) continue;
      auto r = parquet::ParquetFileReader::Open(e.path().string());
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) continue;
      EXPECT_EQ((*r)->schema()->ToString(), "v: int64\n");
      FileRows& f = out[fs::relative(e.path(), root).string()];
      for (int g = 0; g < (*r)->num_row_groups(); ++g) {
        auto b = (*r)->ReadRowGroup(g);
        EXPECT_TRUE(b.ok());
        f.groups.push_back((*b)->num_rows());
        const int64_t* v = (*b)->column(0).data()->values<int64_t>(1);
        f.values.insert(f.values.end(), v, v + (*b)->num_rows());
      }
    }
    return out;
  }
  PartitionedWriteOptions Options(int64_t row_group_rows) const {
    PartitionedWriteOptions o;
    o.partition_by = {"k"};
    o.parquet.row_group_rows = row_group_rows;
    return o;
  }
  fs::path dir_;
  SchemaPtr schema_;
};

TEST(HivePath, EscapesAsHiveDoes) {
  BinaryBuilder b(utf8());
  for (const char* s : {"a/b", "x=y", "50%", "Oslo", "\x01\x7f", "caf\xc3\xa9", "q?#[]^{}*:'\"\\"}) {
    ASSERT_TRUE(b.Append(s).ok());
  }
  ASSERT_TRUE(b.Append("").ok());
  ASSERT_TRUE(b.AppendNull().ok());
  auto a = b.Finish();
  ASSERT_TRUE(a.ok());
  const std::vector<std::string> want = {
      "k=a%2Fb", "k=x%3Dy", "k=50%25", "k=Oslo", "k=%01%7F", "k=caf\xc3\xa9",
      "k=q%3F%23%5B%5D%5E%7B}%2A%3A%27%22%5C", "k=__HIVE_DEFAULT_PARTITION__", "k=__HIVE_DEFAULT_PARTITION__"};
  for (int64_t i = 0; i < a->length(); ++i) EXPECT_EQ(HivePartitionSegment("k", *a, i), want[static_cast<size_t>(i)]) << i;
  EXPECT_EQ(HivePartitionSegment("k/1", *a, 3), "k%2F1=Oslo");  // the column name is escaped too
}

TEST_F(PartitionedWriter, PlacesEveryRowInItsPartitionInOrder) {
  auto w = PartitionedParquetWriter::Open(Path("out"), schema_, Options(1000));
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(Batch({"a", "b/c", "a", "<null>", "", "a"}, 0)).ok());
  ASSERT_TRUE((*w)->Write(Batch({"b/c", "a"}, 6)).ok());
  EXPECT_EQ(Entries().size(), 1u);  // the temporary folder only
  EXPECT_FALSE(fs::exists(Path("out")));
  EXPECT_EQ((*w)->num_partitions(), 3);
  EXPECT_EQ((*w)->num_files(), 0);  // no partition has a row group yet
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ(Entries(), std::vector<std::string>{"out"});
  const auto tree = ReadTree(Path("out"));
  ASSERT_EQ(tree.size(), 3u);
  EXPECT_EQ(tree.at("k=a/part-00000.parquet").values, (std::vector<int64_t>{0, 2, 5, 7}));
  EXPECT_EQ(tree.at("k=b%2Fc/part-00000.parquet").values, (std::vector<int64_t>{1, 6}));
  EXPECT_EQ(tree.at("k=__HIVE_DEFAULT_PARTITION__/part-00000.parquet").values, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ((*w)->num_files(), 3);
  int64_t bytes = 0;
  for (const auto& e : fs::recursive_directory_iterator(Path("out"))) {
    if (e.is_regular_file()) bytes += static_cast<int64_t>(e.file_size());
  }
  EXPECT_EQ((*w)->bytes_written(), bytes);
}

TEST_F(PartitionedWriter, SpillsUnderASmallBudgetAndKeepsRowGroupsWhole) {
  // Batches of about 50 KiB against 256 KiB: the rows held pass it before any partition has a
  // row group of 10,000, while the three open writers (16 KiB of stream buffer each) stay
  // below half of it, so no file is finished early.
  PartitionedWriteOptions o = Options(10000);
  o.memory_budget = 256 << 10;
  auto w = PartitionedParquetWriter::Open(Path("out"), schema_, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  int64_t v = 0;
  for (int b = 0; b < 12; ++b) {
    std::vector<std::string> keys;
    for (int i = 0; i < 4000; ++i) keys.push_back(std::string(1, static_cast<char>('x' + (v + i) % 3)));
    ASSERT_TRUE((*w)->Write(Batch(keys, v)).ok());
    v += 4000;
    if (b == 4) {
      // 6,667 rows a partition: no row group yet, so what was spilled went for the budget.
      EXPECT_EQ((*w)->num_files(), 0);
      EXPECT_GT((*w)->spills(), 0);
      EXPECT_GT((*w)->spill_bytes(), 0);
    }
  }
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ((*w)->num_files(), 3);
  const auto tree = ReadTree(Path("out"));  // the spill file was nameless: only the Parquet files
  ASSERT_EQ(tree.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const FileRows& f = tree.at(std::string("k=") + static_cast<char>('x' + k) + "/part-00000.parquet");
    EXPECT_EQ(f.groups, (std::vector<int64_t>{10000, 6000})) << k;
    std::vector<int64_t> want;
    for (int64_t i = k; i < 48000; i += 3) want.push_back(i);
    EXPECT_EQ(f.values, want) << k;
  }
}

TEST_F(PartitionedWriter, OpenFileCapFinishesTheLeastRecentlyWrittenAndContinuesInANewFile) {
  PartitionedWriteOptions o = Options(10);
  o.max_open_files = 2;
  auto w = PartitionedParquetWriter::Open(Path("out"), schema_, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_EQ((*w)->max_open(), 2);
  // Three partitions take turns writing a full row group each: a, b, c, a, b, c.
  int64_t v = 0;
  for (int round = 0; round < 2; ++round) {
    for (const char* k : {"a", "b", "c"}) {
      ASSERT_TRUE((*w)->Write(Batch(std::vector<std::string>(10, k), v)).ok());
      v += 10;
    }
  }
  EXPECT_EQ((*w)->num_partitions(), 3);
  ASSERT_TRUE((*w)->Finish().ok());
  EXPECT_EQ((*w)->num_files(), 6);  // each partition's file was finished once to make room
  const auto tree = ReadTree(Path("out"));
  ASSERT_EQ(tree.size(), 6u);
  auto iota = [](int64_t from) {
    std::vector<int64_t> r(10);
    for (int i = 0; i < 10; ++i) r[static_cast<size_t>(i)] = from + i;
    return r;
  };
  EXPECT_EQ(tree.at("k=a/part-00000.parquet").values, iota(0));
  EXPECT_EQ(tree.at("k=a/part-00001.parquet").values, iota(30));
  EXPECT_EQ(tree.at("k=b/part-00000.parquet").values, iota(10));
  EXPECT_EQ(tree.at("k=b/part-00001.parquet").values, iota(40));
  EXPECT_EQ(tree.at("k=c/part-00000.parquet").values, iota(20));
  EXPECT_EQ(tree.at("k=c/part-00001.parquet").values, iota(50));
}

TEST_F(PartitionedWriter, AFailureMidwayLeavesNothing) {
  // A list column cannot be gathered: the first full row group fails after files were opened.
  const SchemaPtr schema =
      std::make_shared<const Schema>(std::vector<Field>{{"k", utf8()}, {"v", int64()}, {"l", list(int64())}});
  PartitionedWriteOptions o = Options(4);
  auto w = PartitionedParquetWriter::Open(Path("out"), schema, o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  BinaryBuilder k(utf8());
  NumericBuilder<int64_t> v(int64());
  ListBuilder l(list(int64()), std::make_unique<NumericBuilder<int64_t>>(int64()));
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(k.Append("a").ok());
    ASSERT_TRUE(v.Append(i).ok());
    ASSERT_TRUE(l.Append().ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, 4, std::vector<Array>{*k.Finish(), *v.Finish(), *l.Finish()});
  const Status st = (*w)->Write(batch);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "k=a: gathering rows of a list<item: int64> column");
  EXPECT_EQ(Entries().size(), 1u);  // the temporary folder, with the partition's file begun
  w->reset();
  EXPECT_TRUE(Entries().empty());
}

TEST_F(PartitionedWriter, AbortRemovesEverythingWritten) {
  auto w = PartitionedParquetWriter::Open(Path("out"), schema_, Options(2));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Write(Batch({"a", "a", "b", "b"}, 0)).ok());  // both files written
  (*w)->Abort();
  EXPECT_TRUE(Entries().empty());
}

TEST_F(PartitionedWriter, OpenRefusesWhatItCannotWrite) {
  fs::create_directories(Path("exists"));
  auto w = PartitionedParquetWriter::Open(Path("exists"), schema_, Options(10));
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), Path("exists") + ": exists (a partitioned output replaces nothing)");
  PartitionedWriteOptions o = Options(10);
  o.partition_by = {"nope"};
  EXPECT_EQ(PartitionedParquetWriter::Open(Path("out"), schema_, o).status().message(),
            "partition columns: no column 'nope'");
  o.partition_by = {"k", "k"};
  EXPECT_EQ(PartitionedParquetWriter::Open(Path("out"), schema_, o).status().message(),
            "partition columns: 'k' named twice");
  o.partition_by = {"k", "v"};
  EXPECT_EQ(PartitionedParquetWriter::Open(Path("out"), schema_, o).status().message(),
            "partition columns: every column is one; none would be left in the files");
  o = Options(10);
  o.parquet.bloom_filters.emplace_back("k", parquet::BloomFilterOptions{});
  EXPECT_EQ(PartitionedParquetWriter::Open(Path("out"), schema_, o).status().message(),
            "bloom filter on 'k': a partition column, whose value is in the folder name");
  o = Options(10);
  o.memory_budget = 0;
  EXPECT_EQ(PartitionedParquetWriter::Open(Path("out"), schema_, o).status().message(),
            "partition memory budget must be at least 1 byte, got 0");
  EXPECT_EQ(Entries(), std::vector<std::string>{"exists"});
}

}  // namespace
}  // namespace quiver::dataset
