// Random-access input: a memory-mapped file, a pread-backed file, or bytes already in memory.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"

namespace quiver::io {

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  virtual int64_t size() const = 0;
  // Exactly `length` bytes at `offset`, or an error naming the file when the range is outside
  // it. Zero-copy for mapped and in-memory sources; a pread source copies into a buffer from
  // `pool`, so the caller's memory limit covers its input too.
  virtual Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length,
                                                 MemoryPool* pool = default_memory_pool()) = 0;
  // Copies exactly `length` bytes at `offset` into `out` (for callers that reuse one buffer
  // from read to read); the same range errors as ReadAt.
  virtual Status ReadInto(int64_t offset, int64_t length, uint8_t* out);
  // The whole content, when it is already addressable (mmap or memory); else nullptr.
  virtual const uint8_t* mapped_data() const { return nullptr; }
  const std::string& path() const { return path_; }

 protected:
  explicit RandomAccessFile(std::string path) : path_(std::move(path)) {}
  Status CheckRange(int64_t offset, int64_t length) const;

 private:
  std::string path_;
};

enum class ReadMode { kMmap, kPread };

// Opens a file for reading; mmap by default, falling back to pread if mapping fails.
Result<std::shared_ptr<RandomAccessFile>> OpenFile(const std::string& path, ReadMode mode = ReadMode::kMmap);
// A source over bytes in memory, shown in messages as `name`.
std::shared_ptr<RandomAccessFile> MemorySource(std::shared_ptr<Buffer> bytes, std::string name = "<memory>");

}  // namespace quiver::io
