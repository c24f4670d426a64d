#include "quiver/io/file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace quiver::io {

Status RandomAccessFile::CheckRange(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > size() || length > size() - offset) [[unlikely]] {
    return Status::Corrupt(fmt::format("{}: read of {} bytes at offset {} is outside the file ({} bytes)",
                                       path_, length, offset, size()));
  }
  return Status::OK();
}

Status RandomAccessFile::ReadInto(int64_t offset, int64_t length, uint8_t* out) {
  QUIVER_ASSIGN_OR_RETURN(auto bytes, ReadAt(offset, length));
  if (length > 0) std::memcpy(out, bytes->data(), static_cast<size_t>(length));
  return Status::OK();
}

namespace {

class FdHolder {
 public:
  explicit FdHolder(int fd) : fd_(fd) {}
  ~FdHolder() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Owns a mapping; the Buffers it hands out keep it alive through shared_from_this.
class MappedFile final : public RandomAccessFile, public std::enable_shared_from_this<MappedFile> {
 public:
  MappedFile(std::string path, const uint8_t* data, int64_t size)
      : RandomAccessFile(std::move(path)), data_(data), size_(size) {}
  ~MappedFile() override {
    if (size_ > 0) munmap(const_cast<uint8_t*>(data_), static_cast<size_t>(size_));
  }
  int64_t size() const override { return size_; }
  const uint8_t* mapped_data() const override { return data_; }
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length, MemoryPool* /*pool*/) override {
    QUIVER_RETURN_NOT_OK(CheckRange(offset, length));
    return Buffer::Wrap(data_ + offset, length, shared_from_this());
  }

 private:
  const uint8_t* data_;
  int64_t size_;
};

class PreadFile final : public RandomAccessFile {
 public:
  PreadFile(std::string path, int fd, int64_t size) : RandomAccessFile(std::move(path)), fd_(fd), size_(size) {}
  ~PreadFile() override { close(fd_); }
  int64_t size() const override { return size_; }
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length, MemoryPool* pool) override {
    QUIVER_RETURN_NOT_OK(CheckRange(offset, length));
    QUIVER_ASSIGN_OR_RETURN(auto buf, Buffer::Allocate(length, pool));
    QUIVER_RETURN_NOT_OK(ReadInto(offset, length, buf->mutable_data()));
    return buf;
  }
  Status ReadInto(int64_t offset, int64_t length, uint8_t* out) override {
    QUIVER_RETURN_NOT_OK(CheckRange(offset, length));
    int64_t done = 0;
    while (done < length) {
      ssize_t n = pread(fd_, out + done, static_cast<size_t>(length - done), offset + done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::FromErrno(errno, path());
      }
      if (n == 0) {
        return Status::IOError(fmt::format("{}: file shrank while reading (wanted {} bytes at {})", path(),
                                           length, offset));
      }
      done += n;
    }
    return Status::OK();
  }

 private:
  int fd_;
  int64_t size_;
};

class MemoryFile final : public RandomAccessFile {
 public:
  MemoryFile(std::string name, std::shared_ptr<Buffer> bytes)
      : RandomAccessFile(std::move(name)), bytes_(std::move(bytes)) {}
  int64_t size() const override { return bytes_->size(); }
  const uint8_t* mapped_data() const override { return bytes_->data(); }
  Result<std::shared_ptr<Buffer>> ReadAt(int64_t offset, int64_t length, MemoryPool* /*pool*/) override {
    QUIVER_RETURN_NOT_OK(CheckRange(offset, length));
    return Buffer::Slice(bytes_, offset, length);
  }

 private:
  std::shared_ptr<Buffer> bytes_;
};

}  // namespace

Result<std::shared_ptr<RandomAccessFile>> OpenFile(const std::string& path, ReadMode mode) {
  FdHolder fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return Status::FromErrno(errno, path);
  struct stat st{};
  if (fstat(fd.get(), &st) != 0) return Status::FromErrno(errno, path);
  if (S_ISDIR(st.st_mode)) return Status::IOError(fmt::format("{}: is a directory", path));
  int64_t size = st.st_size;
  if (mode == ReadMode::kMmap && S_ISREG(st.st_mode)) {
    if (size == 0) return std::shared_ptr<RandomAccessFile>(std::make_shared<MappedFile>(path, nullptr, 0));
    void* p = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p != MAP_FAILED) {
      return std::shared_ptr<RandomAccessFile>(
          std::make_shared<MappedFile>(path, static_cast<const uint8_t*>(p), size));
    }
  }
  return std::shared_ptr<RandomAccessFile>(std::make_shared<PreadFile>(path, fd.release(), size));
}

std::shared_ptr<RandomAccessFile> MemorySource(std::shared_ptr<Buffer> bytes, std::string name) {
  return std::make_shared<MemoryFile>(std::move(name), std::move(bytes));
}

}  // namespace quiver::io
