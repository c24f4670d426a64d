// Sequential output: a buffered file descriptor writer, and an in-memory sink.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"

namespace quiver::io {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  virtual Status Write(const void* data, int64_t length) = 0;
  Status Write(std::string_view s) { return Write(s.data(), static_cast<int64_t>(s.size())); }
  virtual Status Flush() = 0;
  // Bytes written so far.
  virtual int64_t Tell() const = 0;
};

// Buffers writes to a file descriptor it does not own (stdout, or an AtomicFile's).
class FdOutputStream final : public OutputStream {
  struct FreeBytes {
    void operator()(uint8_t* p) const;
  };

 public:
  FdOutputStream(int fd, std::string name, int64_t buffer_size = 1 << 20);
  ~FdOutputStream() override;
  Status Write(const void* data, int64_t length) override;
  Status Flush() override;
  int64_t Tell() const override { return written_ + static_cast<int64_t>(used_); }
  // Starts the kernel's writeback (sync_file_range) of every `bytes` written, so that a final
  // fsync finds little left to write instead of the whole file (0: never). Each range is then,
  // a few ranges later, waited for and dropped from the page cache: the next writes reuse its
  // pages instead of taking fresh ones, which cost a host fault each on a VM (a 1.2 GB output
  // over an existing file of that size took 2-3 s more system time), and a large output does not
  // push other files out of the cache.
  void set_writeback_every(int64_t bytes) { writeback_every_ = bytes; }
  // Writes whole blocks of the buffer straight to the device (O_DIRECT) instead of copying them
  // into the page cache: for a file that is fsynced at the end anyway, the copy and the fresh
  // cache pages are CPU spent for nothing. Call before the first write. Returns false, and the
  // stream stays as it was, where the file system refuses it; a later refusal (EINVAL) turns it
  // off and rewrites the same bytes the usual way. Flush writes the last partial block through
  // the page cache, so later writes do too.
  bool UseDirectIo();
  bool direct_io() const { return direct_; }

 private:
  Status WriteFully(const uint8_t* data, size_t length);
  Status WriteSlow(const uint8_t* data, size_t length);
  // Leaves direct mode (the file descriptor's O_DIRECT flag and this stream's state).
  Status EndDirectIo();

  int fd_;
  std::string name_;
  std::unique_ptr<uint8_t, FreeBytes> buffer_;  // aligned for O_DIRECT
  size_t capacity_;
  size_t direct_from_;  // writes this large skip the buffer
  size_t used_ = 0;
  int64_t written_ = 0;
  int64_t writeback_every_ = 0;
  int64_t writeback_from_ = 0;  // bytes before this offset have had their writeback started
  int64_t dropped_to_ = 0;      // bytes before this offset are on disk and out of the page cache
  bool direct_ = false;         // the fd has O_DIRECT; written_ is then a multiple of the block
};

// Collects everything written into one Buffer.
class BufferOutputStream final : public OutputStream {
 public:
  explicit BufferOutputStream(MemoryPool* pool = default_memory_pool()) : builder_(pool) {}
  Status Write(const void* data, int64_t length) override { return builder_.Append(data, length); }
  Status Flush() override { return Status::OK(); }
  int64_t Tell() const override { return builder_.size(); }
  Result<std::shared_ptr<Buffer>> Finish() { return builder_.Finish(); }

 private:
  BufferBuilder builder_;
};

}  // namespace quiver::io
