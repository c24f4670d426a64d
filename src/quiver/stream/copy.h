// Copy: every batch of a reader into a writer, then the writer's commit; a progress callback
// after each batch.
#pragma once

#include <functional>

#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct CopyOptions {
  // Called on the caller's thread after each batch is written, with the reader's stats then.
  std::function<void(const ReadStats&)> progress;
};

// Writes every batch of `reader` to `writer` and Finishes it; returns the rows copied. On the
// first error the writer is aborted (nothing is left of its output) and the error returned.
Result<int64_t> Copy(BatchReader& reader, BatchWriter& writer, const CopyOptions& options = {});

}  // namespace quiver::stream
