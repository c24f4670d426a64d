#include "quiver/columnar/gather.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"

namespace quiver {
namespace {

// Bytes appended into blocks that never move: a full block is kept and a larger one started
// (doubling from 1 KiB to 64 KiB), so growing leaves no freed copies behind. With thousands
// of partitions growing side by side, reallocation left each one's outgrown copies in the
// allocator, about doubling the memory the rows take.
class BlockBuffer {
 public:
  // The Buffer object, its shared_ptr control block and its slot, beside its bytes.
  static constexpr int64_t kBlockOverhead = 128;
  explicit BlockBuffer(MemoryPool* pool) : pool_(pool) {}
  // At least `need` contiguous bytes to write at; *room says how many there are.
  Result<uint8_t*> Room(int64_t need, int64_t* room) {
    if (blocks_.empty() || blocks_.back()->capacity() - used_ < need) {
      // From 256 bytes: most partitions gather a few rows at a time.
      const int64_t next = blocks_.empty() ? 256 : std::min<int64_t>(blocks_.back()->capacity() * 2, 64 << 10);
      QUIVER_ASSIGN_OR_RETURN(auto b, Buffer::Allocate(std::max(need, next), pool_));
      if (!blocks_.empty()) QUIVER_RETURN_NOT_OK(blocks_.back()->Resize(used_));
      held_ += b->capacity() + kBlockOverhead;
      blocks_.push_back(std::move(b));
      used_ = 0;
    }
    *room = blocks_.back()->capacity() - used_;
    return blocks_.back()->mutable_data() + used_;
  }
  void Commit(int64_t n) {
    used_ += n;
    size_ += n;
  }
  int64_t size() const { return size_; }
  int64_t held() const { return held_; }
  // The bytes as one buffer; the blocks are freed.
  Result<std::shared_ptr<Buffer>> Finish() {
    QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(std::max<int64_t>(size_, 1), pool_));
    int64_t at = 0;
    for (size_t i = 0; i < blocks_.size(); ++i) {
      const int64_t n = i + 1 == blocks_.size() ? used_ : blocks_[i]->size();
      if (n > 0) std::memcpy(out->mutable_data() + at, blocks_[i]->data(), static_cast<size_t>(n));
      at += n;
    }
    QUIVER_RETURN_NOT_OK(out->Resize(size_));
    blocks_.clear();
    used_ = size_ = held_ = 0;
    return out;
  }

 private:
  MemoryPool* pool_;
  std::vector<std::shared_ptr<Buffer>> blocks_;
  int64_t used_ = 0;  // in the last block
  int64_t size_ = 0, held_ = 0;
};

// `len` bytes from src to dst in fixed-size moves that stay inside both values (short strings
// copied through memcpy would cost a library call each).
inline void CopyValue(uint8_t* dst, const uint8_t* src, int32_t len) {
  if (len >= 16) {
    int32_t k = 0;
    for (; k + 16 <= len; k += 16) std::memcpy(dst + k, src + k, 16);
    if (k < len) std::memcpy(dst + len - 16, src + len - 16, 16);
  } else if (len >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + len - 8, src + len - 8, 8);
  } else if (len >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + len - 4, src + len - 4, 4);
  } else if (len > 0) {
    dst[0] = src[0];
    dst[len / 2] = src[len / 2];
    dst[len - 1] = src[len - 1];
  }
}

}  // namespace

class GatherBuilder::Impl {
 public:
  Impl(TypePtr type, MemoryPool* pool)
      : type_(std::move(type)), pool_(pool), validity_(pool), bits_(pool), values_(pool), data_(pool) {}

  Status Append(const ArrayData& a, std::span<const int32_t> rows) {
    // Nothing to add; the buffers may not exist yet (a zero-length copy into null is undefined).
    if (rows.empty()) return Status::OK();
    const int64_t n = static_cast<int64_t>(rows.size());
    const DataType& t = *type_;
    // Validity for every row (dropped at Finish when nothing is null).
    QUIVER_RETURN_NOT_OK(validity_.AppendZeros(bit_util::BytesForBits(length_ + n) - validity_.size()));
    uint8_t* bits = validity_.mutable_data();
    const uint8_t* v = a.validity();
    for (int64_t i = 0; i < n; ++i) {
      if (v == nullptr || bit_util::GetBit(v, a.offset + rows[static_cast<size_t>(i)])) bit_util::SetBit(bits, length_ + i);
      else ++nulls_;
    }
    if (t.is_binary_like()) {
      const int32_t* offsets = a.values<int32_t>(1);
      const uint8_t* data = a.buffers[2]->data();
      int64_t bytes = 0;
      for (int32_t r : rows) bytes += offsets[r + 1] - offsets[r];
      if (data_.size() + bytes > INT32_MAX) return Status::Invalid("gathered rows passed 2 GiB of strings");
      if (length_ == 0) QUIVER_RETURN_NOT_OK(PutFixed(0, [](uint8_t* dst, int64_t) { std::memset(dst, 0, 4); }, 4, 1));
      QUIVER_RETURN_NOT_OK(PutFixed(
          0,
          [&](uint8_t* dst, int64_t i) {
            const int32_t r = rows[static_cast<size_t>(i)];
            end_ += offsets[r + 1] - offsets[r];
            std::memcpy(dst, &end_, 4);
          },
          4, n));
      // The bytes in pieces as large as the current block has room for.
      int64_t i = 0;
      while (i < n) {
        const int32_t r0 = rows[static_cast<size_t>(i)];
        int64_t room = 0;
        QUIVER_ASSIGN_OR_RETURN(uint8_t* dst, data_.Room(offsets[r0 + 1] - offsets[r0], &room));
        int64_t put = 0;
        for (; i < n; ++i) {
          const int32_t r = rows[static_cast<size_t>(i)];
          const int32_t len = offsets[r + 1] - offsets[r];
          if (put + len > room) break;
          CopyValue(dst + put, data + offsets[r], len);
          put += len;
        }
        data_.Commit(put);
      }
    } else if (t.id() == TypeId::kBool) {
      QUIVER_RETURN_NOT_OK(bits_.AppendZeros(bit_util::BytesForBits(length_ + n) - bits_.size()));
      uint8_t* out = bits_.mutable_data();
      const uint8_t* in = a.buffers[1]->data();
      for (int64_t i = 0; i < n; ++i) {
        if (bit_util::GetBit(in, a.offset + rows[static_cast<size_t>(i)])) bit_util::SetBit(out, length_ + i);
      }
    } else if (t.is_fixed_width() && t.bit_width() % 8 == 0) {
      const int w = t.byte_width();
      const uint8_t* src = a.buffers[1]->data() + a.offset * w;
      // Copies of a width known at compile time (an integral_constant) are moves, not a library
      // call per value; other widths pass a plain int.
      auto put = [&](auto width) {
        return PutFixed(
            0,
            [&](uint8_t* dst, int64_t i) {
              std::memcpy(dst, src + static_cast<int64_t>(rows[static_cast<size_t>(i)]) * width,
                          static_cast<size_t>(width));
            },
            width, n);
      };
      switch (w) {
        case 1: QUIVER_RETURN_NOT_OK(put(std::integral_constant<int, 1>{})); break;
        case 2: QUIVER_RETURN_NOT_OK(put(std::integral_constant<int, 2>{})); break;
        case 4: QUIVER_RETURN_NOT_OK(put(std::integral_constant<int, 4>{})); break;
        case 8: QUIVER_RETURN_NOT_OK(put(std::integral_constant<int, 8>{})); break;
        case 16: QUIVER_RETURN_NOT_OK(put(std::integral_constant<int, 16>{})); break;
        default: QUIVER_RETURN_NOT_OK(put(w));
      }
    } else {
      return Status::NotImplemented(fmt::format("gathering rows of a {} column", t.ToString()));
    }
    length_ += n;
    return Status::OK();
  }

  // The gathered rows as an array; the accumulator starts over empty (its memory goes with it).
  Result<Array> Finish() {
    auto out = std::make_shared<ArrayData>();
    out->type = type_;
    out->length = length_;
    out->null_count = nulls_;
    const bool binary = type_->is_binary_like();
    out->buffers.resize(binary ? 3 : 2);
    if (binary && length_ == 0) QUIVER_RETURN_NOT_OK(PutFixed(0, [](uint8_t* dst, int64_t) { std::memset(dst, 0, 4); }, 4, 1));
    if (nulls_ > 0) {
      QUIVER_ASSIGN_OR_RETURN(out->buffers[0], validity_.Finish());
    }
    validity_ = BufferBuilder(pool_);
    if (type_->id() == TypeId::kBool) {
      QUIVER_ASSIGN_OR_RETURN(out->buffers[1], bits_.Finish());
    } else {
      QUIVER_ASSIGN_OR_RETURN(out->buffers[1], values_.Finish());
    }
    if (binary) {
      QUIVER_ASSIGN_OR_RETURN(out->buffers[2], data_.Finish());
    }
    length_ = nulls_ = 0;
    end_ = 0;
    return Array(out);
  }

  // Bytes it holds: its buffers and itself.
  int64_t held() const {
    return static_cast<int64_t>(sizeof(*this)) + validity_.capacity() + bits_.capacity() + values_.held() + data_.held();
  }
  int64_t length() const { return length_; }

 private:
  // n values of w bytes, put(dst, i) writing the i-th, in runs as long as the block has room.
  template <typename Put>
  Status PutFixed(int64_t i, Put&& put, int w, int64_t n) {
    while (i < n) {
      int64_t room = 0;
      QUIVER_ASSIGN_OR_RETURN(uint8_t* dst, values_.Room(w, &room));
      const int64_t k = std::min<int64_t>(room / w, n - i);
      for (int64_t j = 0; j < k; ++j) put(dst + j * w, i + j);
      values_.Commit(k * w);
      i += k;
    }
    return Status::OK();
  }

  TypePtr type_;
  MemoryPool* pool_;
  BufferBuilder validity_, bits_;
  BlockBuffer values_, data_;  // values or string offsets; string bytes
  int64_t length_ = 0, nulls_ = 0;
  int32_t end_ = 0;  // strings: the bytes so far (the next offset)
};


GatherBuilder::GatherBuilder(TypePtr type, MemoryPool* pool) : impl_(std::make_unique<Impl>(std::move(type), pool)) {}
GatherBuilder::~GatherBuilder() = default;
GatherBuilder::GatherBuilder(GatherBuilder&&) noexcept = default;
GatherBuilder& GatherBuilder::operator=(GatherBuilder&&) noexcept = default;

Status GatherBuilder::Append(const ArrayData& array, std::span<const int32_t> rows) { return impl_->Append(array, rows); }
Result<Array> GatherBuilder::Finish() { return impl_->Finish(); }
int64_t GatherBuilder::length() const { return impl_->length(); }
int64_t GatherBuilder::held() const { return impl_->held(); }

Result<Array> Take(const Array& values, std::span<const int32_t> indices, MemoryPool* pool) {
  for (int32_t i : indices) {
    if (i < 0 || i >= values.length()) {
      return Status::Invalid(fmt::format("take: index {} outside an array of {} rows", i, values.length()));
    }
  }
  GatherBuilder b(values.type(), pool);
  QUIVER_RETURN_NOT_OK(b.Append(*values.data(), indices));
  return b.Finish();
}

}  // namespace quiver
