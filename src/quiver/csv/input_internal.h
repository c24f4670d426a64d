// The bytes a CSV read sees: from a file, stdin or memory, gzip/zstd inflated when the magic
// bytes say so, latin1/UTF-16 transcoded to UTF-8, UTF-8 BOM removed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/csv/options.h"

namespace quiver::csv {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `max` bytes; 0 means end of input.
  virtual Result<int64_t> Read(uint8_t* out, int64_t max) = 0;
  // Raw (compressed) bytes consumed so far and in all (-1 when unknown), for progress.
  virtual int64_t raw_position() const = 0;
  virtual int64_t raw_size() const { return -1; }
  const std::string& name() const { return name_; }

  // The bytes are a regular file's own (no decompression or transcoding; a BOM skipped): the
  // block buffer may map them instead of reading them (block_buffer_internal.h).
  virtual bool IsPlainFile() const { return false; }
  // Where the next bytes lie in that file, once nothing read at the start is held back
  // (fd < 0 otherwise).
  struct FileBytes {
    int fd = -1;
    int64_t offset = 0;  // of the next byte
    int64_t size = 0;    // of the file when it was opened
  };
  virtual FileBytes NextFileBytes() const { return {}; }
  // The next `n` bytes were taken from a mapping (NextFileBytes): the reads go on after them.
  virtual void SkipFileBytes(int64_t /*n*/) {}

 protected:
  explicit ByteSource(std::string name) : name_(std::move(name)) {}

 private:
  std::string name_;
};

// "-" is stdin. Compression is detected from the first bytes, whatever the file name.
Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path, Encoding encoding);
Result<std::unique_ptr<ByteSource>> OpenMemoryByteSource(std::shared_ptr<Buffer> bytes, std::string name,
                                                         Encoding encoding);

}  // namespace quiver::csv
