// Arrow IPC writing: record batches as the stream format or the file format (ARROW1, footer,
// Block index), little-endian, each buffer 8-byte aligned and padded to 64 bytes, optionally
// LZ4_FRAME- or ZSTD-compressed per buffer; a stream::BatchWriter into an atomic file or stdout.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/io/output_stream.h"
#include "quiver/io/output_target.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::ipc {

enum class BodyCompression { kNone, kLz4Frame, kZstd };

// "none"/"uncompressed", "lz4" or "lz4_frame", "zstd" (any case).
Result<BodyCompression> BodyCompressionFromName(std::string_view name);

struct IpcWriteOptions {
  bool file_format = true;  // false: the stream format
  BodyCompression compression = BodyCompression::kNone;
  // Rows per record batch: input batches are cut and joined to this many rows (the last one
  // shorter), so the bytes depend on the rows and the options only, never on how a reader chunked
  // them (thread count, block size). 0 writes each input batch as it comes.
  int64_t batch_rows = int64_t{64} << 10;
};

class IpcWriter final : public stream::BatchWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  static Result<std::unique_ptr<IpcWriter>> Open(const std::string& path, SchemaPtr schema, IpcWriteOptions options = {});
  // Into a stream the caller owns and commits.
  static Result<std::unique_ptr<IpcWriter>> Make(io::OutputStream* out, SchemaPtr schema, IpcWriteOptions options = {});
  ~IpcWriter() override;

  Status Write(const std::shared_ptr<RecordBatch>& batch) override;
  // The end-of-stream marker (and for the file format the footer), then the commit.
  Status Finish() override;
  void Abort() override;
  int64_t bytes_written() const override { return bytes_ >= 0 ? bytes_ : out_->Tell(); }

  // A run of a message body's bytes.
  struct Piece { const uint8_t* data; int64_t length; };

 private:
  IpcWriter() = default;
  Status Start();
  // One record batch message.
  Status WriteBatch(const RecordBatch& batch);
  // The rows held back for the next batch_rows-row batch, as one batch.
  Status FlushPending();
  // Writes one message (framing, metadata, body pieces), noting its block for the footer.
  Status WriteMessage(const std::vector<uint8_t>& metadata, const std::vector<Piece>& body, int64_t body_length,
                      bool record_block);

  std::unique_ptr<io::OutputTarget> target_;  // null when writing into a caller's stream
  io::OutputStream* out_ = nullptr;
  SchemaPtr schema_;
  IpcWriteOptions options_;
  struct BlockOut { int64_t offset; int32_t meta_length; int64_t body_length; };
  std::vector<BlockOut> blocks_;
  std::vector<std::shared_ptr<RecordBatch>> pending_;  // slices, fewer than batch_rows rows in all
  int64_t pending_rows_ = 0;
  int64_t bytes_ = -1;  // once finished or aborted
  bool finished_ = false;
};

}  // namespace quiver::ipc
