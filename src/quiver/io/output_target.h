// Where an output goes: a file written atomically (io::AtomicFile), or stdout ("-").
#pragma once

#include <memory>
#include <string>

#include "quiver/io/atomic_file.h"

namespace quiver::io {

class OutputTarget {
 public:
  // "-" or empty means stdout.
  static Result<std::unique_ptr<OutputTarget>> Open(const std::string& path);
  OutputStream* stream() { return file_ ? file_->stream() : stdout_.get(); }
  // Renames the file into place (or flushes stdout).
  Status Commit();
  // Drops the temporary file (stdout: nothing to undo).
  void Abandon();

 private:
  std::unique_ptr<AtomicFile> file_;
  std::unique_ptr<FdOutputStream> stdout_;
};

}  // namespace quiver::io
