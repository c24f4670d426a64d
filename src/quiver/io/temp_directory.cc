#include "quiver/io/temp_directory.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "quiver/io/atomic_file.h"

namespace quiver::io {

namespace fs = std::filesystem;

Result<std::unique_ptr<TempDirectory>> TempDirectory::Create(const std::string& target) {
  std::error_code ec;
  if (fs::exists(target, ec)) return Status::Invalid(fmt::format("{}: exists", target));
  fs::path t(target);
  if (t.filename().empty()) t = t.parent_path();  // "dir/" names dir
  const fs::path parent = t.has_parent_path() ? t.parent_path() : fs::path(".");
  std::string templ = (parent / ("." + t.filename().string() + ".quiver-XXXXXX")).string();
  if (::mkdtemp(templ.data()) == nullptr) return Status::FromErrno(errno, templ);
  auto d = std::unique_ptr<TempDirectory>(new TempDirectory());
  d->target_ = t.string();
  d->path_ = std::move(templ);
  // Ctrl-C and kill remove the folder too (no destructor runs then).
  d->slot_ = RegisterTempDirectory(d->path_);
  return d;
}

TempDirectory::~TempDirectory() { Abandon(); }

Status TempDirectory::Commit() {
  {
    // Every file in the folder durable before it appears under its name: one syncfs rather
    // than a journal commit per file.
    const int fd = ::open(path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return Status::FromErrno(errno, path_);
    const int rc = ::syncfs(fd);
    const int err = errno;
    ::close(fd);
    if (rc != 0) return Status::FromErrno(err, path_);
  }
  if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE) != 0) {
    return Status::FromErrno(errno, target_);
  }
  committed_ = true;
  UnregisterTempDirectory(slot_);
  slot_ = -1;
  SyncParentDirectory(target_);
  return Status::OK();
}

void TempDirectory::Abandon() {
  if (!committed_ && !path_.empty()) {
    std::error_code ec;
    fs::remove_all(path_, ec);
    path_.clear();
  }
  UnregisterTempDirectory(slot_);
  slot_ = -1;
}

}  // namespace quiver::io
