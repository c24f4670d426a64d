// The JSON Lines writer as a batch stream, into an atomic file or stdout.
#pragma once

#include <memory>
#include <string>

#include "quiver/io/output_target.h"
#include "quiver/jsonl/writer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class JsonlStreamWriter final : public BatchWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  static Result<std::unique_ptr<JsonlStreamWriter>> Open(const std::string& path);

  Status Write(const std::shared_ptr<RecordBatch>& batch) override { return writer_->Write(*batch); }
  Status Finish() override {
    bytes_ = out_->stream()->Tell();
    return out_->Commit();
  }
  void Abort() override {
    if (bytes_ < 0) bytes_ = out_->stream()->Tell();
    out_->Abandon();
  }
  int64_t bytes_written() const override { return bytes_ >= 0 ? bytes_ : out_->stream()->Tell(); }

 private:
  JsonlStreamWriter() = default;
  std::unique_ptr<io::OutputTarget> out_;
  int64_t bytes_ = -1;  // once finished or aborted (the stream is gone then)
  std::unique_ptr<jsonl::JsonlWriter> writer_;
};

}  // namespace quiver::stream
