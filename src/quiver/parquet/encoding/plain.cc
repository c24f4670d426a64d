#include "quiver/parquet/encoding/plain_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

namespace quiver::parquet::encoding {

Status PlainFixedDecoder::Short(int64_t n) const {
  return Status::Corrupt("PLAIN page holds " + std::to_string(values_left()) + " more values of " +
                         std::to_string(width_) + " bytes, " + std::to_string(n) + " requested");
}

Status PlainBooleanDecoder::Short(int64_t n) const {
  return Status::Corrupt("PLAIN BOOLEAN page holds " + std::to_string(values_left()) + " more values, " +
                         std::to_string(n) + " requested");
}

Status PlainBooleanDecoder::DecodeBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n) {
  if (n < 0 || n > values_left()) [[unlikely]] return Short(n);
  bit_util::CopyBitmap(data_, bit_pos_, n, bitmap, bit_offset);
  bit_pos_ += n;
  return Status::OK();
}

Status PlainBooleanDecoder::Decode(uint8_t* out, int64_t n) {
  if (n < 0 || n > values_left()) [[unlikely]] return Short(n);
  for (int64_t i = 0; i < n; ++i) out[i] = bit_util::GetBit(data_, bit_pos_ + i);
  bit_pos_ += n;
  return Status::OK();
}

Status PlainByteArrayDecoder::Corrupt(const char* what, int64_t index, int64_t detail) const {
  return Status::Corrupt(std::string("PLAIN BYTE_ARRAY value ") + std::to_string(index) + " at byte " +
                         std::to_string(data_ - begin_) + ": " + what + " (" + std::to_string(detail) + ")");
}

Status PlainByteArrayDecoder::Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values) {
  if (offsets->size() == 0) QUIVER_RETURN_NOT_OK(offsets->AppendValue<int32_t>(0));
  QUIVER_RETURN_NOT_OK(offsets->Reserve(n * 4));
  // Every value's bytes come from the page, so what is left of it bounds the growth (even when
  // the page is corrupt); 48 bytes of slack take the fixed-size copies below. The bound is
  // capacity only: the 4-byte prefixes' share of it is never written.
  QUIVER_RETURN_NOT_OK(values->Reserve(n == 0 ? 0 : end_ - data_ + 48));
  const int64_t base = values->size();
  int32_t* off = reinterpret_cast<int32_t*>(offsets->mutable_data() + offsets->size());
  uint8_t* dst = values->mutable_data();
  const uint8_t* p = data_;
  int64_t pos = base;
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - p < 4) [[unlikely]] {
      data_ = p;
      return Corrupt("length prefix runs past the page end", decoded_ + i, end_ - p);
    }
    int32_t len;
    std::memcpy(&len, p, 4);
    p += 4;
    if (len < 0 || len > end_ - p) [[unlikely]] {
      data_ = p - 4;
      return Corrupt(len < 0 ? "negative length" : "length runs past the page end", decoded_ + i, len);
    }
    // Strings of up to 48 bytes take three fixed 16-byte copies when the page has the bytes to
    // read (the destination has the slack): a call to memcpy per value costs more than the copy,
    // and one branch that is nearly always taken the same way costs less than choosing the
    // number of copies by the length (l_comment's 10-43 bytes fall on both sides of 32 at random).
    if (len <= 48 && end_ - p >= 48) {
      std::memcpy(dst + pos, p, 16);
      std::memcpy(dst + pos + 16, p + 16, 16);
      std::memcpy(dst + pos + 32, p + 32, 16);
    } else {
      std::memcpy(dst + pos, p, static_cast<size_t>(len));
    }
    p += len;
    pos += len;
    if (pos > std::numeric_limits<int32_t>::max()) [[unlikely]] {
      return Status::Invalid("BYTE_ARRAY values exceed the 2 GiB an int32-offset array holds");
    }
    off[i] = static_cast<int32_t>(pos);
  }
  data_ = p;
  decoded_ += n;
  offsets->UnsafeSetSize(offsets->size() + n * 4);
  values->UnsafeSetSize(pos);
  return Status::OK();
}

Status PlainByteArrayDecoder::Skip(int64_t n) {
  const uint8_t* p = data_;
  for (int64_t i = 0; i < n; ++i) {
    if (end_ - p < 4) [[unlikely]] return Corrupt("length prefix runs past the page end", decoded_ + i, end_ - p);
    int32_t len;
    std::memcpy(&len, p, 4);
    p += 4;
    if (len < 0 || len > end_ - p) [[unlikely]] return Corrupt("bad length", decoded_ + i, len);
    p += len;
  }
  data_ = p;
  decoded_ += n;
  return Status::OK();
}

Status PlainEncodeFixed(const void* values, int64_t n, int width, BufferBuilder* out, const uint8_t* validity,
                        int64_t validity_offset) {
  const uint8_t* src = static_cast<const uint8_t*>(values);
  if (validity == nullptr) return out->Append(src, n * width);
  QUIVER_RETURN_NOT_OK(out->Reserve(n * width));
  for (int64_t i = 0; i < n; ++i) {
    if (bit_util::GetBit(validity, validity_offset + i)) out->UnsafeAppend(src + i * width, width);
  }
  return Status::OK();
}

Status PlainEncodeByteArrays(const int32_t* offsets, const uint8_t* data, int64_t n, BufferBuilder* out,
                             const uint8_t* validity, int64_t validity_offset) {
  return PlainEncodeByteArraysVisiting(offsets, data, n, out, validity, validity_offset, [](const uint8_t*, int32_t) {});
}

Status PlainBooleanEncoder::PutBitmap(const uint8_t* bitmap, int64_t offset, int64_t n) {
  const int64_t need = bit_util::BytesForBits(count_ + n);
  if (need > bits_.size()) QUIVER_RETURN_NOT_OK(bits_.AppendZeros(need - bits_.size()));
  bit_util::CopyBitmap(bitmap, offset, n, bits_.mutable_data(), count_);
  count_ += n;
  return Status::OK();
}

Status PlainBooleanEncoder::Put(const uint8_t* values, int64_t n) {
  const int64_t need = bit_util::BytesForBits(count_ + n);
  if (need > bits_.size()) QUIVER_RETURN_NOT_OK(bits_.AppendZeros(need - bits_.size()));
  uint8_t* bits = bits_.mutable_data();
  for (int64_t i = 0; i < n; ++i) bit_util::SetBitTo(bits, count_ + i, values[i] != 0);
  count_ += n;
  return Status::OK();
}

Status PlainBooleanEncoder::Finish(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(out->Append(bits_.data(), bits_.size()));
  bits_.Clear();
  count_ = 0;
  return Status::OK();
}

}  // namespace quiver::parquet::encoding
