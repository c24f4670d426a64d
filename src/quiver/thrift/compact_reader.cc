// Cold paths of the compact reader: slow varints, skipping unknown values, error reporting.
#include "quiver/thrift/compact_reader.h"

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

bool CompactReader::SkipValue(uint8_t type, bool in_list, int depth) {
  switch (type) {
    case kBoolTrue:
    case kBoolFalse:
      if (!in_list) return true;
      [[fallthrough]];
    case kByte:
      if (pos_ == end_) return Fail(Error::kTruncated);
      ++pos_;
      return true;
    case kI16:
    case kI32:
    case kI64: {
      uint64_t v;
      return ReadVarint(&v);
    }
    case kDouble:
      if (remaining() < 8) return Fail(Error::kTruncated);
      pos_ += 8;
      return true;
    case kBinary: {
      std::string_view s;
      return ReadBinary(&s);
    }
    case kList:
    case kSet: {
      if (depth + 1 > kMaxDepth) return Fail(Error::kDepth);
      uint8_t et = 0;
      uint32_t n = 0;
      if (!ReadListHeader(&et, &n)) return false;
      if (n == 0) return true;
      // Fixed-width elements are skipped in one step; the header check already bounded n.
      if (et == kByte || et == kBoolTrue || et == kBoolFalse) {
        pos_ += n;
        return true;
      }
      if (et == kDouble) {
        pos_ += size_t{n} * 8;
        return true;
      }
      for (uint32_t i = 0; i < n; ++i) {
        if (!SkipValue(et, true, depth + 1)) return false;
      }
      return true;
    }
    case kMap: {
      if (depth + 1 > kMaxDepth) return Fail(Error::kDepth);
      uint8_t kt = 0, vt = 0;
      uint32_t n = 0;
      if (!ReadMapHeader(&kt, &vt, &n)) return false;
      for (uint32_t i = 0; i < n; ++i) {
        if (!SkipValue(kt, true, depth + 1) || !SkipValue(vt, true, depth + 1)) return false;
      }
      return true;
    }
    case kStruct:
      return SkipStructBody(depth + 1);
    default:
      return Fail(Error::kType, type);
  }
}

bool CompactReader::SkipStructBody(int depth) {
  if (depth > kMaxDepth) return Fail(Error::kDepth);
  int16_t last = 0;
  for (;;) {
    int16_t id = 0;
    uint8_t type = 0;
    if (!ReadFieldHeader(last, &id, &type)) return false;
    if (type == kStop) return true;
    last = id;
    if (!SkipValue(type, false, depth)) return false;
  }
}

namespace {
inline size_t FixedElementBytes(uint8_t type) {
  switch (type) {
    case kBoolTrue: case kBoolFalse: case kByte: return 1;
    case kDouble: return 8;
    default: return 0;
  }
}
}  // namespace

bool CompactReader::SkipStruct() {
  // Frames: a struct body (kind 0) or the remaining elements of a list/set (kind 1) or map
  // (kind 2, alternating key and value types). The cursor is a local so the walk is a chain of
  // register operations instead of stores and reloads of pos_.
  struct Frame {
    uint32_t remaining;
    uint8_t kind, t1, t2;
  };
  Frame stack[kMaxDepth + 1];
  int sp = 0;
  if (depth_ + 1 > kMaxDepth) return Fail(Error::kDepth);
  stack[0] = {0, 0, 0, 0};
  const int max_sp = kMaxDepth - depth_;
  const uint8_t* p = pos_;
  const uint8_t* const end = end_;
  auto fail = [&](Error e, uint64_t v = 0) {
    pos_ = p;
    return Fail(e, v);
  };
  // Varint: length found with one 8-byte load when possible; value needed only for lengths.
  auto varint = [&](uint64_t* out) -> bool {
    if (end - p >= 10) [[likely]] {
      uint64_t w;
      std::memcpy(&w, p, 8);
      uint64_t stops = ~w & 0x8080808080808080ull;
      if (stops != 0) [[likely]] {
        int len = (__builtin_ctzll(stops) >> 3) + 1;
        uint64_t v = 0;
        // Gather the 7-bit groups of the len bytes.
        uint64_t bytes = len == 8 ? w : (w & ((uint64_t{1} << (8 * len)) - 1));
        for (int i = 0; i < len; ++i) v |= ((bytes >> (8 * i)) & 0x7f) << (7 * i);
        *out = v;
        p += len;
        return true;
      }
    }
    pos_ = p;
    if (!ReadVarint(out)) return false;
    p = pos_;
    return true;
  };
  auto skip_varint = [&]() -> bool {
    if (end - p >= 8) [[likely]] {
      uint64_t w;
      std::memcpy(&w, p, 8);
      uint64_t stops = ~w & 0x8080808080808080ull;
      if (stops != 0) [[likely]] {
        p += (__builtin_ctzll(stops) >> 3) + 1;
        return true;
      }
    }
    uint64_t v;
    pos_ = p;
    if (!ReadVarint(&v)) return false;
    p = pos_;
    return true;
  };
  for (;;) {
    Frame& f = stack[sp];
    uint8_t type;
    if (f.kind == 0) {
      if (p == end) [[unlikely]] return fail(Error::kTruncated);
      uint8_t b = *p++;
      if (b == 0) {
        if (sp == 0) break;
        --sp;
        continue;
      }
      type = b & 0x0f;
      if ((b >> 4) == 0) {
        if (!skip_varint()) return false;
      }
      if (type == kBoolTrue || type == kBoolFalse) continue;
    } else {
      if (f.remaining == 0) {
        --sp;
        continue;
      }
      type = (f.kind == 2 && (f.remaining & 1) != 0) ? f.t2 : f.t1;
      --f.remaining;
      if (type == kBoolTrue || type == kBoolFalse) {
        if (p == end) [[unlikely]] return fail(Error::kTruncated);
        ++p;
        continue;
      }
    }
    if (type == kI32 || type == kI64 || type == kI16) [[likely]] {
      if (!skip_varint()) return false;
      continue;
    }
    if (type == kBinary) {
      uint64_t len;
      if (!varint(&len)) return false;
      if (len > static_cast<uint64_t>(end - p)) [[unlikely]] return fail(Error::kLength, len);
      p += len;
      continue;
    }
    switch (type) {
      case kByte:
        if (p == end) [[unlikely]] return fail(Error::kTruncated);
        ++p;
        break;
      case kDouble:
        if (end - p < 8) [[unlikely]] return fail(Error::kTruncated);
        p += 8;
        break;
      case kList:
      case kSet: {
        uint8_t et = 0;
        uint32_t n = 0;
        pos_ = p;
        if (!ReadListHeader(&et, &n)) return false;
        p = pos_;
        if (n == 0) break;
        if (size_t w = FixedElementBytes(et); w != 0) {
          p += size_t{n} * w;  // bounded by the header check
          break;
        }
        if (sp + 1 > max_sp) [[unlikely]] return fail(Error::kDepth);
        stack[++sp] = {n, 1, et, 0};
        break;
      }
      case kMap: {
        uint8_t kt = 0, vt = 0;
        uint32_t n = 0;
        pos_ = p;
        if (!ReadMapHeader(&kt, &vt, &n)) return false;
        p = pos_;
        if (n == 0) break;
        if (sp + 1 > max_sp) [[unlikely]] return fail(Error::kDepth);
        stack[++sp] = {2 * n, 2, kt, vt};
        break;
      }
      case kStruct:
        if (sp + 1 > max_sp) [[unlikely]] return fail(Error::kDepth);
        stack[++sp] = {0, 0, 0, 0};
        break;
      default:
        return fail(Error::kType, type);
    }
  }
  pos_ = p;
  return true;
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
