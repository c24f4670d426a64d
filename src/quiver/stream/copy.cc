#include "quiver/stream/copy.h"

#include <vector>

#include "quiver/stream/orc_scan.h"
#include "quiver/stream/parquet_scan.h"

namespace quiver::stream {
namespace {

Status CopyBatches(BatchReader& reader, BatchWriter& writer, const CopyOptions& options, int64_t* rows) {
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<RecordBatch> batch, reader.Next());
    if (!batch) break;
    *rows += batch->num_rows();
    QUIVER_RETURN_NOT_OK(writer.Write(batch));
    if (options.progress) options.progress(reader.stats());
  }
  return writer.Finish();
}

}  // namespace

Result<int64_t> Copy(BatchReader& reader, BatchWriter& writer, const CopyOptions& options) {
  int64_t rows = 0;
  Status st = CopyBatches(reader, writer, options, &rows);
  if (!st.ok()) {
    writer.Abort();
    return st;
  }
  return rows;
}

Result<DrainCounts> Drain(BatchReader& reader, bool materialize, std::vector<std::shared_ptr<RecordBatch>>* kept_out) {
  DrainCounts n;
  auto count = [&n](const RecordBatch& b) {
    n.rows += b.num_rows();
    n.bytes += b.buffer_bytes();
  };
  if (!materialize) {
    for (;;) {
      QUIVER_ASSIGN_OR_RETURN(auto b, reader.Next());
      if (!b) return n;
      count(*b);
    }
  }
  std::vector<std::shared_ptr<RecordBatch>> kept;
  if (auto* scan = dynamic_cast<ParquetScan*>(&reader)) {
    QUIVER_ASSIGN_OR_RETURN(kept, scan->ReadAll());
  } else if (auto* orc = dynamic_cast<OrcScan*>(&reader)) {
    QUIVER_ASSIGN_OR_RETURN(kept, orc->ReadAll());
  } else {
    for (;;) {
      QUIVER_ASSIGN_OR_RETURN(auto b, reader.Next());
      if (!b) break;
      kept.push_back(std::move(b));
    }
  }
  for (const auto& b : kept) count(*b);
  if (kept_out != nullptr) *kept_out = std::move(kept);
  return n;
}

}  // namespace quiver::stream
