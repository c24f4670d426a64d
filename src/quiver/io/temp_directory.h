// TempDirectory: a folder built beside its target and renamed into place by Commit, after one
// syncfs has made everything in it durable, so the target appears whole or not at all. Removed
// with its contents on failure, abandonment or SIGINT/SIGTERM/SIGHUP (InstallInterruptCleanup).
#pragma once

#include <memory>
#include <string>

#include "quiver/core/result.h"

namespace quiver::io {

class TempDirectory {
 public:
  // Creates "<parent>/.<name>.quiver-XXXXXX" for `target`, which must not exist.
  static Result<std::unique_ptr<TempDirectory>> Create(const std::string& target);
  // Removes the folder unless Commit succeeded.
  ~TempDirectory();
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;

  // Where to build (the temporary folder), and where Commit puts it.
  const std::string& path() const { return path_; }
  const std::string& target() const { return target_; }

  // syncfs on the folder's file system, rename to the target (refused if the target appeared
  // meanwhile), fsync of the parent. After a failure the folder is still there, to be
  // abandoned.
  Status Commit();
  // Removes the folder and everything in it now.
  void Abandon();

 private:
  TempDirectory() = default;
  std::string target_, path_;
  int slot_ = -1;  // RegisterTempDirectory
  bool committed_ = false;
};

}  // namespace quiver::io
