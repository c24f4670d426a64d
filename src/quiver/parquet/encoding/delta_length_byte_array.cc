#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"

#include <limits>
#include <string>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::encoding {

Status DeltaLengthByteArrayDecoder::Reset(const uint8_t* data, int64_t size) {
  count_ = index_ = 0;
  QUIVER_RETURN_NOT_OK(lengths_decoder_.Reset(data, size).WithContext("DELTA_LENGTH_BYTE_ARRAY lengths"));
  const int64_t n = lengths_decoder_.total_values();
  lengths_.Clear();
  QUIVER_RETURN_NOT_OK(lengths_.Reserve(n * 4));
  int32_t* lengths = reinterpret_cast<int32_t*>(lengths_.mutable_data());
  QUIVER_RETURN_NOT_OK(lengths_decoder_.Decode(lengths, n).WithContext("DELTA_LENGTH_BYTE_ARRAY lengths"));
  lengths_.UnsafeSetSize(n * 4);
  int64_t header = 0;
  QUIVER_RETURN_NOT_OK(lengths_decoder_.ConsumeAll(&header));
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (lengths[i] < 0) [[unlikely]] {
      return Status::Corrupt("DELTA_LENGTH_BYTE_ARRAY value " + std::to_string(i) + " has negative length " +
                             std::to_string(lengths[i]));
    }
    total += lengths[i];
  }
  if (total > size - header) {
    return Status::Corrupt("DELTA_LENGTH_BYTE_ARRAY lengths add up to " + std::to_string(total) + " bytes but " +
                           std::to_string(size - header) + " follow them");
  }
  count_ = n;
  bytes_ = data + header;
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Next(int64_t n, const int32_t** lengths, const uint8_t** bytes) {
  if (n < 0 || n > values_left()) [[unlikely]] {
    return Status::Corrupt("DELTA_LENGTH_BYTE_ARRAY data holds " + std::to_string(values_left()) +
                           " more values, " + std::to_string(n) + " requested");
  }
  const int32_t* l = reinterpret_cast<const int32_t*>(lengths_.data()) + index_;
  *lengths = l;
  *bytes = bytes_;
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += l[i];
  bytes_ += total;
  index_ += n;
  return Status::OK();
}

Status DeltaLengthByteArrayDecoder::Skip(int64_t n) {
  const int32_t* l;
  const uint8_t* b;
  return Next(n, &l, &b);
}

Status DeltaLengthByteArrayDecoder::Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values) {
  const int32_t* l;
  const uint8_t* src;
  QUIVER_RETURN_NOT_OK(Next(n, &l, &src));
  if (offsets->size() == 0) QUIVER_RETURN_NOT_OK(offsets->AppendValue<int32_t>(0));
  QUIVER_RETURN_NOT_OK(offsets->Reserve(n * 4));
  int32_t* off = reinterpret_cast<int32_t*>(offsets->mutable_data() + offsets->size());
  int64_t pos = values->size();
  const int64_t start = pos;
  for (int64_t i = 0; i < n; ++i) {
    pos += l[i];
    off[i] = static_cast<int32_t>(pos);
  }
  if (pos > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("BYTE_ARRAY values exceed the 2 GiB an int32-offset array holds");
  }
  QUIVER_RETURN_NOT_OK(values->Append(src, pos - start));
  offsets->UnsafeSetSize(offsets->size() + n * 4);
  return Status::OK();
}

Status DeltaLengthByteArrayEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n,
                                        const uint8_t* validity, int64_t validity_offset) {
  int32_t lengths[256];
  int64_t i = 0;
  while (i < n) {
    int k = 0;
    for (; i < n && k < 256; ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
      lengths[k++] = offsets[i + 1] - offsets[i];
      QUIVER_RETURN_NOT_OK(bytes_.Append(data + offsets[i], offsets[i + 1] - offsets[i]));
    }
    QUIVER_RETURN_NOT_OK(lengths_.Put(lengths, k));
  }
  return Status::OK();
}

Status DeltaLengthByteArrayEncoder::Put(const uint8_t* value, int32_t length) {
  QUIVER_RETURN_NOT_OK(lengths_.Put(&length, 1));
  return bytes_.Append(value, length);
}

Status DeltaLengthByteArrayEncoder::Finish(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(lengths_.Finish(out));
  QUIVER_RETURN_NOT_OK(out->Append(bytes_.data(), bytes_.size()));
  bytes_.Clear();
  return Status::OK();
}

}  // namespace quiver::parquet::encoding
