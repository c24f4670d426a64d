// The JSON Lines writer as a batch stream, into an atomic file or stdout.
#pragma once

#include <memory>
#include <string>

#include "quiver/jsonl/writer.h"
#include "quiver/stream/target_writer.h"

namespace quiver::stream {

class JsonlStreamWriter final : public TargetWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  static Result<std::unique_ptr<JsonlStreamWriter>> Open(const std::string& path);

  Status Write(const std::shared_ptr<RecordBatch>& batch) override { return writer_->Write(*batch); }

 private:
  JsonlStreamWriter() = default;
  std::unique_ptr<jsonl::JsonlWriter> writer_;
};

}  // namespace quiver::stream
