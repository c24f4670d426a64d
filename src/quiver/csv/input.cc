#include "quiver/csv/input_internal.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "quiver/csv/not_text_internal.h"
#include "quiver/io/stdin.h"

namespace quiver::csv {

namespace {

// Plain bytes from a file descriptor or memory.
class RawSource {
 public:
  virtual ~RawSource() = default;
  virtual Result<int64_t> Read(uint8_t* out, int64_t max) = 0;
  // The last `n` bytes, when the source has a known end (a regular file, memory).
  virtual bool ReadTail(uint8_t* /*out*/, size_t /*n*/) { return false; }
  // A regular file's descriptor, whose bytes from `position` on are the source's (-1: none).
  virtual int file_fd() const { return -1; }
  int64_t position = 0;
  int64_t size = -1;
};

// A regular file (size >= 0) is read with pread at `position`, so that bytes taken from a
// mapping instead (SkipFileBytes) only move `position`.
class FdRawSource final : public RawSource {
 public:
  FdRawSource(int fd, std::string name, bool owned) : fd_(fd), name_(std::move(name)), owned_(owned) {}
  ~FdRawSource() override {
    if (owned_) close(fd_);
  }
  Result<int64_t> Read(uint8_t* out, int64_t max) override {
    for (;;) {
      ssize_t n = size >= 0 ? ::pread(fd_, out, static_cast<size_t>(max), position) : ::read(fd_, out, static_cast<size_t>(max));
      if (n >= 0) {
        position += n;
        return static_cast<int64_t>(n);
      }
      if (errno != EINTR) return Status::FromErrno(errno, name_);
    }
  }
  bool ReadTail(uint8_t* out, size_t n) override {
    if (size < static_cast<int64_t>(n)) return false;
    return ::pread(fd_, out, n, size - static_cast<int64_t>(n)) == static_cast<ssize_t>(n);
  }
  int file_fd() const override { return size >= 0 ? fd_ : -1; }

 private:
  int fd_;
  std::string name_;
  bool owned_;
};

// Stdin through io::ReadStdin, which hands out first what a format check peeked.
class StdinRawSource final : public RawSource {
 public:
  Result<int64_t> Read(uint8_t* out, int64_t max) override {
    QUIVER_ASSIGN_OR_RETURN(const int64_t n, io::ReadStdin(out, max));
    position += n;
    return n;
  }
};

class MemoryRawSource final : public RawSource {
 public:
  explicit MemoryRawSource(std::shared_ptr<Buffer> b) : buf_(std::move(b)) { size = buf_->size(); }
  Result<int64_t> Read(uint8_t* out, int64_t max) override {
    int64_t n = std::min(max, buf_->size() - position);
    if (n > 0) std::memcpy(out, buf_->data() + position, static_cast<size_t>(n));
    position += n;
    return n;
  }
  bool ReadTail(uint8_t* out, size_t n) override {
    if (size < static_cast<int64_t>(n)) return false;
    std::memcpy(out, buf_->data() + size - static_cast<int64_t>(n), n);
    return true;
  }

 private:
  std::shared_ptr<Buffer> buf_;
};

// Lets the first bytes be looked at (magic, BOM) and then read again.
class PeekableRaw {
 public:
  explicit PeekableRaw(std::unique_ptr<RawSource> src) : src_(std::move(src)) {}
  Status Peek(size_t n) {
    while (peeked_.size() - peek_pos_ < n) {
      uint8_t tmp[4096];
      QUIVER_ASSIGN_OR_RETURN(int64_t got, src_->Read(tmp, sizeof(tmp)));
      if (got == 0) break;
      peeked_.insert(peeked_.end(), tmp, tmp + got);
    }
    return Status::OK();
  }
  const uint8_t* peeked() const { return peeked_.data() + peek_pos_; }
  size_t peeked_size() const { return peeked_.size() - peek_pos_; }
  void Skip(size_t n) { peek_pos_ += n; }
  Result<int64_t> Read(uint8_t* out, int64_t max) {
    if (peek_pos_ < peeked_.size()) {
      int64_t n = std::min<int64_t>(max, static_cast<int64_t>(peeked_.size() - peek_pos_));
      std::memcpy(out, peeked_.data() + peek_pos_, static_cast<size_t>(n));
      peek_pos_ += static_cast<size_t>(n);
      return n;
    }
    return src_->Read(out, max);
  }
  int64_t position() const { return src_->position; }
  int64_t size() const { return src_->size; }
  bool ReadTail(uint8_t* out, size_t n) { return src_->ReadTail(out, n); }
  // The file whose bytes from position() on come next, once nothing peeked is left (-1: none).
  int file_fd() const { return peek_pos_ < peeked_.size() ? -1 : src_->file_fd(); }
  bool is_file() const { return src_->file_fd() >= 0; }
  void SkipFileBytes(int64_t n) { src_->position += n; }

 private:
  std::unique_ptr<RawSource> src_;
  std::vector<uint8_t> peeked_;
  size_t peek_pos_ = 0;
};

enum class Compression { kNone, kGzip, kZstd };

// Decompressing stage over PeekableRaw.
class Inflater {
 public:
  Inflater(PeekableRaw* raw, Compression c, std::string name) : raw_(raw), c_(c), name_(std::move(name)) {
    in_.resize(1 << 20);
  }
  ~Inflater() {
    if (z_init_) inflateEnd(&z_);
    if (zstd_) ZSTD_freeDStream(zstd_);
  }

  Result<int64_t> Read(uint8_t* out, int64_t max) {
    if (c_ == Compression::kNone) return raw_->Read(out, max);
    if (c_ == Compression::kGzip) return ReadGzip(out, max);
    return ReadZstd(out, max);
  }

 private:
  Status Fill() {
    if (in_pos_ < in_len_) return Status::OK();
    QUIVER_ASSIGN_OR_RETURN(int64_t n, raw_->Read(in_.data(), static_cast<int64_t>(in_.size())));
    in_pos_ = 0;
    in_len_ = static_cast<size_t>(n);
    eof_ = n == 0;
    return Status::OK();
  }

  Result<int64_t> ReadGzip(uint8_t* out, int64_t max) {
    if (!z_init_) {
      std::memset(&z_, 0, sizeof(z_));
      if (inflateInit2(&z_, 15 + 32) != Z_OK) return Status::OutOfMemory("zlib initialisation failed");
      z_init_ = true;
    }
    int64_t produced = 0;
    while (produced < max) {
      QUIVER_RETURN_NOT_OK(Fill());
      if (eof_ && in_pos_ >= in_len_) {
        if (member_open_) return Status::Corrupt(fmt::format("{}: gzip stream is truncated", name_));
        break;
      }
      z_.next_in = in_.data() + in_pos_;
      z_.avail_in = static_cast<uInt>(in_len_ - in_pos_);
      z_.next_out = out + produced;
      z_.avail_out = static_cast<uInt>(std::min<int64_t>(max - produced, 1 << 30));
      member_open_ = true;
      int rc = inflate(&z_, Z_NO_FLUSH);
      produced = z_.next_out - out;
      in_pos_ = in_len_ - z_.avail_in;
      if (rc == Z_STREAM_END) {
        // Concatenated gzip members are one stream (what `cat a.gz b.gz` makes).
        member_open_ = false;
        inflateReset(&z_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        return Status::Corrupt(fmt::format("{}: gzip data is corrupt ({})", name_, z_.msg ? z_.msg : "inflate error"));
      }
    }
    return produced;
  }

  Result<int64_t> ReadZstd(uint8_t* out, int64_t max) {
    if (!zstd_) {
      zstd_ = ZSTD_createDStream();
      if (!zstd_) return Status::OutOfMemory("zstd initialisation failed");
      ZSTD_initDStream(zstd_);
    }
    ZSTD_outBuffer ob{out, static_cast<size_t>(max), 0};
    while (ob.pos < ob.size) {
      QUIVER_RETURN_NOT_OK(Fill());
      if (eof_ && in_pos_ >= in_len_) {
        if (frame_open_) return Status::Corrupt(fmt::format("{}: zstd stream is truncated", name_));
        break;
      }
      ZSTD_inBuffer ib{in_.data(), in_len_, in_pos_};
      size_t rc = ZSTD_decompressStream(zstd_, &ob, &ib);
      in_pos_ = ib.pos;
      if (ZSTD_isError(rc)) {
        return Status::Corrupt(fmt::format("{}: zstd data is corrupt ({})", name_, ZSTD_getErrorName(rc)));
      }
      frame_open_ = rc != 0;
    }
    return static_cast<int64_t>(ob.pos);
  }

  PeekableRaw* raw_;
  Compression c_;
  std::string name_;
  std::vector<uint8_t> in_;
  size_t in_pos_ = 0, in_len_ = 0;
  bool eof_ = false;
  z_stream z_;
  bool z_init_ = false;
  bool member_open_ = false;
  ZSTD_DStream* zstd_ = nullptr;
  bool frame_open_ = false;
};

class DecodedSource final : public ByteSource {
 public:
  DecodedSource(std::string name, std::unique_ptr<RawSource> raw)
      : ByteSource(std::move(name)), raw_(std::move(raw)) {}

  Status Init(Encoding encoding) {
    QUIVER_RETURN_NOT_OK(raw_.Peek(4));
    const uint8_t* p = raw_.peeked();
    size_t n = raw_.peeked_size();
    Compression c = Compression::kNone;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b) c = Compression::kGzip;
    if (n >= 4 && p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) c = Compression::kZstd;
    inflater_ = std::make_unique<Inflater>(&raw_, c, name());
    plain_ = c == Compression::kNone;
    encoding_ = encoding;
    // Byte order marks: UTF-8's is dropped; UTF-16's chooses the byte order.
    QUIVER_RETURN_NOT_OK(FillPending(4));
    if (pending_.size() >= 3 && pending_[0] == 0xEF && pending_[1] == 0xBB && pending_[2] == 0xBF) {
      pending_pos_ = 3;
    } else if (pending_.size() >= 2 && ((pending_[0] == 0xFF && pending_[1] == 0xFE) || (pending_[0] == 0xFE && pending_[1] == 0xFF))) {
      encoding_ = Encoding::kUtf16;
      big_endian_ = pending_[0] == 0xFE;
      pending_pos_ = 2;
    }
    // Input that is not text is refused here, before the CSV reader splits it.
    constexpr size_t kSample = 4096;
    QUIVER_RETURN_NOT_OK(FillPending(kSample));
    TextSample t;
    t.head = std::string_view(reinterpret_cast<const char*>(pending_.data()) + pending_pos_,
                              std::min(kSample, pending_.size() - pending_pos_));
    uint8_t tail[4];
    if (c == Compression::kNone && raw_.ReadTail(tail, sizeof tail)) {
      t.tail = std::string_view(reinterpret_cast<const char*>(tail), sizeof tail);
    }
    t.compressed = c != Compression::kNone;
    t.check_utf8 = encoding_ == Encoding::kUtf8;
    t.check_controls = encoding_ != Encoding::kUtf16;
    if (auto what = DescribeNotText(t)) return Status::Invalid(fmt::format("{}: not CSV text: {}", name(), *what));
    return Status::OK();
  }

  Result<int64_t> Read(uint8_t* out, int64_t max) override {
    if (encoding_ == Encoding::kUtf8) {
      if (pending_pos_ < pending_.size()) {
        int64_t n = std::min<int64_t>(max, static_cast<int64_t>(pending_.size() - pending_pos_));
        std::memcpy(out, pending_.data() + pending_pos_, static_cast<size_t>(n));
        pending_pos_ += static_cast<size_t>(n);
        return n;
      }
      return inflater_->Read(out, max);
    }
    return ReadTranscoded(out, max);
  }

  int64_t raw_position() const override { return raw_.position(); }
  int64_t raw_size() const override { return raw_.size(); }

  bool IsPlainFile() const override { return encoding_ == Encoding::kUtf8 && plain_ && raw_.is_file(); }
  FileBytes NextFileBytes() const override {
    if (!IsPlainFile() || pending_pos_ < pending_.size()) return {};
    const int fd = raw_.file_fd();
    if (fd < 0) return {};
    return FileBytes{fd, raw_.position(), raw_.size()};
  }
  void SkipFileBytes(int64_t n) override { raw_.SkipFileBytes(n); }

 private:
  Status FillPending(size_t want) {
    while (pending_.size() - pending_pos_ < want) {
      uint8_t tmp[65536];
      QUIVER_ASSIGN_OR_RETURN(int64_t n, inflater_->Read(tmp, sizeof(tmp)));
      if (n == 0) break;
      pending_.insert(pending_.end(), tmp, tmp + n);
    }
    return Status::OK();
  }

  // Latin-1 expands to at most 2 bytes per byte; UTF-16 to at most 3 bytes per unit (4 per
  // surrogate pair), so `max / 4` input units always fit.
  Result<int64_t> ReadTranscoded(uint8_t* out, int64_t max) {
    if (max < 8) return Status::Invalid("transcoding needs an output of at least 8 bytes");
    size_t want = static_cast<size_t>(std::max<int64_t>(2, max / 4)) & ~size_t{1};
    if (pending_pos_ > 0 && pending_pos_ >= pending_.size() / 2) {
      pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(pending_pos_));
      pending_pos_ = 0;
    }
    QUIVER_RETURN_NOT_OK(FillPending(want));
    const uint8_t* p = pending_.data() + pending_pos_;
    size_t avail = std::min(want, pending_.size() - pending_pos_);
    uint8_t* o = out;
    size_t i = 0;
    if (encoding_ == Encoding::kLatin1) {
      for (; i < avail; ++i) {
        uint8_t b = p[i];
        if (b < 0x80) {
          *o++ = b;
        } else {
          *o++ = static_cast<uint8_t>(0xC0 | (b >> 6));
          *o++ = static_cast<uint8_t>(0x80 | (b & 0x3F));
        }
      }
    } else {
      auto unit = [&](size_t k) -> uint32_t {
        return big_endian_ ? (uint32_t{p[k]} << 8 | p[k + 1]) : (uint32_t{p[k + 1]} << 8 | p[k]);
      };
      while (i + 1 < avail) {
        uint32_t cp = unit(i);
        size_t used = 2;
        if (cp >= 0xD800 && cp < 0xDC00) {
          if (i + 3 >= avail) {
            if (pending_.size() - pending_pos_ > avail) break;  // the pair continues in the next read
            return Status::Corrupt(fmt::format("{}: UTF-16 input ends inside a surrogate pair", name()));
          }
          uint32_t lo = unit(i + 2);
          if (lo < 0xDC00 || lo > 0xDFFF) {
            return Status::Corrupt(fmt::format("{}: invalid UTF-16 surrogate pair", name()));
          }
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          used = 4;
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return Status::Corrupt(fmt::format("{}: invalid UTF-16 (unpaired low surrogate)", name()));
        }
        if (cp < 0x80) {
          *o++ = static_cast<uint8_t>(cp);
        } else if (cp < 0x800) {
          *o++ = static_cast<uint8_t>(0xC0 | (cp >> 6));
          *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
          *o++ = static_cast<uint8_t>(0xE0 | (cp >> 12));
          *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
          *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
        } else {
          *o++ = static_cast<uint8_t>(0xF0 | (cp >> 18));
          *o++ = static_cast<uint8_t>(0x80 | ((cp >> 12) & 0x3F));
          *o++ = static_cast<uint8_t>(0x80 | ((cp >> 6) & 0x3F));
          *o++ = static_cast<uint8_t>(0x80 | (cp & 0x3F));
        }
        i += used;
      }
      if (i + 1 == avail && pending_.size() - pending_pos_ == avail) {
        return Status::Corrupt(fmt::format("{}: UTF-16 input has an odd number of bytes", name()));
      }
    }
    pending_pos_ += i;
    return static_cast<int64_t>(o - out);
  }

  PeekableRaw raw_;
  std::unique_ptr<Inflater> inflater_;
  Encoding encoding_ = Encoding::kUtf8;
  bool big_endian_ = false;
  bool plain_ = false;  // not compressed
  std::vector<uint8_t> pending_;
  size_t pending_pos_ = 0;
};

}  // namespace

Result<std::unique_ptr<ByteSource>> OpenByteSource(const std::string& path, Encoding encoding) {
  std::unique_ptr<RawSource> raw;
  std::string name = path;
  if (path == "-") {
    raw = std::make_unique<StdinRawSource>();
    name = "<stdin>";
  } else {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Status::FromErrno(errno, path);
    struct stat st{};
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      close(fd);
      return Status::IOError(fmt::format("{}: is a directory", path));
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    raw = std::make_unique<FdRawSource>(fd, path, true);
    if (S_ISREG(st.st_mode)) raw->size = st.st_size;
  }
  auto src = std::make_unique<DecodedSource>(name, std::move(raw));
  QUIVER_RETURN_NOT_OK(src->Init(encoding));
  return std::unique_ptr<ByteSource>(std::move(src));
}

Result<std::unique_ptr<ByteSource>> OpenMemoryByteSource(std::shared_ptr<Buffer> bytes, std::string name,
                                                         Encoding encoding) {
  auto src = std::make_unique<DecodedSource>(std::move(name), std::make_unique<MemoryRawSource>(std::move(bytes)));
  QUIVER_RETURN_NOT_OK(src->Init(encoding));
  return std::unique_ptr<ByteSource>(std::move(src));
}

}  // namespace quiver::csv
