// Buffer: a contiguous, 64-byte aligned byte region, either owned (from a MemoryPool,
// resizable) or borrowed from something kept alive by `owner` (mmap, imported Arrow array).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"

namespace quiver {

class Buffer {
 public:
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // An owned buffer of `size` bytes (contents unspecified) with capacity rounded up to 64.
  static Result<std::shared_ptr<Buffer>> Allocate(int64_t size, MemoryPool* pool = default_memory_pool());
  // Same, zero-filled.
  static Result<std::shared_ptr<Buffer>> AllocateZeroed(int64_t size, MemoryPool* pool = default_memory_pool());
  static Result<std::shared_ptr<Buffer>> CopyOf(std::span<const uint8_t> bytes,
                                                MemoryPool* pool = default_memory_pool());
  // Borrowed view of memory that `owner` keeps alive; never written through or resized.
  static std::shared_ptr<Buffer> Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner);
  // A view of part of `parent`, keeping it alive.
  static std::shared_ptr<Buffer> Slice(const std::shared_ptr<Buffer>& parent, int64_t offset, int64_t size);

  const uint8_t* data() const { return data_; }
  uint8_t* mutable_data() { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  bool is_owned() const { return pool_ != nullptr; }
  std::span<const uint8_t> span() const { return {data_, static_cast<size_t>(size_)}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)}; }
  template <typename T>
  const T* data_as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_data_as() { return reinterpret_cast<T*>(data_); }

  // Owned buffers only. Reserve grows capacity (geometrically when called repeatedly through
  // Resize); Resize changes size, keeping contents; shrink_to_fit releases spare capacity.
  Status Reserve(int64_t capacity);
  Status Resize(int64_t size, bool shrink_to_fit = false);

  bool Equals(const Buffer& other) const {
    return size_ == other.size_ && (size_ == 0 || std::memcmp(data_, other.data_, size_) == 0);
  }

 private:
  Buffer() = default;

  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  MemoryPool* pool_ = nullptr;          // set iff owned
  std::shared_ptr<const void> owner_;  // set iff borrowed
};

// Appends bytes into a growing owned buffer; Finish hands the buffer over.
class BufferBuilder {
 public:
  explicit BufferBuilder(MemoryPool* pool = default_memory_pool()) : pool_(pool) {}

  Status Reserve(int64_t additional) {
    if (size_ + additional <= capacity_) [[likely]] return Status::OK();
    return Grow(size_ + additional);
  }
  Status Append(const void* bytes, int64_t n) {
    QUIVER_RETURN_NOT_OK(Reserve(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  Status Append(std::string_view s) { return Append(s.data(), static_cast<int64_t>(s.size())); }
  template <typename T>
  Status AppendValue(const T& v) { return Append(&v, sizeof(T)); }
  Status AppendZeros(int64_t n) {
    QUIVER_RETURN_NOT_OK(Reserve(n));
    std::memset(data_ + size_, 0, static_cast<size_t>(n));
    size_ += n;
    return Status::OK();
  }
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) std::memcpy(data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  template <typename T>
  void UnsafeAppendValue(const T& v) { UnsafeAppend(&v, sizeof(T)); }
  // Sets the size directly, within capacity (after writing through mutable_data()).
  void UnsafeSetSize(int64_t size) { size_ = size; }

  uint8_t* mutable_data() { return data_; }
  const uint8_t* data() const { return data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  void Clear() { size_ = 0; }
  MemoryPool* pool() const { return pool_; }
  // Changes the pool of a builder that holds no buffer yet (before the first Reserve/Append,
  // or after Finish); false otherwise.
  bool set_pool(MemoryPool* pool) {
    if (buffer_) return false;
    pool_ = pool;
    return true;
  }

  Result<std::shared_ptr<Buffer>> Finish();

 private:
  Status Grow(int64_t min_capacity);

  MemoryPool* pool_;
  std::shared_ptr<Buffer> buffer_;
  uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
};

}  // namespace quiver
