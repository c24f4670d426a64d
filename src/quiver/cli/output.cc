#include "quiver/cli/output.h"

#include <unistd.h>

namespace quiver::cli {

Result<std::unique_ptr<CommandOutput>> CommandOutput::Open(const std::string& path) {
  auto out = std::make_unique<CommandOutput>();
  if (path.empty() || path == "-") {
    out->stdout_ = std::make_unique<io::FdOutputStream>(STDOUT_FILENO, "<stdout>");
  } else {
    QUIVER_ASSIGN_OR_RETURN(out->file_, io::AtomicFile::Open(path));
  }
  return out;
}

Status CommandOutput::Commit() { return file_ ? file_->Commit() : stdout_->Flush(); }

}  // namespace quiver::cli
