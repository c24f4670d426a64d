// Writes record batches into an in-memory Parquet file: the setup step of the reader and writer
// round-trip tests.
#pragma once

#include <memory>
#include <vector>

#include "quiver/core/result.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/keep_parquet.h"

namespace quiver::testing {

inline Result<std::shared_ptr<Buffer>> WriteParquetBytes(const SchemaPtr& schema,
                                                          const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                                          const parquet::ParquetWriterOptions& opts) {
  io::BufferOutputStream out;
  QUIVER_ASSIGN_OR_RETURN(auto w, parquet::ParquetFileWriter::Open(&out, schema, opts));
  for (const auto& b : batches) QUIVER_RETURN_NOT_OK(w->Write(b));
  QUIVER_RETURN_NOT_OK(w->Close());
  QUIVER_ASSIGN_OR_RETURN(auto bytes, out.Finish());
  KeepParquet(bytes->view());
  return bytes;
}

}  // namespace quiver::testing
