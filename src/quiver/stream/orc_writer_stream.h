// The ORC writer as a batch stream (orc::OrcFileWriter into an atomic file or stdout).
#pragma once

#include <memory>
#include <string>

#include "quiver/orc/writer/file_writer.h"
#include "quiver/stream/target_writer.h"

namespace quiver::stream {

class OrcStreamWriter final : public TargetWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  static Result<std::unique_ptr<OrcStreamWriter>> Open(const std::string& path, SchemaPtr schema,
                                                       orc::OrcWriterOptions options = {});

  Status Write(const std::shared_ptr<RecordBatch>& batch) override { return writer_->Write(batch); }
  // Stops the stripe encoding in flight before the output is dropped.
  void Abort() override;

 private:
  OrcStreamWriter() = default;
  // The last stripe and the file's tail.
  Status EndOutput() override { return writer_->Close(); }
  std::unique_ptr<orc::OrcFileWriter> writer_;
};

}  // namespace quiver::stream
