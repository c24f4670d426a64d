// Copy: every batch of a reader into a writer, then the writer's commit; a progress callback
// after each batch. Drain: every batch of a reader read and counted, nothing written.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct CopyOptions {
  // Called on the caller's thread after each batch is written, with the reader's stats then.
  std::function<void(const ReadStats&)> progress;
};

// Writes every batch of `reader` to `writer` and Finishes it; returns the rows copied. On the
// first error the writer is aborted (nothing is left of its output) and the error returned.
Result<int64_t> Copy(BatchReader& reader, BatchWriter& writer, const CopyOptions& options = {});

struct DrainCounts {
  int64_t rows = 0;
  int64_t bytes = 0;  // the batches' buffer bytes
};

// Reads every batch and counts it. Streamed (the default), each batch is released before the
// next is read, as a consumer of a file larger than memory does; `materialize` keeps them all
// to the end, as a DataFrame reader returns a file (a ParquetScan or OrcScan then decodes its
// remaining row groups or stripes in one parallel call, ReadAll). With `kept`, the materialized
// batches are moved there, so a caller timing the read frees the table after its clock stops.
Result<DrainCounts> Drain(BatchReader& reader, bool materialize = false,
                          std::vector<std::shared_ptr<RecordBatch>>* kept = nullptr);

}  // namespace quiver::stream
