#include "quiver/stream/copy.h"

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

}  // namespace quiver::stream
