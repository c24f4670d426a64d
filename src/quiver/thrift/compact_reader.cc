// Out-of-line parts of the compact reader: slow varints, the skip fast path, error reporting.
#include "quiver/thrift/compact_reader_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace quiver::thrift {

bool CompactReader::ReadVarintSlow(uint64_t* out) {
  uint64_t r = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (pos_ == end_) return Fail(Error::kTruncated);
    uint64_t b = *pos_++;
    if (shift == 63 && b > 1) return Fail(Error::kVarint);
    r |= (b & 0x7f) << shift;
    if (b < 0x80) {
      *out = r;
      return true;
    }
  }
  return Fail(Error::kVarint);
}

bool CompactReader::ReadFieldKeyRare(uint32_t b, int32_t* key) {
  int64_t v;
  if (!ReadZigZag(&v)) return false;
  if (v < INT16_MIN || v > INT16_MAX) [[unlikely]] return Fail(Error::kIntRange);
  *key = static_cast<int32_t>(v) * 16 + static_cast<int32_t>(b);
  return true;
}

namespace {

using Error = CompactReader::Error;

// The skip fast path. It builds nothing and keeps its cursor in a register. Field headers,
// varints and one-byte lengths are branched on rather than computed branch-free, on purpose:
// the branch predictor then supplies the next address (p + 1, p + 2, ...) without waiting for
// the load of the current byte, so consecutive fields overlap. A branch-free length (e.g. a
// count of trailing zeros of the stop bits) makes every field wait for the previous load, which
// was what made skipping a column chunk slower than decoding it. Lengths of binaries still
// depend on the loaded length byte; nothing can predict those.
// Every function returns the position after what it skipped, or nullptr after recording why.
class Skipper {
 public:
  Skipper(const uint8_t* end, int max_depth) : end_(end), max_depth_(max_depth) {}

  Error error = Error::kNone;
  uint64_t error_value = 0;
  const uint8_t* error_at = nullptr;

  // A struct body up to and including its STOP; `depth` is the struct's own nesting level.
  const uint8_t* Struct(const uint8_t* p, int depth) {
    if (depth > max_depth_) [[unlikely]] return Fail(p, Error::kDepth);
    for (;;) {
      // The most common fields, an integer with a one-byte value or a binary with a one-byte
      // length after a short header, in one step under a single bounds check. Anything else
      // (and any error) takes the general path below.
      if (end_ - p >= 2) [[likely]] {
        const uint8_t h = p[0], t = h & 0x0f, v = p[1];
        if (h >= 0x10 && v < 0x80) [[likely]] {
          if (t == kI32 || t == kI64 || t == kI16) [[likely]] {
            p += 2;
            continue;
          }
          if (t == kBinary && v <= static_cast<size_t>(end_ - p) - 2) {
            p += 2 + v;
            continue;
          }
        }
      }
      if (p == end_) [[unlikely]] return Fail(p, Error::kTruncated);
      const uint8_t b = *p++;
      const uint8_t t = b & 0x0f;
      if (t == kStop) return p;  // as in ReadFieldHeader (and Thrift's own reader): type 0 ends the struct
      if (b < 0x10) [[unlikely]] {  // long form: the id follows as a zigzag varint
        p = Varint(p);
        if (p == nullptr) return nullptr;
      }
      if (t == kI32 || t == kI64 || t == kI16) [[likely]] {
        p = Varint(p);
      } else if (t == kBoolTrue || t == kBoolFalse) {
        continue;  // the value is the type code
      } else if (t == kBinary) {
        p = Binary(p);
      } else if (t == kStruct) {
        p = Struct(p, depth + 1);
      } else {
        p = Other(p, t, depth + 1);
      }
      if (p == nullptr) [[unlikely]] return nullptr;
    }
  }

  // `n` consecutive list elements (or map keys/values) of wire type `type`; containers among
  // them are at nesting level `depth`.
  const uint8_t* Elements(const uint8_t* p, uint8_t type, uint64_t n, int depth) {
    switch (type) {
      case kBoolTrue: case kBoolFalse: case kByte:
        if (n > static_cast<uint64_t>(end_ - p)) [[unlikely]] return Fail(end_, Error::kTruncated);
        return p + n;
      case kDouble:
        if (n > static_cast<uint64_t>(end_ - p) >> 3) [[unlikely]] return Fail(end_, Error::kTruncated);
        return p + n * 8;
      case kI16: case kI32: case kI64:
        for (uint64_t i = 0; i < n && p != nullptr; ++i) p = Varint(p);
        return p;
      case kBinary:
        for (uint64_t i = 0; i < n && p != nullptr; ++i) p = Binary(p);
        return p;
      case kStruct:
        for (uint64_t i = 0; i < n && p != nullptr; ++i) p = Struct(p, depth);
        return p;
      case kList: case kSet:
        for (uint64_t i = 0; i < n && p != nullptr; ++i) p = List(p, depth);
        return p;
      case kMap:
        for (uint64_t i = 0; i < n && p != nullptr; ++i) p = Map(p, depth);
        return p;
      default:
        return Fail(p, Error::kType, type);
    }
  }

  // A field value of any type but bool (whose value is in the header); containers are at `depth`.
  const uint8_t* Value(const uint8_t* p, uint8_t type, int depth) {
    if (type == kBoolTrue || type == kBoolFalse) return p;
    return Elements(p, type, 1, depth);
  }

 private:
  [[gnu::cold, gnu::noinline]] const uint8_t* Fail(const uint8_t* at, Error e, uint64_t value = 0) {
    error = e;
    error_value = value;
    error_at = at;
    return nullptr;
  }

  QUIVER_THRIFT_INLINE const uint8_t* Varint(const uint8_t* p) {
    if (end_ - p >= 10) [[likely]] {
      if (p[0] < 0x80) [[likely]] return p + 1;
      if (p[1] < 0x80) return p + 2;
      if (p[2] < 0x80) return p + 3;
      if (p[3] < 0x80) return p + 4;
      if (p[4] < 0x80) return p + 5;
      if (p[5] < 0x80) return p + 6;
      if (p[6] < 0x80) return p + 7;
      if (p[7] < 0x80) return p + 8;
      if (p[8] < 0x80) return p + 9;
      if (p[9] <= 1) return p + 10;
      return Fail(p, Error::kVarint);
    }
    uint64_t v;
    return VarintValueSlow(p, &v);
  }

  QUIVER_THRIFT_INLINE const uint8_t* VarintValue(const uint8_t* p, uint64_t* out) {
    if (p != end_ && *p < 0x80) [[likely]] {
      *out = *p;
      return p + 1;
    }
    return VarintValueSlow(p, out);
  }

  [[gnu::noinline]] const uint8_t* VarintValueSlow(const uint8_t* p, uint64_t* out) {
    uint64_t r = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p == end_) return Fail(p, Error::kTruncated);
      const uint64_t b = *p++;
      if (shift == 63 && b > 1) return Fail(p, Error::kVarint);
      r |= (b & 0x7f) << shift;
      if (b < 0x80) {
        *out = r;
        return p;
      }
    }
    return Fail(p, Error::kVarint);
  }

  QUIVER_THRIFT_INLINE const uint8_t* Binary(const uint8_t* p) {
    uint64_t len;
    p = VarintValue(p, &len);
    if (p == nullptr) [[unlikely]] return nullptr;
    if (len > static_cast<uint64_t>(end_ - p)) [[unlikely]] return Fail(p, Error::kLength, len);
    return p + len;
  }

  // Levels are counted as the typed decoder counts them, so that skipping a struct accepts
  // exactly the nesting that decoding it would: a struct element of a list or map is at the
  // container's level (the typed decoder enters only structs), a container element one deeper
  // (which still bounds the recursion of lists of lists).
  static int ElementDepth(uint8_t type, int container_depth) {
    return type == kStruct ? container_depth : container_depth + 1;
  }

  // Byte, double, list, set, map, or an invalid type code.
  const uint8_t* Other(const uint8_t* p, uint8_t type, int depth) {
    switch (type) {
      case kList: case kSet: return List(p, depth);
      case kMap: return Map(p, depth);
      default: return Elements(p, type, 1, depth);
    }
  }

  const uint8_t* List(const uint8_t* p, int depth) {
    if (depth > max_depth_) [[unlikely]] return Fail(p, Error::kDepth);
    if (p == end_) [[unlikely]] return Fail(p, Error::kTruncated);
    const uint8_t b = *p++;
    const uint8_t et = b & 0x0f;
    uint64_t n = b >> 4;
    if (n == 15) {
      p = VarintValue(p, &n);
      if (p == nullptr) return nullptr;
      if (!CountFitsInt32(n)) [[unlikely]] return Fail(p, Error::kCount, n);
    }
    if (n == 0) return p;
    const WireError e = CheckListCount(n, et, static_cast<size_t>(end_ - p));
    if (e != WireError::kNone) [[unlikely]] return Fail(p, e, e == WireError::kType ? et : n);
    return Elements(p, et, n, ElementDepth(et, depth));
  }

  const uint8_t* Map(const uint8_t* p, int depth) {
    if (depth > max_depth_) [[unlikely]] return Fail(p, Error::kDepth);
    uint64_t n;
    p = VarintValue(p, &n);
    if (p == nullptr) return nullptr;
    if (n == 0) return p;
    if (!CountFitsInt32(n)) [[unlikely]] return Fail(p, Error::kCount, n);
    if (p == end_) [[unlikely]] return Fail(p, Error::kTruncated);
    const uint8_t b = *p++;
    const uint8_t kt = b >> 4, vt = b & 0x0f;
    uint8_t bad = 0;
    const WireError e = CheckMapCount(n, kt, vt, static_cast<size_t>(end_ - p), &bad);
    if (e != WireError::kNone) [[unlikely]] return Fail(p, e, e == WireError::kType ? bad : n);
    for (uint64_t i = 0; i < n; ++i) {
      p = Elements(p, kt, 1, ElementDepth(kt, depth));
      if (p == nullptr) return nullptr;
      p = Elements(p, vt, 1, ElementDepth(vt, depth));
      if (p == nullptr) return nullptr;
    }
    return p;
  }

  const uint8_t* const end_;
  const int max_depth_;
};

}  // namespace

bool CompactReader::FinishSkip(const uint8_t* p, const void* skipper) {
  if (p != nullptr) [[likely]] {
    pos_ = p;
    return true;
  }
  const auto& s = *static_cast<const Skipper*>(skipper);
  pos_ = s.error_at;
  return Fail(s.error, s.error_value);
}

bool CompactReader::Skip(uint8_t type) {
  Skipper s(end_, kMaxDepth);
  const uint8_t* p = type == kStruct ? s.Struct(pos_, depth_ + 1) : s.Value(pos_, type, depth_ + 1);
  return FinishSkip(p, &s);
}

bool CompactReader::SkipStruct() {
  Skipper s(end_, kMaxDepth);
  return FinishSkip(s.Struct(pos_, depth_ + 1), &s);
}

bool CompactReader::SkipElements(uint8_t type, uint32_t n) {
  Skipper s(end_, kMaxDepth);
  return FinishSkip(s.Elements(pos_, type, n, depth_ + 1), &s);
}

bool CompactReader::Fail(Error e, uint64_t value) {
  if (error_ == Error::kNone) {
    error_ = e;
    error_value_ = value;
    error_offset_ = offset();
  }
  // Stop every later read: the input is consumed as far as the decoder is concerned.
  pos_ = end_;
  return false;
}

bool CompactReader::FailMissing(const char* struct_name, const char* field, int16_t id) {
  if (error_ == Error::kNone) {
    error_ = Error::kMissing;
    error_offset_ = offset();
    error_text_ = fmt::format("{}: required field '{}' ({}) missing", struct_name, field, id);
  }
  pos_ = end_;
  return false;
}

bool CompactReader::FailInvalid(std::string message) {
  if (error_ == Error::kNone) {
    error_ = Error::kInvalid;
    error_offset_ = offset();
    error_text_ = std::move(message);
  }
  pos_ = end_;
  return false;
}

void CompactReader::AddFrame(const char* name, int64_t index) {
  if (index >= 0) {
    frames_.push_back(fmt::format("[{}]", index));
  } else {
    frames_.emplace_back(name);
  }
}

Status CompactReader::ErrorStatus() const {
  std::string what;
  size_t total = static_cast<size_t>(end_ - begin_);
  size_t left = total - std::min(total, error_offset_);
  switch (error_) {
    case Error::kNone: return Status::OK();
    case Error::kTruncated: what = "unexpected end of data"; break;
    case Error::kVarint: what = "malformed varint (longer than 10 bytes)"; break;
    case Error::kIntRange: what = "integer out of range for its field"; break;
    case Error::kLength: what = fmt::format("binary length {} exceeds the {} bytes left", error_value_, left); break;
    case Error::kCount: what = fmt::format("element count {} exceeds the {} bytes left", error_value_, left); break;
    case Error::kType: what = fmt::format("invalid compact type code {}", error_value_); break;
    case Error::kDepth: what = fmt::format("nesting deeper than {}", kMaxDepth); break;
    case Error::kOutOfMemory: return Status::OutOfMemory(fmt::format("could not allocate {} bytes for Thrift metadata", error_value_));
    case Error::kMissing:
    case Error::kInvalid: what = error_text_; break;
  }
  std::string path;
  for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
    if (!path.empty() && (*it)[0] != '[') path += '.';
    path += *it;
  }
  std::string msg;
  if (!path.empty()) msg = path + ": ";
  msg += what;
  if (error_ != Error::kMissing && error_ != Error::kInvalid) msg += fmt::format(" (at byte {} of {})", error_offset_, total);
  return Status::Corrupt(std::move(msg));
}

}  // namespace quiver::thrift
