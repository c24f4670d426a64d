// Batch streams: the one shape of every format's reader (schema, next batch, end) and writer
// (write batches, then finish or abort), so that a program copies any input to any output
// without knowing either format. Calls are per batch, never per value.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"

namespace quiver::stream {

// What a reader has done so far, for progress and summaries.
struct ReadStats {
  int64_t rows_read = 0;        // rows delivered in batches
  int64_t bytes_read = 0;       // input bytes consumed (decoded bytes for compressed text)
  int64_t input_position = 0;   // raw input bytes consumed, comparable to input_size
  int64_t input_size = -1;      // raw input bytes in all; -1 when unknown (stdin, a pipe)
  int64_t rows_rejected = 0;    // rows left out by an on_error = skip read
};

class BatchReader {
 public:
  virtual ~BatchReader() = default;
  // Settled on open: every batch has this schema.
  virtual const SchemaPtr& schema() const = 0;
  // The next batch, or nullptr after the last one. After an error the stream is over.
  virtual Result<std::shared_ptr<RecordBatch>> Next() = 0;
  // Read between calls to Next (not while one runs on another thread).
  virtual ReadStats stats() const = 0;
  // How many batches are worth reading ahead on another thread (ReadAhead's queue): about
  // one unit of the format's own parallel work.
  virtual size_t read_ahead_batches() const { return 2; }
};

class BatchWriter {
 public:
  // A writer destroyed before Finish succeeded leaves nothing behind (as Abort).
  virtual ~BatchWriter() = default;
  // The batch has the schema the writer was opened with; it may be kept (shared) until Finish.
  virtual Status Write(const std::shared_ptr<RecordBatch>& batch) = 0;
  // Writes what is buffered and commits the output (a file or folder appears under its name).
  virtual Status Finish() = 0;
  // Drops the output; the target is untouched.
  virtual void Abort() = 0;
  // Output bytes so far (all of them once Finish returned).
  virtual int64_t bytes_written() const = 0;
};

}  // namespace quiver::stream
