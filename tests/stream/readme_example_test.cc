// The README's batch-stream examples, compiled and checked here so that they stay true.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "quiver/columnar/c_data_interface.h"
#include "quiver/dataset/partitioned_writer.h"
#include "quiver/stream/copy.h"
#include "quiver/stream/open.h"
#include "quiver/stream/parquet_scan.h"

namespace {

namespace fs = std::filesystem;

int64_t g_consumed_rows = 0;

// What an Arrow consumer does with a batch: reads it, then releases it.
void consume(ArrowSchema* schema, ArrowArray* batch) {
  EXPECT_EQ(std::string(schema->format), "+s");
  g_consumed_rows += batch->length;
  batch->release(batch);
}

quiver::Status ReadmeStreams(int64_t* copied, int64_t* air_count) {
  // A CSV file in batches, each handed to an Arrow consumer without a copy.
  QUIVER_ASSIGN_OR_RETURN(auto reader, quiver::stream::OpenReader("lineitem.csv"));
  ArrowSchema c_schema;
  QUIVER_RETURN_NOT_OK(quiver::ExportSchema(*reader->schema(), &c_schema));
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<quiver::RecordBatch> batch, reader->Next());
    if (!batch) break;
    ArrowArray c_batch;
    QUIVER_RETURN_NOT_OK(quiver::ExportRecordBatch(*batch, &c_batch));
    consume(&c_schema, &c_batch);  // the consumer releases c_batch
  }
  c_schema.release(&c_schema);

  // CSV to Parquet (zstd): any reader into any writer.
  quiver::stream::WriteOptions options;
  options.parquet.codec = quiver::compress::Codec::kZstd;
  QUIVER_ASSIGN_OR_RETURN(auto in, quiver::stream::OpenReader("lineitem.csv"));
  QUIVER_ASSIGN_OR_RETURN(auto out, quiver::stream::OpenWriter("lineitem.parquet", in->schema(), options));
  QUIVER_ASSIGN_OR_RETURN(int64_t rows, quiver::stream::Copy(*in, *out));
  *copied = rows;

  // The Parquet file's AIR rows, two columns: row groups and pages that cannot hold any are not read.
  quiver::stream::ScanOptions air;
  air.columns = {"l_orderkey", "l_shipmode"};
  air.where = quiver::stream::ScanPredicate{"l_shipmode", quiver::parquet::CompareOp::kEq,
                                            quiver::parquet::Literal::Bytes("AIR")};
  QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<quiver::parquet::ParquetFileReader> file,
                          quiver::parquet::ParquetFileReader::Open("lineitem.parquet"));
  QUIVER_ASSIGN_OR_RETURN(auto scan, quiver::stream::ParquetScan::Make(file, air));
  QUIVER_ASSIGN_OR_RETURN(auto air_rows, scan->ReadAll());  // or scan->Next(), a row group at a time
  for (const auto& b : air_rows) *air_count += b->num_rows();

  // The Parquet file into a Hive-style folder, one folder per ship mode.
  quiver::dataset::PartitionedWriteOptions by_mode;
  by_mode.partition_by = {"l_shipmode"};
  QUIVER_ASSIGN_OR_RETURN(auto pq, quiver::stream::OpenReader("lineitem.parquet"));
  QUIVER_ASSIGN_OR_RETURN(auto tree, quiver::dataset::PartitionedParquetWriter::Open("by_mode", pq->schema(), by_mode));
  QUIVER_RETURN_NOT_OK(quiver::stream::Copy(*pq, *tree).status());
  return quiver::Status::OK();
}

TEST(Readme, BatchStreamExamplesRunAsDocumented) {
  const fs::path dir = fs::path("/tmp") / ("quiver-readme-streams-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path here = fs::current_path();
  fs::current_path(dir);
  {
    std::ofstream csv("lineitem.csv");
    csv << "l_orderkey,l_shipmode\n";
    for (int i = 0; i < 1000; ++i) csv << i << "," << (i % 3 == 0 ? "AIR" : i % 3 == 1 ? "MAIL" : "SHIP") << "\n";
  }
  int64_t copied = 0, air_count = 0;
  const quiver::Status st = ReadmeStreams(&copied, &air_count);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(g_consumed_rows, 1000);
  EXPECT_EQ(copied, 1000);
  EXPECT_EQ(air_count, 334);  // l_orderkey 0, 3, ..., 999
  auto pq = quiver::stream::OpenReader("lineitem.parquet");
  ASSERT_TRUE(pq.ok());
  EXPECT_EQ((*pq)->schema()->ToString(), "l_orderkey: int64\nl_shipmode: string\n");
  for (const char* mode : {"AIR", "MAIL", "SHIP"}) {
    EXPECT_TRUE(fs::exists(fs::path("by_mode") / (std::string("l_shipmode=") + mode) / "part-00000.parquet")) << mode;
  }
  fs::current_path(here);
  fs::remove_all(dir);
}

}  // namespace
