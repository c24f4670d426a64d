// AtomicFile: writes to an unnamed file in the target's folder and gives it the target's name on
// Commit, so readers see either the old file or the whole new one, never a partial write.
#pragma once

#include <memory>
#include <string>

#include "quiver/core/result.h"
#include "quiver/io/output_stream.h"

namespace quiver::io {

class AtomicFile {
 public:
  // Creates an unnamed file (O_TMPFILE) in the target's folder, which no kill can leave behind:
  // until Commit it has no name. Where the file system lacks O_TMPFILE, a named one,
  // "<dir>/.<name>.quiver-XXXXXX", that the interrupt handler removes (SIGKILL leaves it).
  // Fails early if the folder is not writable.
  static Result<std::unique_ptr<AtomicFile>> Open(const std::string& path);
  // Removes the temporary file unless Commit succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  OutputStream* stream() { return stream_.get(); }
  const std::string& path() const { return path_; }
  // The named temporary file, or empty while the file is unnamed (O_TMPFILE).
  const std::string& temp_path() const { return temp_path_; }

  // Flush, fsync, name the file (link an unnamed one: straight to the target when that does not
  // exist, else to a temporary name renamed over it), fsync the folder. After a failure the
  // temporary file is gone and the target untouched.
  Status Commit();
  // Drops the temporary file now (the destructor does this too).
  void Abandon();

 private:
  AtomicFile(std::string path, std::string temp_path, int fd, int slot);
  Status LinkUnnamed();

  std::string path_;
  std::string temp_path_;
  int fd_;
  int slot_;  // index in the interrupt-cleanup table, or -1
  bool done_ = false;
  std::unique_ptr<FdOutputStream> stream_;
};

// fsyncs the folder that holds `path` (a file or folder just created or renamed there), so that
// the new name survives a crash. Best effort: some file systems refuse fsync on a folder.
void SyncParentDirectory(const std::string& path);

// Installs SIGINT/SIGTERM/SIGHUP handlers that unlink every open AtomicFile's temporary
// file, remove every registered temporary folder with its contents, and then die of the same
// signal; and the same for SIGBUS (an input file cut short under its mapping), which first
// says so on stderr. Call once from main().
void InstallInterruptCleanup();

// A temporary folder (e.g. a partitioned output being built) that the interrupt handler removes
// with everything under it, up to 8 levels deep. Returns a slot for UnregisterTempDirectory, or
// -1 when the path is too long or all slots are taken (the folder is then not cleaned on a signal).
int RegisterTempDirectory(const std::string& path);
// Call once the folder is renamed into place or removed.
void UnregisterTempDirectory(int slot);

}  // namespace quiver::io
