#include "quiver/core/buffer.h"

#include <fmt/format.h>

#include "quiver/core/bit_util.h"

namespace quiver {

Buffer::~Buffer() {
  if (pool_ != nullptr) pool_->Free(data_);
}

Result<std::shared_ptr<Buffer>> Buffer::Allocate(int64_t size, MemoryPool* pool) {
  if (size < 0) return Status::Invalid(fmt::format("negative buffer size {}", size));
  std::shared_ptr<Buffer> buf(new Buffer());
  buf->pool_ = pool;
  int64_t capacity = bit_util::RoundUp(size, kAlignment);
  QUIVER_RETURN_NOT_OK(pool->Allocate(capacity, &buf->data_));
  buf->capacity_ = capacity;
  buf->size_ = size;
  return buf;
}

Result<std::shared_ptr<Buffer>> Buffer::AllocateZeroed(int64_t size, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RETURN(auto buf, Allocate(size, pool));
  if (buf->capacity_ > 0) std::memset(buf->data_, 0, static_cast<size_t>(buf->capacity_));
  return buf;
}

Result<std::shared_ptr<Buffer>> Buffer::CopyOf(std::span<const uint8_t> bytes, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RETURN(auto buf, Allocate(static_cast<int64_t>(bytes.size()), pool));
  if (!bytes.empty()) std::memcpy(buf->data_, bytes.data(), bytes.size());
  return buf;
}

std::shared_ptr<Buffer> Buffer::Wrap(const uint8_t* data, int64_t size, std::shared_ptr<const void> owner) {
  std::shared_ptr<Buffer> buf(new Buffer());
  buf->data_ = const_cast<uint8_t*>(data);
  buf->size_ = size;
  buf->capacity_ = size;
  buf->owner_ = std::move(owner);
  return buf;
}

std::shared_ptr<Buffer> Buffer::Slice(const std::shared_ptr<Buffer>& parent, int64_t offset, int64_t size) {
  return Wrap(parent->data() + offset, size, parent);
}

Status Buffer::Reserve(int64_t capacity) {
  if (pool_ == nullptr) return Status::Invalid("cannot grow a borrowed buffer");
  if (capacity <= capacity_) return Status::OK();
  int64_t rounded = bit_util::RoundUp(capacity, kAlignment);
  QUIVER_RETURN_NOT_OK(pool_->Reallocate(rounded, &data_));
  capacity_ = rounded;
  return Status::OK();
}

Status Buffer::Resize(int64_t size, bool shrink_to_fit) {
  if (pool_ == nullptr) return Status::Invalid("cannot resize a borrowed buffer");
  if (size < 0) return Status::Invalid(fmt::format("negative buffer size {}", size));
  if (size > capacity_) {
    QUIVER_RETURN_NOT_OK(Reserve(std::max(size, capacity_ * 2)));
  } else if (shrink_to_fit && bit_util::RoundUp(size, kAlignment) < capacity_) {
    int64_t rounded = bit_util::RoundUp(size, kAlignment);
    QUIVER_RETURN_NOT_OK(pool_->Reallocate(rounded, &data_));
    capacity_ = rounded;
  }
  size_ = size;
  return Status::OK();
}

// Growth takes the block's own room first, a fresh block when the builder is empty, and
// otherwise doubles.
Status BufferBuilder::Grow(int64_t min_capacity) {
  if (buffer_) {
    // Pools round blocks up (allocator size classes, a recycled block larger than asked): room
    // past capacity_ may be there already, taken without a call that could move the block.
    const int64_t usable = pool_->UsableSize(buffer_->data()) & ~(kAlignment - 1);
    if (usable >= min_capacity) {
      QUIVER_RETURN_NOT_OK(buffer_->Reserve(usable));
      capacity_ = buffer_->capacity();
      return Status::OK();
    }
    if (size_ == 0) {
      // Nothing to keep (a builder cleared for its next page): a reallocation would copy dead
      // bytes, and doubling only amortizes the copies of appends. The block goes back to the
      // pool first (which may hand it to the next request), and one of the size asked replaces it.
      buffer_.reset();
      data_ = nullptr;
      capacity_ = 0;
      QUIVER_ASSIGN_OR_RETURN(buffer_, Buffer::Allocate(std::max<int64_t>(min_capacity, 256), pool_));
      data_ = buffer_->mutable_data();
      capacity_ = buffer_->capacity();
      return Status::OK();
    }
  }
  int64_t cap = std::max<int64_t>(min_capacity, std::max<int64_t>(capacity_ * 2, 256));
  if (!buffer_) {
    QUIVER_ASSIGN_OR_RETURN(buffer_, Buffer::Allocate(cap, pool_));
  } else {
    QUIVER_RETURN_NOT_OK(buffer_->Reserve(cap));
  }
  data_ = buffer_->mutable_data();
  capacity_ = buffer_->capacity();
  return Status::OK();
}

Result<std::shared_ptr<Buffer>> BufferBuilder::Finish() {
  if (!buffer_) {
    QUIVER_ASSIGN_OR_RETURN(buffer_, Buffer::Allocate(0, pool_));
  }
  QUIVER_RETURN_NOT_OK(buffer_->Resize(size_));
  auto out = std::move(buffer_);
  buffer_.reset();
  data_ = nullptr;
  size_ = capacity_ = 0;
  return out;
}

}  // namespace quiver
