#include "quiver/io/output_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

namespace quiver::io {
namespace {

// Written ranges kept in the page cache behind the one being written back.
constexpr int64_t kDropLag = 4;
// Writes from this size on go to the kernel from the caller's memory: a compressed column chunk
// (hundreds of KB) copied into the buffer first would cost a pass over every byte of the file
// for a syscall saved per chunk.
constexpr size_t kDirectFrom = size_t{64} << 10;
// O_DIRECT wants the memory, the file offset and the length aligned to the device's logical
// block; 4 KiB covers every common device.
constexpr size_t kBlock = 4096;

size_t RoundUpToBlock(int64_t n) { return (static_cast<size_t>(std::max<int64_t>(n, 1)) + kBlock - 1) & ~(kBlock - 1); }

}  // namespace

void FdOutputStream::FreeBytes::operator()(uint8_t* p) const { std::free(p); }

FdOutputStream::FdOutputStream(int fd, std::string name, int64_t buffer_size)
    : fd_(fd),
      name_(std::move(name)),
      capacity_(RoundUpToBlock(buffer_size)),
      direct_from_(std::min(capacity_, kDirectFrom)) {
  buffer_.reset(static_cast<uint8_t*>(std::aligned_alloc(kBlock, capacity_)));
  if (buffer_ == nullptr) throw std::bad_alloc();
}

FdOutputStream::~FdOutputStream() = default;

bool FdOutputStream::UseDirectIo() {
  if (direct_ || written_ != 0 || used_ != 0) return direct_;
  // Only for files: on a pipe the same flag means packet mode.
  struct stat st{};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags | O_DIRECT) != 0) return false;
  direct_ = true;
  return true;
}

Status FdOutputStream::EndDirectIo() {
  direct_ = false;
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT) != 0) return Status::FromErrno(errno, name_);
  return Status::OK();
}

Status FdOutputStream::WriteFully(const uint8_t* data, size_t length) {
  while (length > 0) {
    ssize_t n = ::write(fd_, data, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EINVAL && direct_) {
        // The file system took the flag but not this write (alignment it wants larger, or a
        // short write before left the offset unaligned): the rest goes through the page cache.
        QUIVER_RETURN_NOT_OK(EndDirectIo());
        continue;
      }
      return Status::FromErrno(errno, name_);
    }
    data += n;
    length -= static_cast<size_t>(n);
    written_ += n;
  }
  if (writeback_every_ > 0 && !direct_ && written_ - writeback_from_ >= writeback_every_) {
    // Asynchronous: it only queues the range's dirty pages for writing. A failure (a pipe, a
    // file system without it) just leaves the work to the final fsync.
    (void)::sync_file_range(fd_, writeback_from_, written_ - writeback_from_, SYNC_FILE_RANGE_WRITE);
    writeback_from_ = written_;
    // Bytes whose writeback started a few ranges ago have mostly reached the disk by now (so
    // the wait is short): wait for the rest, then drop their pages.
    const int64_t drop_to = written_ - kDropLag * writeback_every_;
    if (drop_to > dropped_to_) {
      const int64_t n = drop_to - dropped_to_;
      if (::sync_file_range(fd_, dropped_to_, n, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
                                                     SYNC_FILE_RANGE_WAIT_AFTER) == 0) {
        (void)::posix_fadvise(fd_, dropped_to_, n, POSIX_FADV_DONTNEED);
      }
      dropped_to_ = drop_to;
    }
  }
  return Status::OK();
}

Status FdOutputStream::Write(const void* data, int64_t length) {
  auto* p = static_cast<const uint8_t*>(data);
  auto n = static_cast<size_t>(length);
  if (n < direct_from_ && used_ + n <= capacity_) [[likely]] {
    std::memcpy(buffer_.get() + used_, p, n);
    used_ += n;
    return Status::OK();
  }
  return WriteSlow(p, n);
}

Status FdOutputStream::WriteSlow(const uint8_t* p, size_t n) {
  if (direct_) {
    // Everything passes through the aligned buffer, which goes out whole.
    while (n > 0) {
      const size_t take = std::min(n, capacity_ - used_);
      std::memcpy(buffer_.get() + used_, p, take);
      used_ += take;
      p += take;
      n -= take;
      if (used_ == capacity_) {
        used_ = 0;
        QUIVER_RETURN_NOT_OK(WriteFully(buffer_.get(), capacity_));
      }
    }
    return Status::OK();
  }
  QUIVER_RETURN_NOT_OK(Flush());
  if (n >= direct_from_) return WriteFully(p, n);
  std::memcpy(buffer_.get(), p, n);
  used_ = n;
  return Status::OK();
}

Status FdOutputStream::Flush() {
  if (used_ == 0) return Status::OK();
  size_t n = used_;
  used_ = 0;
  if (direct_) {
    const size_t whole = n & ~(kBlock - 1);
    if (whole > 0) QUIVER_RETURN_NOT_OK(WriteFully(buffer_.get(), whole));
    if (whole == n) return Status::OK();
    QUIVER_RETURN_NOT_OK(EndDirectIo());
    return WriteFully(buffer_.get() + whole, n - whole);
  }
  return WriteFully(buffer_.get(), n);
}

}  // namespace quiver::io
