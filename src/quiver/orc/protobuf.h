// Protocol-buffers wire primitives for ORC's metadata: varints, zigzag, tags, length-delimited
// fields; a bounds-checked reader over a byte span and appends to a byte string. ORC's messages
// are small and fixed, so the decoder and encoder are written over these, not generated.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace quiver::orc::protobuf {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

inline constexpr uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline constexpr int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}
inline constexpr uint32_t MakeTag(uint32_t field, WireType type) { return field << 3 | type; }

// Reads fields from a span. The first problem (a varint longer than 10 bytes, a length past the
// end, an unknown wire type) makes ok() false and every later read return zero values, so a
// message decoder checks once at its end; `error()` says what went wrong.
class Reader {
 public:
  Reader() = default;
  Reader(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  explicit Reader(std::string_view s) : Reader(reinterpret_cast<const uint8_t*>(s.data()), s.size()) {}

  bool ok() const { return error_ == nullptr; }
  const char* error() const { return error_; }
  bool done() const { return p_ >= end_ || !ok(); }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  uint64_t Varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) return Fail("a varint runs past the end of the message");
      uint8_t b = *p_++;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
    return Fail("a varint is longer than 10 bytes");
  }
  int64_t SignedVarint() { return ZigZagDecode(Varint()); }
  uint64_t Fixed64() {
    if (remaining() < 8) return Fail("a fixed64 runs past the end of the message");
    uint64_t v;
    std::memcpy(&v, p_, 8);
    p_ += 8;
    return v;
  }
  uint32_t Fixed32() {
    if (remaining() < 4) return static_cast<uint32_t>(Fail("a fixed32 runs past the end of the message"));
    uint32_t v;
    std::memcpy(&v, p_, 4);
    p_ += 4;
    return v;
  }
  double Double() {
    uint64_t bits = Fixed64();
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  std::string_view Bytes() {
    uint64_t n = Varint();
    if (n > remaining()) {
      Fail("a length-delimited field runs past the end of the message");
      return {};
    }
    std::string_view s(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return s;
  }
  Reader Sub() { return Reader(Bytes()); }

  // Next field's tag; false at the end of the message (or after an error). Field 0 is invalid.
  bool NextField(uint32_t* field, WireType* type) {
    if (done()) return false;
    uint64_t tag = Varint();
    if (!ok()) return false;
    *field = static_cast<uint32_t>(tag >> 3);
    *type = static_cast<WireType>(tag & 7);
    if (*field == 0 || tag >> 32 != 0) {
      Fail("a field number is 0 or too large");
      return false;
    }
    return true;
  }
  // Skips a field of a type the decoder does not expect (unknown fields are kept compatible).
  void Skip(WireType type) {
    switch (type) {
      case kVarint: Varint(); break;
      case kFixed64: Fixed64(); break;
      case kLengthDelimited: Bytes(); break;
      case kFixed32: Fixed32(); break;
      default: Fail("a field has an unsupported wire type (groups)"); break;
    }
  }
  uint64_t Fail(const char* why) {
    if (error_ == nullptr) error_ = why;
    p_ = end_;
    return 0;
  }

 private:
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  const char* error_ = nullptr;
};

// Encoding: appends to a byte string (metadata messages are small).
inline void AppendVarint(std::string* out, uint64_t v) {
  char buf[10];
  int n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  out->append(buf, static_cast<size_t>(n));
}
inline void AppendTag(std::string* out, uint32_t field, WireType type) { AppendVarint(out, MakeTag(field, type)); }
inline void AppendUInt(std::string* out, uint32_t field, uint64_t v) {
  AppendTag(out, field, kVarint);
  AppendVarint(out, v);
}
inline void AppendSInt(std::string* out, uint32_t field, int64_t v) { AppendUInt(out, field, ZigZagEncode(v)); }
inline void AppendBytes(std::string* out, uint32_t field, std::string_view bytes) {
  AppendTag(out, field, kLengthDelimited);
  AppendVarint(out, bytes.size());
  out->append(bytes);
}
inline void AppendDouble(std::string* out, uint32_t field, double d) {
  AppendTag(out, field, kFixed64);
  char buf[8];
  std::memcpy(buf, &d, 8);
  out->append(buf, 8);
}

}  // namespace quiver::orc::protobuf
