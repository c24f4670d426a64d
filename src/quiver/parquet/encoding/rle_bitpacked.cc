#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

#include <string>

#include "quiver/parquet/encoding/bit_pack_internal.h"

namespace quiver::parquet::encoding {

Status RleBitPackedDecoder::ErrorStatus(int64_t got, int64_t wanted) const {
  const std::string where = " at byte " + std::to_string(pos_ - begin_) + " of " + std::to_string(end_ - begin_);
  switch (error_) {
    case Error::kBadHeader:
      return Status::Corrupt("RLE/bit-packed run header is malformed" + where);
    case Error::kTruncatedValue:
      return Status::Corrupt("RLE run value is truncated" + where);
    case Error::kNone:
      break;
  }
  return Status::Corrupt("RLE/bit-packed data ends after " + std::to_string(got) + " of " + std::to_string(wanted) +
                         " values (bit width " + std::to_string(bit_width_) + ")");
}

Status DecodeBooleanBitmap(RleBitPackedDecoder* decoder, int64_t n, uint8_t* bitmap, int64_t bit_offset) {
  if (decoder->bit_width() != 1) {
    return Status::Corrupt("RLE booleans need bit width 1, not " + std::to_string(decoder->bit_width()));
  }
  int64_t at = bit_offset;
  bool bad = false;
  const int64_t got = decoder->Visit(
      n,
      [&](uint32_t value, int64_t count) {
        bad |= value > 1;
        bit_util::SetBitsTo(bitmap, at, count, value != 0);
        at += count;
      },
      [&](const uint32_t* values, int64_t count) {
        for (int64_t i = 0; i < count; ++i) bit_util::SetBitTo(bitmap, at + i, values[i] != 0);
        at += count;
      });
  if (bad) return Status::Corrupt("RLE boolean run holds a value other than 0 or 1");
  if (got < n) return decoder->ErrorStatus(got, n);
  return Status::OK();
}

// ---- encoder ----

int64_t RleBitPackedEncoder::MaxEncodedSize(int bit_width, int64_t n) {
  // Per group of 8 values: W bytes when bit-packed, or an RLE run of exactly 8 (header byte +
  // value bytes), plus a header byte per 63 bit-packed groups.
  const int64_t groups = (n + 7) / 8;
  const int64_t per_group = bit_width + 2 + (bit_width + 7) / 8;
  return groups * per_group + (groups + 62) / 63 + 16;
}

void RleBitPackedEncoder::Reset(int bit_width) {
  bit_width_ = bit_width;
  out_.Clear();
  num_buffered_ = 0;
  current_ = 0;
  repeat_count_ = 0;
  literal_count_ = 0;
  indicator_at_ = -1;
}

Status RleBitPackedEncoder::ReserveFor(int64_t n) { return out_.Reserve(MaxEncodedSize(bit_width_, n + 8) + 16); }

Status RleBitPackedEncoder::PutRepeated(uint32_t value, int64_t count) {
  // Fill the buffer up to the point where the run is committed, then extend it in O(1).
  QUIVER_RETURN_NOT_OK(ReserveFor(std::min<int64_t>(count, 16)));
  while (count > 0 && !(value == current_ && repeat_count_ > 8)) {
    PutOne(value);
    --count;
  }
  repeat_count_ += count;
  return Status::OK();
}

void RleBitPackedEncoder::FlushBuffered(bool done) {
  if (repeat_count_ >= 8) {
    // The eight buffered values are the start of a repeated run.
    num_buffered_ = 0;
    if (literal_count_ != 0) FlushLiteralRun(true);
    return;
  }
  literal_count_ += num_buffered_;
  const int64_t groups = (literal_count_ + 7) / 8;
  FlushLiteralRun(done || groups + 1 >= 64);
  repeat_count_ = 0;
}

void RleBitPackedEncoder::FlushLiteralRun(bool close) {
  if (indicator_at_ < 0) {
    indicator_at_ = out_.size();
    out_.UnsafeAppendValue(uint8_t{0});
  }
  if (num_buffered_ > 0) {
    uint8_t* dst = out_.mutable_data() + out_.size();
    PackBitsLsb(buffered_, 0, 8, num_buffered_, bit_width_, dst);
    out_.UnsafeSetSize(out_.size() + bit_width_);
    num_buffered_ = 0;
  }
  if (close) {
    const int64_t groups = (literal_count_ + 7) / 8;
    out_.mutable_data()[indicator_at_] = static_cast<uint8_t>((groups << 1) | 1);
    indicator_at_ = -1;
    literal_count_ = 0;
  }
}

void RleBitPackedEncoder::FlushRepeatedRun() {
  uint8_t header[10];
  int n = 0;
  AppendUleb128(static_cast<uint64_t>(repeat_count_) << 1, header, &n);
  out_.UnsafeAppend(header, n);
  const uint32_t v = current_;
  out_.UnsafeAppend(&v, (bit_width_ + 7) / 8);
  num_buffered_ = 0;
  repeat_count_ = 0;
}

Status RleBitPackedEncoder::Finish(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(out_.Reserve(64));
  if (literal_count_ > 0 || repeat_count_ > 0 || num_buffered_ > 0) {
    const bool all_repeat =
        literal_count_ == 0 && (repeat_count_ == num_buffered_ || num_buffered_ == 0);
    if (repeat_count_ > 0 && all_repeat) {
      FlushRepeatedRun();
    } else {
      // The last group is padded with zeros to 8 values; readers stop at the page's count.
      literal_count_ += num_buffered_ > 0 ? 8 : 0;
      FlushLiteralRun(true);
    }
  }
  QUIVER_RETURN_NOT_OK(out->Append(out_.data(), out_.size()));
  Reset(bit_width_);
  return Status::OK();
}

// ---- legacy BIT_PACKED ----

Status DecodeLegacyBitPacked(const uint8_t* data, int64_t size, int bit_width, int64_t n, int16_t* out) {
  if (bit_width < 0 || bit_width > 16) {
    return Status::Corrupt("BIT_PACKED level bit width " + std::to_string(bit_width) + " is outside 0..16");
  }
  const int64_t need = bit_util::BytesForBits(n * bit_width);
  if (need > size) {
    return Status::Corrupt("BIT_PACKED levels need " + std::to_string(need) + " bytes, page has " +
                           std::to_string(size));
  }
  int64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < bit_width; ++b, ++bit) {
      v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1u);
    }
    out[i] = static_cast<int16_t>(v);
  }
  return Status::OK();
}

Status EncodeLegacyBitPacked(const int16_t* values, int64_t n, int bit_width, BufferBuilder* out) {
  const int64_t bytes = bit_util::BytesForBits(n * bit_width);
  const int64_t start = out->size();
  QUIVER_RETURN_NOT_OK(out->AppendZeros(bytes));
  uint8_t* dst = out->mutable_data() + start;
  int64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int b = bit_width - 1; b >= 0; --b, ++bit) {
      if ((static_cast<uint32_t>(values[i]) >> b) & 1u) dst[bit >> 3] |= static_cast<uint8_t>(0x80u >> (bit & 7));
    }
  }
  return Status::OK();
}

}  // namespace quiver::parquet::encoding
