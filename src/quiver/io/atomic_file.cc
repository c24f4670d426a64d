#include "quiver/io/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <limits.h>
#include <signal.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace quiver::io {

namespace {

// The kernel's getdents64 record (glibc declares no type for the raw syscall).
struct linux_dirent64_view {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// Temporary paths the signal handler may unlink. Fixed storage: the handler may only use
// async-signal-safe operations, so no allocation, no locks.
constexpr int kSlots = 64;
char g_temp_paths[kSlots][PATH_MAX];
bool g_slot_is_dir[kSlots];
std::atomic<bool> g_slot_used[kSlots];

int ClaimSlot(const std::string& temp_path, bool is_dir = false) {
  if (temp_path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_slot_used[i].compare_exchange_strong(expected, true)) {
      // Marked used before the path is complete: a signal in between removes a stale or partial
      // path at worst, which names no file (the mkstemp/mkdtemp suffix is unique).
      std::memcpy(g_temp_paths[i], temp_path.c_str(), temp_path.size() + 1);
      g_slot_is_dir[i] = is_dir;
      return i;
    }
  }
  return -1;
}

void ReleaseSlot(int slot) {
  if (slot >= 0) g_slot_used[slot].store(false);
}

// Removes everything under the open folder `fd` with async-signal-safe calls only: raw
// getdents64 into a stack buffer (opendir/readdir may allocate), unlinkat, recursion by fd.
// Entries are removed while listing, so the listing restarts until a pass removes nothing.
void RemoveContentsSignalSafe(int fd, int depth) {
  if (depth > 8) return;
  alignas(8) char buf[4096];
  for (int pass = 0; pass < 1000; ++pass) {
    if (lseek(fd, 0, SEEK_SET) != 0) return;
    bool removed = false;
    for (;;) {
      const long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        const auto* d = reinterpret_cast<const struct linux_dirent64_view*>(buf + off);
        off += d->d_reclen;
        const char* name = d->d_name;
        if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
        if (d->d_type != DT_DIR) {
          if (unlinkat(fd, name, 0) == 0) {
            removed = true;
            continue;
          }
          if (d->d_type != DT_UNKNOWN) continue;  // some file systems leave the type unknown
        }
        {
          const int sub = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
          if (sub >= 0) {
            RemoveContentsSignalSafe(sub, depth + 1);
            close(sub);
          }
          if (unlinkat(fd, name, AT_REMOVEDIR) == 0) removed = true;
        }
      }
    }
    if (!removed) return;
  }
}

void RemoveTreeSignalSafe(const char* path) {
  const int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  RemoveContentsSignalSafe(fd, 0);
  close(fd);
  rmdir(path);
}

extern "C" void CleanupOnSignal(int sig) {
  if (sig == SIGBUS) {
    // The one way a mapped input (a CSV block, an ORC or Arrow IPC file) faults: its file was cut short
    // while being read. Said before dying, since a bare "Bus error" names no cause.
    static constexpr char kMessage[] =
        "quiver: an input file was cut short while being read (SIGBUS on its mapped pages); no output was kept\n";
    (void)!write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  }
  for (int i = 0; i < kSlots; ++i) {
    if (!g_slot_used[i].load()) continue;
    if (g_slot_is_dir[i]) RemoveTreeSignalSafe(g_temp_paths[i]);
    else unlink(g_temp_paths[i]);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// "<dir>/.<name>.quiver-XXXXXX", a pattern for mkstemp beside the target.
std::string TemporaryName(const std::filesystem::path& target) {
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  return (dir / ("." + target.filename().string() + ".quiver-XXXXXX")).string();
}

}  // namespace

int RegisterTempDirectory(const std::string& path) { return ClaimSlot(path, /*is_dir=*/true); }

void UnregisterTempDirectory(int slot) { ReleaseSlot(slot); }

void InstallInterruptCleanup() {
  struct sigaction sa{};
  sa.sa_handler = CleanupOnSignal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGBUS}) sigaction(sig, &sa, nullptr);
}

AtomicFile::AtomicFile(std::string path, std::string temp_path, int fd, int slot)
    : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), slot_(slot),
      stream_(std::make_unique<FdOutputStream>(fd, path_)) {
  // Commit fsyncs the file, so its bytes go to the device in any case: straight from the
  // stream's buffer where the file system allows it. Otherwise, through the page cache with
  // writeback started as it goes, so that Commit's fsync waits for the last few MiB only.
  if (!stream_->UseDirectIo()) stream_->set_writeback_every(int64_t{32} << 20);
}

Result<std::unique_ptr<AtomicFile>> AtomicFile::Open(const std::string& path) {
  std::filesystem::path target(path);
  if (target.filename().empty()) return Status::Invalid(fmt::format("{}: not a file name", path));
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  // Unnamed until Commit: a SIGKILL (or the OOM killer) then leaves nothing, where a named
  // temporary file would stay beside the target with no one to remove it.
  int fd = open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd >= 0) return std::unique_ptr<AtomicFile>(new AtomicFile(path, std::string(), fd, -1));
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
    return Status::FromErrno(errno, fmt::format("{}: cannot create a temporary file in {}", path, dir.string()));
  }
  std::string tmpl = TemporaryName(target);
  fd = mkostemp(tmpl.data(), O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, fmt::format("{}: cannot create a temporary file in {}", path, dir.string()));
  // mkstemp makes 0600; give the result the usual permissions of a new data file.
  fchmod(fd, 0644);
  int slot = ClaimSlot(tmpl);
  return std::unique_ptr<AtomicFile>(new AtomicFile(path, tmpl, fd, slot));
}

AtomicFile::~AtomicFile() { Abandon(); }

void AtomicFile::Abandon() {
  if (done_) return;
  done_ = true;
  stream_.reset();
  close(fd_);  // an unnamed file goes with its last descriptor
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
  ReleaseSlot(slot_);
}

// Gives the unnamed file `fd` the target's name. linkat never replaces a name, so an existing
// target is replaced by linking to a temporary name and renaming that over it: only a kill in
// the moment between the two leaves the temporary name behind.
Status AtomicFile::LinkUnnamed() {
  const std::string proc = fmt::format("/proc/self/fd/{}", fd_);
  // Through /proc, which any user may do; AT_EMPTY_PATH (which needs CAP_DAC_READ_SEARCH) where
  // /proc is not mounted.
  auto link_to = [&](const std::string& name) {
    if (linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != ENOENT) return -1;
    return linkat(fd_, "", AT_FDCWD, name.c_str(), AT_EMPTY_PATH);
  };
  if (link_to(path_) == 0) return Status::OK();
  if (errno != EEXIST) return Status::FromErrno(errno, fmt::format("{}: cannot name the new file", path_));
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string tmpl = TemporaryName(std::filesystem::path(path_));
    // A unique name from mkstemp's pattern, removed at once: linkat then takes it (or fails with
    // EEXIST if another process took it meanwhile, and the loop tries another).
    const int probe = mkostemp(tmpl.data(), O_CLOEXEC);
    if (probe < 0) return Status::FromErrno(errno, fmt::format("{}: cannot create a temporary name", path_));
    close(probe);
    unlink(tmpl.c_str());
    if (link_to(tmpl) != 0) {
      if (errno == EEXIST) continue;
      return Status::FromErrno(errno, fmt::format("{}: cannot name the new file", path_));
    }
    const int slot = ClaimSlot(tmpl);
    if (rename(tmpl.c_str(), path_.c_str()) != 0) {
      const int err = errno;
      unlink(tmpl.c_str());
      ReleaseSlot(slot);
      return Status::FromErrno(err, fmt::format("{}: rename from {}", path_, tmpl));
    }
    ReleaseSlot(slot);
    return Status::OK();
  }
  return Status::IOError(fmt::format("{}: no free temporary name to replace it", path_));
}

Status AtomicFile::Commit() {
  if (done_) return Status::Invalid(fmt::format("{}: already committed or abandoned", path_));
  Status st = stream_->Flush();
  if (st.ok() && fsync(fd_) != 0) st = Status::FromErrno(errno, path_);
  if (st.ok() && temp_path_.empty()) st = LinkUnnamed();  // while the descriptor still holds the file
  if (!st.ok()) {
    Abandon();
    return st;
  }
  stream_.reset();
  if (close(fd_) != 0) {
    int err = errno;
    done_ = true;
    // A named file that failed to close is removed; a linked unnamed one is in place already.
    if (!temp_path_.empty()) unlink(temp_path_.c_str());
    ReleaseSlot(slot_);
    return Status::FromErrno(err, path_);
  }
  done_ = true;
  if (!temp_path_.empty() && rename(temp_path_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    unlink(temp_path_.c_str());
    ReleaseSlot(slot_);
    return Status::FromErrno(err, fmt::format("{}: rename from {}", path_, temp_path_));
  }
  ReleaseSlot(slot_);
  SyncParentDirectory(path_);  // the new name itself durable
  return Status::OK();
}

void SyncParentDirectory(const std::string& path) {
  std::filesystem::path p(path);
  if (p.filename().empty()) p = p.parent_path();  // "dir/" names dir
  const std::filesystem::path dir = p.parent_path();
  const int dfd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

}  // namespace quiver::io
