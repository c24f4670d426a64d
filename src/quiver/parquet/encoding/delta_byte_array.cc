#include "quiver/parquet/encoding/delta_byte_array_internal.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::encoding {

Status DeltaByteArrayDecoder::Reset(const uint8_t* data, int64_t size) {
  count_ = index_ = 0;
  last_.clear();
  QUIVER_RETURN_NOT_OK(prefix_decoder_.Reset(data, size).WithContext("DELTA_BYTE_ARRAY prefix lengths"));
  const int64_t n = prefix_decoder_.total_values();
  prefixes_.Clear();
  QUIVER_RETURN_NOT_OK(prefixes_.Reserve(n * 4));
  QUIVER_RETURN_NOT_OK(prefix_decoder_.Decode(reinterpret_cast<int32_t*>(prefixes_.mutable_data()), n)
                           .WithContext("DELTA_BYTE_ARRAY prefix lengths"));
  prefixes_.UnsafeSetSize(n * 4);
  int64_t used = 0;
  QUIVER_RETURN_NOT_OK(prefix_decoder_.ConsumeAll(&used));
  QUIVER_RETURN_NOT_OK(suffixes_.Reset(data + used, size - used).WithContext("DELTA_BYTE_ARRAY suffixes"));
  if (suffixes_.values_left() != n) {
    return Status::Corrupt("DELTA_BYTE_ARRAY has " + std::to_string(n) + " prefix lengths but " +
                           std::to_string(suffixes_.values_left()) + " suffixes");
  }
  count_ = n;
  return Status::OK();
}

Status DeltaByteArrayDecoder::BadPrefix(int64_t i, int32_t prefix, int64_t previous) const {
  return Status::Corrupt("DELTA_BYTE_ARRAY value " + std::to_string(i) + " shares a prefix of " +
                         std::to_string(prefix) + " bytes with a previous value of " + std::to_string(previous) +
                         " bytes");
}

Status DeltaByteArrayDecoder::NextBatch(int64_t n, const int32_t** prefix, const int32_t** slen,
                                        const uint8_t** sbytes) {
  if (n < 0 || n > values_left()) [[unlikely]] {
    return Status::Corrupt("DELTA_BYTE_ARRAY data holds " + std::to_string(values_left()) + " more values, " +
                           std::to_string(n) + " requested");
  }
  *prefix = reinterpret_cast<const int32_t*>(prefixes_.data()) + index_;
  return suffixes_.Next(n, slen, sbytes);
}

Status DeltaByteArrayDecoder::Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values) {
  const int32_t* prefix;
  const int32_t* slen;
  const uint8_t* sbytes;
  QUIVER_RETURN_NOT_OK(NextBatch(n, &prefix, &slen, &sbytes));
  // First pass: validate prefixes against the previous length and size the output.
  int64_t prev_len = static_cast<int64_t>(last_.size());
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (prefix[i] < 0 || prefix[i] > prev_len) [[unlikely]] return BadPrefix(index_ + i, prefix[i], prev_len);
    prev_len = int64_t{prefix[i]} + slen[i];
    total += prev_len;
  }
  if (offsets->size() == 0) QUIVER_RETURN_NOT_OK(offsets->AppendValue<int32_t>(0));
  QUIVER_RETURN_NOT_OK(offsets->Reserve(n * 4));
  int64_t pos = values->size();
  if (pos + total > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("BYTE_ARRAY values exceed the 2 GiB an int32-offset array holds");
  }
  QUIVER_RETURN_NOT_OK(values->Reserve(total));
  uint8_t* dst = values->mutable_data();
  int32_t* off = reinterpret_cast<int32_t*>(offsets->mutable_data() + offsets->size());
  const uint8_t* prev = last_.data();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* start = dst + pos;
    // Empty values leave `prev` (and, for an all-empty batch, `dst`) null: memcpy must not see them.
    if (prefix[i] > 0) std::memcpy(dst + pos, prev, static_cast<size_t>(prefix[i]));
    pos += prefix[i];
    if (slen[i] > 0) std::memcpy(dst + pos, sbytes, static_cast<size_t>(slen[i]));
    sbytes += slen[i];
    pos += slen[i];
    off[i] = static_cast<int32_t>(pos);
    prev = start;
  }
  if (n > 0) last_.assign(prev, static_cast<const uint8_t*>(dst + pos));
  offsets->UnsafeSetSize(offsets->size() + n * 4);
  values->UnsafeSetSize(pos);
  index_ += n;
  return Status::OK();
}

Status DeltaByteArrayDecoder::DecodeFixed(int64_t n, int width, uint8_t* out) {
  const int32_t* prefix;
  const int32_t* slen;
  const uint8_t* sbytes;
  QUIVER_RETURN_NOT_OK(NextBatch(n, &prefix, &slen, &sbytes));
  int64_t prev_len = static_cast<int64_t>(last_.size());
  for (int64_t i = 0; i < n; ++i) {
    if (prefix[i] < 0 || prefix[i] > prev_len) [[unlikely]] return BadPrefix(index_ + i, prefix[i], prev_len);
    if (int64_t{prefix[i]} + slen[i] != width) [[unlikely]] {
      return Status::Corrupt("DELTA_BYTE_ARRAY value " + std::to_string(index_ + i) + " has " +
                             std::to_string(int64_t{prefix[i]} + slen[i]) + " bytes, FIXED_LEN_BYTE_ARRAY(" +
                             std::to_string(width) + ") expected");
    }
    prev_len = width;
  }
  const uint8_t* prev = last_.data();
  for (int64_t i = 0; i < n; ++i) {
    uint8_t* dst = out + i * width;
    if (prefix[i] > 0) std::memcpy(dst, prev, static_cast<size_t>(prefix[i]));
    if (slen[i] > 0) std::memcpy(dst + prefix[i], sbytes, static_cast<size_t>(slen[i]));
    sbytes += slen[i];
    prev = dst;
  }
  if (n > 0) last_.assign(prev, prev + width);
  index_ += n;
  return Status::OK();
}

Status DeltaByteArrayDecoder::Skip(int64_t n) {
  BufferBuilder offsets, values;
  while (n > 0) {
    const int64_t k = std::min<int64_t>(n, 1024);
    offsets.Clear();
    values.Clear();
    QUIVER_RETURN_NOT_OK(Decode(k, &offsets, &values));
    n -= k;
  }
  return Status::OK();
}

Status DeltaByteArrayEncoder::PutOne(const uint8_t* v, int32_t len) {
  const size_t limit = std::min(last_.size(), static_cast<size_t>(len));
  int32_t prefix = 0;
  while (static_cast<size_t>(prefix) < limit && last_[prefix] == v[prefix]) ++prefix;
  QUIVER_RETURN_NOT_OK(prefixes_.Put(&prefix, 1));
  QUIVER_RETURN_NOT_OK(suffixes_.Put(v + prefix, len - prefix));
  last_.assign(v, v + len);
  return Status::OK();
}

Status DeltaByteArrayEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
                                  int64_t validity_offset) {
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
    QUIVER_RETURN_NOT_OK(PutOne(data + offsets[i], offsets[i + 1] - offsets[i]));
  }
  return Status::OK();
}

Status DeltaByteArrayEncoder::PutFixed(const uint8_t* values, int width, int64_t n) {
  for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(PutOne(values + i * width, width));
  return Status::OK();
}

Status DeltaByteArrayEncoder::Finish(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(prefixes_.Finish(out));
  QUIVER_RETURN_NOT_OK(suffixes_.Finish(out));
  last_.clear();
  return Status::OK();
}

}  // namespace quiver::parquet::encoding
