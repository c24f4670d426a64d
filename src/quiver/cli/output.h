// Where a command's output goes: a file written atomically, or stdout.
#pragma once

#include <memory>
#include <string>

#include "quiver/io/atomic_file.h"

namespace quiver::cli {

class CommandOutput {
 public:
  // "-" or empty means stdout.
  static Result<std::unique_ptr<CommandOutput>> Open(const std::string& path);
  io::OutputStream* stream() { return file_ ? file_->stream() : stdout_.get(); }
  // Renames the file into place (or flushes stdout).
  Status Commit();

 private:
  std::unique_ptr<io::AtomicFile> file_;
  std::unique_ptr<io::FdOutputStream> stdout_;
};

}  // namespace quiver::cli
