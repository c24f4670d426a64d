#include "quiver/io/output_target.h"

#include <unistd.h>

namespace quiver::io {

Result<std::unique_ptr<OutputTarget>> OutputTarget::Open(const std::string& path) {
  auto out = std::make_unique<OutputTarget>();
  if (path.empty() || path == "-") {
    out->stdout_ = std::make_unique<FdOutputStream>(STDOUT_FILENO, "<stdout>");
  } else {
    QUIVER_ASSIGN_OR_RETURN(out->file_, AtomicFile::Open(path));
  }
  return out;
}

Status OutputTarget::Commit() { return file_ ? file_->Commit() : stdout_->Flush(); }

void OutputTarget::Abandon() {
  if (file_) file_->Abandon();
}

}  // namespace quiver::io
