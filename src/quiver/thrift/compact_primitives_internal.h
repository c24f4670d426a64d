// The primitive side of the Thrift engine: CompactReader reads compact-protocol values
// (varints, zigzag integers, binaries, field, list and map headers) from a byte span with
// every bound checked, and keeps the first failure and where it happened for one Status at the
// top. The struct decoder and both skippers (compact_reader_internal.h, compact_reader.cc)
// walk the bytes through it.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/status.h"
#include "quiver/thrift/field_table_internal.h"

#define QUIVER_THRIFT_INLINE [[gnu::always_inline]] inline

namespace quiver::thrift {

enum class WireError : uint8_t {
  kNone, kTruncated, kVarint, kIntRange, kLength, kCount, kType, kDepth, kMissing, kOutOfMemory, kInvalid
};

// Fewest bytes a list element of wire type `type` takes; 0 for an invalid type code.
constexpr size_t MinElementBytes(uint8_t type) {
  switch (type) {
    case kBoolTrue: case kBoolFalse: case kByte: case kI16: case kI32: case kI64:
    case kBinary: case kList: case kSet: case kMap: case kStruct: return 1;
    case kDouble: return 8;
    default: return 0;
  }
}

// The checks a list, set or map header gets, written once for every walker over compact
// bytes: the decoder and the typed skipper (through CompactReader) and the generic skipper (on
// a bare cursor, compact_reader.cc). Each walker reads the header with its own cursor and
// asks these. A count read from a varint is at most INT32_MAX; then the count is checked
// against the bytes left after the header times the fewest bytes an element takes (a
// multiply: n <= INT32_MAX and a minimum <= 16 cannot overflow, and a 64-bit division per
// header was visible), so a hostile count fails here instead of allocating.
QUIVER_THRIFT_INLINE bool CountFitsInt32(uint64_t n) { return n <= INT32_MAX; }

// `n` list or set elements of `elem_type`: kType (the failure's value is the type), kCount
// (the value is n) or kNone.
QUIVER_THRIFT_INLINE WireError CheckListCount(uint64_t n, uint8_t elem_type, size_t bytes_left) {
  if (n == 0) return WireError::kNone;
  const size_t min = MinElementBytes(elem_type);
  if (min == 0) [[unlikely]] return WireError::kType;
  if (n * min > bytes_left) [[unlikely]] return WireError::kCount;
  return WireError::kNone;
}

// `n` (> 0) map entries: kType with the first invalid type in *bad_type, kCount or kNone.
QUIVER_THRIFT_INLINE WireError CheckMapCount(uint64_t n, uint8_t key_type, uint8_t value_type, size_t bytes_left,
                                             uint8_t* bad_type) {
  const size_t kmin = MinElementBytes(key_type), vmin = MinElementBytes(value_type);
  if (kmin == 0) [[unlikely]] {
    *bad_type = key_type;
    return WireError::kType;
  }
  if (vmin == 0) [[unlikely]] {
    *bad_type = value_type;
    return WireError::kType;
  }
  if (n * (kmin + vmin) > bytes_left) [[unlikely]] return WireError::kCount;
  return WireError::kNone;
}

// Reads compact-protocol primitives. Every method returns false on malformed input after
// recording why; the reason becomes a Status once, at the top (ErrorStatus), so the hot path
// carries a bool and no string building.
class CompactReader {
 public:
  CompactReader(const uint8_t* data, size_t size) : begin_(data), pos_(data), end_(data + size) {}

  size_t remaining() const { return static_cast<size_t>(end_ - pos_); }
  size_t offset() const { return static_cast<size_t>(pos_ - begin_); }
  const uint8_t* position() const { return pos_; }
  bool failed() const { return error_ != Error::kNone; }

  // Field header: *type = 0 means STOP. `last_id` is the previous field id of this struct.
  QUIVER_THRIFT_INLINE bool ReadFieldHeader(int16_t last_id, int16_t* id, uint8_t* type) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    uint8_t b = *pos_++;
    *type = b & 0x0f;
    if (b == 0) return true;
    uint8_t delta = b >> 4;
    if (delta != 0) [[likely]] {
      *id = static_cast<int16_t>(last_id + delta);
      return true;
    }
    int64_t v;
    if (!ReadZigZag(&v)) return false;
    if (v < INT16_MIN || v > INT16_MAX) [[unlikely]] return Fail(Error::kIntRange);
    *id = static_cast<int16_t>(v);
    return true;
  }

  // The next field header as one number, `key` = id * 16 + type (kStopKey for STOP), so the
  // struct decoder matches a field's id and wire type with one compare against a constant. In
  // the short form (delta id) the key is `last_id * 16 + byte`: one add, no decoding.
  static constexpr int32_t kStopKey = INT32_MAX;
  QUIVER_THRIFT_INLINE bool ReadFieldKey(int16_t last_id, int32_t* key) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    const uint32_t b = *pos_++;
    if (b >= 16) [[likely]] {
      *key = int32_t{last_id} * 16 + static_cast<int32_t>(b);
      return true;
    }
    if (b == 0) {  // STOP, at the end of every struct: kept inline
      *key = kStopKey;
      return true;
    }
    return ReadFieldKeyRare(b, key);
  }

  QUIVER_THRIFT_INLINE bool ReadVarint(uint64_t* out) {
    if (end_ - pos_ >= 10) [[likely]] {
      const uint8_t* p = pos_;
      uint64_t b = p[0];
      if (b < 0x80) [[likely]] {
        *out = b;
        pos_ = p + 1;
        return true;
      }
      uint64_t r = b & 0x7f;
      b = p[1]; r |= (b & 0x7f) << 7;  if (b < 0x80) { pos_ = p + 2; *out = r; return true; }
      b = p[2]; r |= (b & 0x7f) << 14; if (b < 0x80) { pos_ = p + 3; *out = r; return true; }
      b = p[3]; r |= (b & 0x7f) << 21; if (b < 0x80) { pos_ = p + 4; *out = r; return true; }
      b = p[4]; r |= (b & 0x7f) << 28; if (b < 0x80) { pos_ = p + 5; *out = r; return true; }
      b = p[5]; r |= (b & 0x7f) << 35; if (b < 0x80) { pos_ = p + 6; *out = r; return true; }
      b = p[6]; r |= (b & 0x7f) << 42; if (b < 0x80) { pos_ = p + 7; *out = r; return true; }
      b = p[7]; r |= (b & 0x7f) << 49; if (b < 0x80) { pos_ = p + 8; *out = r; return true; }
      b = p[8]; r |= (b & 0x7f) << 56; if (b < 0x80) { pos_ = p + 9; *out = r; return true; }
      b = p[9];
      if (b > 1) [[unlikely]] return Fail(Error::kVarint);
      r |= b << 63;
      pos_ = p + 10;
      *out = r;
      return true;
    }
    return ReadVarintSlow(out);
  }

  QUIVER_THRIFT_INLINE bool ReadZigZag(int64_t* out) {
    uint64_t v;
    if (!ReadVarint(&v)) return false;
    *out = static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
    return true;
  }

  // Integers of one byte on the wire (most counts, sizes and enums in footers) take a path of
  // their own: one bound check, one compare, and no range check (7 bits fit any width).
  QUIVER_THRIFT_INLINE bool ReadI64(int64_t* out) {
    if (pos_ != end_) [[likely]] {
      const uint64_t b = *pos_;
      if (b < 0x80) [[likely]] {
        ++pos_;
        *out = static_cast<int64_t>(b >> 1) ^ -static_cast<int64_t>(b & 1);
        return true;
      }
    }
    return ReadZigZag(out);
  }
  QUIVER_THRIFT_INLINE bool ReadI32(int32_t* out) {
    if (pos_ != end_) [[likely]] {
      const uint32_t b = *pos_;
      if (b < 0x80) [[likely]] {
        ++pos_;
        *out = static_cast<int32_t>(b >> 1) ^ -static_cast<int32_t>(b & 1);
        return true;
      }
    }
    int64_t v;
    if (!ReadZigZag(&v)) return false;
    if (v < INT32_MIN || v > INT32_MAX) [[unlikely]] return Fail(Error::kIntRange);
    *out = static_cast<int32_t>(v);
    return true;
  }
  QUIVER_THRIFT_INLINE bool ReadI16(int16_t* out) {
    int64_t v;
    if (!ReadZigZag(&v)) return false;
    if (v < INT16_MIN || v > INT16_MAX) [[unlikely]] return Fail(Error::kIntRange);
    *out = static_cast<int16_t>(v);
    return true;
  }
  QUIVER_THRIFT_INLINE bool ReadByte(int8_t* out) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    *out = static_cast<int8_t>(*pos_++);
    return true;
  }
  // A bool that is a list element (a field's bool lives in its header): 1 is true.
  QUIVER_THRIFT_INLINE bool ReadBoolElement(bool* out) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    *out = (*pos_++ == kBoolTrue);
    return true;
  }
  QUIVER_THRIFT_INLINE bool ReadDouble(double* out) {
    if (end_ - pos_ < 8) [[unlikely]] return Fail(Error::kTruncated);
    uint64_t bits;
    std::memcpy(&bits, pos_, 8);  // little-endian on the wire; quiver targets little-endian hosts
    std::memcpy(out, &bits, 8);
    pos_ += 8;
    return true;
  }
  // A view into the input: the caller keeps the input alive.
  QUIVER_THRIFT_INLINE bool ReadBinary(std::string_view* out) {
    uint64_t len;
    if (!ReadVarint(&len)) return false;
    if (len > remaining()) [[unlikely]] return Fail(Error::kLength, len);
    *out = std::string_view(reinterpret_cast<const char*>(pos_), static_cast<size_t>(len));
    pos_ += len;
    return true;
  }

  // List or set header (CheckListCount's checks).
  QUIVER_THRIFT_INLINE bool ReadListHeader(uint8_t* elem_type, uint32_t* size) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    uint8_t b = *pos_++;
    *elem_type = b & 0x0f;
    uint64_t n = b >> 4;
    if (n == 15) {
      if (!ReadVarint(&n)) return false;
      if (!CountFitsInt32(n)) [[unlikely]] return Fail(Error::kCount, n);
    }
    const WireError e = CheckListCount(n, *elem_type, remaining());
    if (e != WireError::kNone) [[unlikely]] return Fail(e, e == WireError::kType ? *elem_type : n);
    *size = static_cast<uint32_t>(n);
    return true;
  }

  // ReadListHeader for a list whose model elements have wire type `expected`. In the common
  // case (the header says `expected`, fewer than 15 elements) the count is checked against a
  // constant element size; anything else takes ReadListHeader, with the same checks and errors.
  template <uint8_t expected>
  QUIVER_THRIFT_INLINE bool ReadListHeaderAs(uint8_t* elem_type, uint32_t* size) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    const uint32_t b = *pos_;
    if ((b & 0x0f) != expected || b >= 0xf0) [[unlikely]] return ReadListHeader(elem_type, size);
    ++pos_;
    *elem_type = expected;
    static_assert(MinElementBytes(expected) > 0);
    const uint32_t n = b >> 4;
    if (CheckListCount(n, expected, remaining()) != WireError::kNone) [[unlikely]] return Fail(Error::kCount, n);
    *size = n;
    return true;
  }

  // Map header (CheckMapCount's checks).
  bool ReadMapHeader(uint8_t* key_type, uint8_t* value_type, uint32_t* size) {
    uint64_t n;
    if (!ReadVarint(&n)) return false;
    *key_type = *value_type = 0;
    if (n == 0) {
      *size = 0;
      return true;
    }
    if (!CountFitsInt32(n)) [[unlikely]] return Fail(Error::kCount, n);
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    uint8_t b = *pos_++;
    *key_type = b >> 4;
    *value_type = b & 0x0f;
    uint8_t bad = 0;
    const WireError e = CheckMapCount(n, *key_type, *value_type, remaining(), &bad);
    if (e != WireError::kNone) [[unlikely]] return Fail(e, e == WireError::kType ? bad : n);
    *size = static_cast<uint32_t>(n);
    return true;
  }

  // Skips one value of a field type (bool fields carry their value in the header: nothing to
  // do). Skipping builds nothing; it is what selective decoding spends its time in for the row
  // groups, column chunks and statistics it does not build.
  bool Skip(uint8_t type);
  // Skips one struct body (through its STOP).
  bool SkipStruct();
  // Skips `n` consecutive list elements of wire type `type` (whose list header is already
  // read): a run of unselected row groups or column chunks goes in one call.
  bool SkipElements(uint8_t type, uint32_t n);

  // Nesting guard for the typed decoder (unknown fields are guarded inside Skip).
  QUIVER_THRIFT_INLINE bool Enter() {
    if (++depth_ > kMaxDepth) [[unlikely]] return Fail(Error::kDepth);
    return true;
  }
  QUIVER_THRIFT_INLINE void Leave() { --depth_; }

  // Failure reporting, all out of the hot path.
  using Error = WireError;
  [[gnu::cold, gnu::noinline]] bool Fail(Error e, uint64_t value = 0);
  [[gnu::cold, gnu::noinline]] bool FailMissing(const char* struct_name, const char* field, int16_t id);
  [[gnu::cold, gnu::noinline]] bool FailInvalid(std::string message);
  // Frames are added innermost first while an error climbs out ("columns[3]", "meta_data").
  [[gnu::cold, gnu::noinline]] void AddFrame(const char* name, int64_t index = -1);
  // "<what> at byte N of M (in FileMetaData.row_groups[0].columns[3])".
  Status ErrorStatus() const;

  static constexpr int kMaxDepth = 64;

 private:
  bool ReadVarintSlow(uint64_t* out);
  // A header in the long form (type byte, then the id as a zigzag varint).
  bool ReadFieldKeyRare(uint32_t b, int32_t* key);
  // Takes the skipper's end position, or its error when `p` is null.
  bool FinishSkip(const uint8_t* p, const void* skipper);
 public:
  static constexpr size_t MinElementBytes(uint8_t type) { return thrift::MinElementBytes(type); }

 private:
  const uint8_t* begin_;
  const uint8_t* pos_;
  const uint8_t* end_;
  int depth_ = 0;
  Error error_ = Error::kNone;
  uint64_t error_value_ = 0;
  size_t error_offset_ = 0;
  std::string error_text_;
  std::vector<std::string> frames_;
};

}  // namespace quiver::thrift
