#include "quiver/io/output_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace quiver::io {
namespace {

// Written ranges kept in the page cache behind the one being written back.
constexpr int64_t kDropLag = 4;
// Writes from this size on go to the kernel from the caller's memory: a compressed column chunk
// (hundreds of KB) copied into the buffer first would cost a pass over every byte of the file
// for a syscall saved per chunk.
constexpr size_t kDirectFrom = size_t{64} << 10;

}  // namespace

FdOutputStream::FdOutputStream(int fd, std::string name, int64_t buffer_size)
    : fd_(fd),
      name_(std::move(name)),
      buffer_(new uint8_t[buffer_size]),
      capacity_(static_cast<size_t>(buffer_size)),
      direct_from_(std::min(capacity_, kDirectFrom)) {}

FdOutputStream::~FdOutputStream() = default;

Status FdOutputStream::WriteFully(const uint8_t* data, size_t length) {
  while (length > 0) {
    ssize_t n = ::write(fd_, data, length);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::FromErrno(errno, name_);
    }
    data += n;
    length -= static_cast<size_t>(n);
    written_ += n;
  }
  if (writeback_every_ > 0 && written_ - writeback_from_ >= writeback_every_) {
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
  return WriteFully(buffer_.get(), n);
}

}  // namespace quiver::io
