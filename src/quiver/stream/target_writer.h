// The part every text writer shares as a batch stream: its bytes go to an io::OutputTarget
// (an atomic file or stdout), which Finish commits and Abort abandons, its size counted until then.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/io/output_target.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class TargetWriter : public BatchWriter {
 public:
  Status Finish() override {
    QUIVER_RETURN_NOT_OK(EndOutput());
    bytes_ = out_->stream()->Tell();
    return out_->Commit();
  }
  void Abort() override {
    if (bytes_ < 0) bytes_ = out_->stream()->Tell();
    out_->Abandon();
  }
  int64_t bytes_written() const override { return bytes_ >= 0 ? bytes_ : out_->stream()->Tell(); }

 protected:
  // What the format writes last, before the commit (once per output).
  virtual Status EndOutput() { return Status::OK(); }
  std::unique_ptr<io::OutputTarget> out_;

 private:
  int64_t bytes_ = -1;  // once finished or aborted (the stream is gone then)
};

}  // namespace quiver::stream
