// Thrift compact protocol decoding over a byte span, and the table-driven struct decoder that
// every Thrift struct of the Parquet model goes through (see parquet/metadata_fields.h).
#pragma once

#include <cstdint>
#include <array>
#include <cstring>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/status.h"
#include "quiver/thrift/views.h"

#define QUIVER_THRIFT_INLINE [[gnu::always_inline]] inline
#define QUIVER_THRIFT_LAMBDA_INLINE __attribute__((always_inline))

namespace quiver::thrift {

// Compact protocol type codes (the low nibble of a field header, list and map headers).
enum : uint8_t {
  kStop = 0, kBoolTrue = 1, kBoolFalse = 2, kByte = 3, kI16 = 4, kI32 = 5, kI64 = 6,
  kDouble = 7, kBinary = 8, kList = 9, kSet = 10, kMap = 11, kStruct = 12,
};


// One field of a struct description: the wire id, the name used in messages, the member,
// whether the spec says required, and a hook number a selective decoder may act on (0 = none).
template <typename S, typename M>
struct FieldDef {
  using struct_type = S;
  using member_type = M;
  int16_t id;
  const char* name;
  M S::*member;
  bool required;
  uint8_t hook;
};

inline constexpr bool kRequired = true;
inline constexpr bool kOptional = false;

template <typename S, typename M>
constexpr FieldDef<S, M> Field(int16_t id, const char* name, M S::*member, bool required, uint8_t hook = 0) {
  return FieldDef<S, M>{id, name, member, required, hook};
}

// Specialised per struct: `static constexpr const char* kName` and `static constexpr auto
// kFields = std::make_tuple(Field(...), ...)` in ascending id order.
template <typename T>
struct StructInfo;

template <typename T> struct IsList : std::false_type {};
template <typename T> struct IsList<List<T>> : std::true_type {};
template <typename T> struct IsOptional : std::false_type {};
template <typename T> struct IsOptional<std::optional<T>> : std::true_type {};
template <> struct IsOptional<OptionalBinary> : std::true_type {};
template <typename T> struct IsOptional<OptionalList<T>> : std::true_type {};
template <typename T> struct IsOptional<OptionalScalar<T>> : std::true_type {};
template <typename T> struct IsOptional<Boxed<T>> : std::true_type {};
template <typename T> struct Unoptional { using type = T; };
template <typename T> struct Unoptional<std::optional<T>> { using type = T; };
template <> struct Unoptional<OptionalBinary> { using type = std::string_view; };
template <typename T> struct Unoptional<OptionalList<T>> { using type = List<T>; };
template <typename T> struct Unoptional<OptionalScalar<T>> { using type = T; };
template <typename T> struct Unoptional<Boxed<T>> { using type = T; };
template <typename T, typename = void> struct IsStruct : std::false_type {};
template <typename T> struct IsStruct<T, std::void_t<decltype(StructInfo<T>::kFields)>> : std::true_type {};

// The wire type code a model type is carried as.
template <typename T, typename = void>
struct WireType;
template <> struct WireType<bool> : std::integral_constant<uint8_t, kBoolTrue> {};
template <> struct WireType<int8_t> : std::integral_constant<uint8_t, kByte> {};
template <> struct WireType<int16_t> : std::integral_constant<uint8_t, kI16> {};
template <> struct WireType<int32_t> : std::integral_constant<uint8_t, kI32> {};
template <> struct WireType<int64_t> : std::integral_constant<uint8_t, kI64> {};
template <> struct WireType<double> : std::integral_constant<uint8_t, kDouble> {};
template <> struct WireType<std::string_view> : std::integral_constant<uint8_t, kBinary> {};
template <typename T> struct WireType<T, std::enable_if_t<std::is_enum_v<T>>> : std::integral_constant<uint8_t, kI32> {};
template <typename T> struct WireType<List<T>> : std::integral_constant<uint8_t, kList> {};
template <typename T> struct WireType<T, std::enable_if_t<IsStruct<T>::value>> : std::integral_constant<uint8_t, kStruct> {};


// Fewest bytes a value of T can take on the wire: lets a list count be rejected against the
// bytes left before anything is allocated for it.
template <typename T>
constexpr size_t MinValueBytes();

template <typename T, size_t... I>
constexpr size_t MinStructBytesImpl(std::index_sequence<I...>) {
  size_t n = 1;  // STOP
  ((n += std::get<I>(StructInfo<T>::kFields).required
             ? 1 + MinValueBytes<typename Unoptional<typename std::remove_cvref_t<
                       decltype(std::get<I>(StructInfo<T>::kFields))>::member_type>::type>()
             : 0),
   ...);
  return n;
}
template <typename T>
constexpr size_t MinStructBytes() {
  constexpr size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;
  return MinStructBytesImpl<T>(std::make_index_sequence<n>{});
}
template <typename T>
constexpr size_t MinValueBytes() {
  if constexpr (std::is_same_v<T, bool>) return 0;  // carried in the field header
  else if constexpr (std::is_same_v<T, double>) return 8;
  else if constexpr (IsStruct<T>::value) return MinStructBytes<T>();
  else return 1;
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

  // List or set header. The count is checked against the bytes left (each element needs at
  // least min_element_bytes(type)), so a hostile count fails here instead of allocating.
  QUIVER_THRIFT_INLINE bool ReadListHeader(uint8_t* elem_type, uint32_t* size) {
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    uint8_t b = *pos_++;
    *elem_type = b & 0x0f;
    uint64_t n = b >> 4;
    if (n == 15) {
      if (!ReadVarint(&n)) return false;
      if (n > INT32_MAX) [[unlikely]] return Fail(Error::kCount, n);
    }
    if (n != 0) {
      size_t min = MinElementBytes(*elem_type);
      if (min == 0) [[unlikely]] return Fail(Error::kType, *elem_type);
      // n <= INT32_MAX and min <= 8: the product cannot overflow, and a multiply is ~1/20 of
      // the cost of a 64-bit division on the list-header path.
      if (n * min > remaining()) [[unlikely]] return Fail(Error::kCount, n);
    }
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
    constexpr size_t min = MinElementBytes(expected);
    static_assert(min > 0);
    const uint32_t n = b >> 4;
    if (n * min > remaining()) [[unlikely]] return Fail(Error::kCount, n);
    *size = n;
    return true;
  }

  bool ReadMapHeader(uint8_t* key_type, uint8_t* value_type, uint32_t* size) {
    uint64_t n;
    if (!ReadVarint(&n)) return false;
    *key_type = *value_type = 0;
    if (n == 0) {
      *size = 0;
      return true;
    }
    if (n > INT32_MAX) [[unlikely]] return Fail(Error::kCount, n);
    if (pos_ == end_) [[unlikely]] return Fail(Error::kTruncated);
    uint8_t b = *pos_++;
    *key_type = b >> 4;
    *value_type = b & 0x0f;
    size_t kmin = MinElementBytes(*key_type), vmin = MinElementBytes(*value_type);
    if (kmin == 0) [[unlikely]] return Fail(Error::kType, *key_type);
    if (vmin == 0) [[unlikely]] return Fail(Error::kType, *value_type);
    if (n * (kmin + vmin) > remaining()) [[unlikely]] return Fail(Error::kCount, n);
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
  enum class Error : uint8_t {
    kNone, kTruncated, kVarint, kIntRange, kLength, kCount, kType, kDepth, kMissing, kOutOfMemory, kInvalid
  };
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
  // Fewest bytes a list element of wire type `type` takes; 0 for an invalid type code.
  static constexpr size_t MinElementBytes(uint8_t type) {
    switch (type) {
      case kBoolTrue: case kBoolFalse: case kByte: case kI16: case kI32: case kI64:
      case kBinary: case kList: case kSet: case kMap: case kStruct: return 1;
      case kDouble: return 8;
      default: return 0;
    }
  }

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

// ---------------------------------------------------------------------------------------------
// Table-driven struct decoding. A struct T is described once by StructInfo<T> (name + a tuple of
// FieldDef built with thrift::Field); DecodeStruct walks the wire fields against that tuple in
// order, each field header matched as one key compared with constants (DecodeInOrder), with a
// dispatch switch for anything out of order: no virtual call and no allocation per field.
// Lists land in arena arrays sized from their header.

// The decoder's view of what to build. The default builds everything; a selective context
// (parquet/footer.cc, kSelective = true) can skip hooked fields and list elements without
// building them: SkipField(hook) for a whole field, SelectedCount(hook, n) for how many of a
// hooked list's n elements are kept, NextSelected(hook, i, n) for the first kept index >= i (n
// when none).
struct DecodeAll {
  Arena* arena;
  static constexpr bool kSelective = false;
  bool SkipField(uint8_t) const { return false; }
  uint32_t SelectedCount(uint8_t, uint32_t n) const { return n; }
  uint32_t NextSelected(uint8_t, uint32_t i, uint32_t) const { return i; }
};

template <typename T, typename Ctx>
bool DecodeStruct(CompactReader& r, Ctx& ctx, T& out);

namespace detail {

template <typename T, typename Ctx>
bool DecodeValue(CompactReader& r, Ctx& ctx, T& out, uint8_t wire_type);

template <typename T>
bool SkipStructTyped(CompactReader& r);

template <typename T, typename Ctx>
bool DecodeList(CompactReader& r, Ctx& ctx, List<T>& out, uint8_t hook) {
  constexpr uint8_t want = WireType<T>::value;
  uint8_t et = 0;
  uint32_t n = 0;
  if (!r.ReadListHeaderAs<want>(&et, &n)) return false;
  if (n == 0) {
    out = List<T>();
    return true;
  }
  // Like Thrift's generated readers, integer elements are read as the model's width whatever
  // varint width the header claims (seen in files from buggy writers); the range is checked.
  constexpr bool want_varint = want == kI16 || want == kI32 || want == kI64;
  const bool varint_ok = want_varint && (et == kI16 || et == kI32 || et == kI64);
  if (!(et == want || varint_ok || (want == kBoolTrue && et == kBoolFalse))) [[unlikely]] {
    return r.Fail(CompactReader::Error::kType, et);
  }
  if constexpr (!std::is_same_v<T, bool> && IsStruct<T>::value) {
    constexpr size_t min = MinStructBytes<T>();
    if (min > 1 && n > r.remaining() / min) [[unlikely]] return r.Fail(CompactReader::Error::kCount, n);
  }
  uint32_t keep = Ctx::kSelective ? ctx.SelectedCount(hook, n) : n;
  T* arr = nullptr;
  if (keep > 0) {
    arr = static_cast<T*>(ctx.arena->Allocate(static_cast<int64_t>(keep) * static_cast<int64_t>(sizeof(T)), alignof(T)));
    if (arr == nullptr) [[unlikely]] return r.Fail(CompactReader::Error::kOutOfMemory, keep * sizeof(T));
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if constexpr (Ctx::kSelective) {
      // A run of elements that are not chosen is skipped in one pass of the skipper.
      if (uint32_t next = ctx.NextSelected(hook, i, n); next != i) {
        if constexpr (IsStruct<T>::value) {
          // Unchosen structs of a known type are stepped over along their field table.
          for (uint32_t j = i; j < next; ++j) {
            if (!SkipStructTyped<T>(r)) [[unlikely]] return false;
          }
        } else {
          if (!r.SkipElements(et, next - i)) [[unlikely]] return false;
        }
        i = next;
        if (i == n) break;
      }
    }
    // Default-initialisation: every model member has an initialiser, and this avoids the
    // value-initialisation memset of the whole struct before its members are set again.
    if constexpr (sizeof(T) >= 128) {
      // Wide elements (column chunks, 224 bytes): the lines two elements ahead are requested
      // for writing. Once the model outgrows the caches every line of the array misses, and
      // the hardware prefetcher does not keep up with stores interleaved with the arena's
      // other stream (the chunks' statistics and small lists): warm decode of 100 x 1000 went
      // from ~92 to ~64 ns per chunk (docs/parquet-footer.md).
      // Integer arithmetic: near the end of the array the address is past it (a prefetch
      // never faults, but a pointer past one-past-the-end would be undefined).
      const uintptr_t ahead = reinterpret_cast<uintptr_t>(arr + k) + 2 * sizeof(T);
      for (size_t line = 0; line < sizeof(T); line += 64) {
        __builtin_prefetch(reinterpret_cast<const void*>(ahead + line), 1);
      }
    }
    T* slot = new (arr + k) T;
    if (!DecodeValue<T>(r, ctx, *slot, et)) [[unlikely]] {
      r.AddFrame("", i);
      return false;
    }
    ++k;
  }
  out = List<T>(arr, k);
  return true;
}

template <typename T, typename Ctx>
QUIVER_THRIFT_INLINE bool DecodeValue(CompactReader& __restrict r, Ctx& ctx, T& __restrict out, uint8_t wire_type) {
  if constexpr (std::is_same_v<T, bool>) {
    return r.ReadBoolElement(&out);
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return r.ReadByte(&out);
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return r.ReadI16(&out);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return r.ReadI32(&out);
  } else if constexpr (std::is_enum_v<T>) {
    int32_t v = 0;
    if (!r.ReadI32(&v)) return false;
    out = static_cast<T>(v);
    return true;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return r.ReadI64(&out);
  } else if constexpr (std::is_same_v<T, double>) {
    return r.ReadDouble(&out);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return r.ReadBinary(&out);
  } else if constexpr (IsList<T>::value) {
    return DecodeList(r, ctx, out, 0);
  } else {
    return DecodeStruct(r, ctx, out);
  }
}

// Decodes field I of T, whose header (with wire type `type`) was just read: 1 when handled,
// -1 on error.
template <size_t I, typename T, typename Ctx>
QUIVER_THRIFT_INLINE int DecodeFieldAt(CompactReader& __restrict r, Ctx& ctx, T& __restrict obj, uint8_t type,
                                       uint64_t& __restrict seen) {
  constexpr auto& f = std::get<I>(StructInfo<T>::kFields);
  using M = typename std::remove_cvref_t<decltype(f)>::member_type;
  using V = typename Unoptional<M>::type;
  static_assert(f.required != IsOptional<M>::value, "required fields are plain members, optional ones std::optional");
  constexpr uint8_t want = WireType<V>::value;
  if constexpr (want == kBoolTrue) {
    if (type != kBoolTrue && type != kBoolFalse) [[unlikely]] return r.Skip(type) ? 1 : -1;
    obj.*(f.member) = (type == kBoolTrue);
    if constexpr (f.required) seen |= uint64_t{1} << I;
    return 1;
  } else {
    // A field whose wire type differs from the model is treated like an unknown field.
    if (type != want) [[unlikely]] return r.Skip(type) ? 1 : -1;
    if constexpr (Ctx::kSelective && f.hook != 0) {
      if (ctx.SkipField(f.hook)) return r.Skip(type) ? 1 : -1;
    }
    auto decode = [&](V& slot) QUIVER_THRIFT_LAMBDA_INLINE {
      if constexpr (IsList<V>::value) {
        return DecodeList(r, ctx, slot, f.hook);
      } else {
        return DecodeValue<V>(r, ctx, slot, type);
      }
    };
    M& member = obj.*(f.member);
    bool ok;
    if constexpr (std::is_same_v<M, V>) {
      ok = decode(member);
    } else if constexpr (std::is_same_v<M, std::optional<V>>) {
      ok = decode(member.emplace());
    } else if constexpr (std::is_same_v<M, Boxed<V>>) {
      V* p = member.Emplace(ctx.arena);
      if (p == nullptr) [[unlikely]] return r.Fail(CompactReader::Error::kOutOfMemory, sizeof(V)) ? 1 : -1;
      ok = decode(*p);
    } else {
      V v{};
      ok = decode(v);
      member = M(v);
    }
    if (!ok) [[unlikely]] {
      r.AddFrame(f.name);
      return -1;
    }
    // Only required fields are tracked: the mask exists to report a missing one.
    if constexpr (f.required) seen |= uint64_t{1} << I;
    return 1;
  }
}

// Field id -> 1 + index into kFields (0: not a field of T), for the dispatch switch below.
template <typename T>
struct FieldSlots {
  static constexpr size_t kCount = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;
  template <size_t... I>
  static constexpr int MaxId(std::index_sequence<I...>) {
    int m = 0;
    ((m = std::get<I>(StructInfo<T>::kFields).id > m ? std::get<I>(StructInfo<T>::kFields).id : m), ...);
    return m;
  }
  static constexpr int kMaxId = MaxId(std::make_index_sequence<kCount>{});
  template <size_t... I>
  static constexpr std::array<uint8_t, kMaxId + 1> Make(std::index_sequence<I...>) {
    std::array<uint8_t, kMaxId + 1> a{};
    ((std::get<I>(StructInfo<T>::kFields).id >= 0 ? (a[std::get<I>(StructInfo<T>::kFields).id] = I + 1) : 0), ...);
    return a;
  }
  static constexpr std::array<uint8_t, kMaxId + 1> kSlot = Make(std::make_index_sequence<kCount>{});
};

// Finds the field an id names with one table load and one switch (a jump table for structs
// with many fields) instead of a chain of compares against every id before it: 1 when handled,
// 0 when T has no such field, -1 on error.
template <typename T, typename Ctx>
QUIVER_THRIFT_INLINE int DispatchField(CompactReader& __restrict r, Ctx& ctx, T& __restrict obj, int16_t id, uint8_t type,
                                       uint64_t& __restrict seen) {
  using Slots = FieldSlots<T>;
  constexpr size_t n = Slots::kCount;
  static_assert(n <= 64, "the dispatch switch has 64 cases");
  if (static_cast<uint16_t>(id) > static_cast<uint16_t>(Slots::kMaxId)) return 0;
  switch (Slots::kSlot[static_cast<size_t>(id)]) {
#define QUIVER_THRIFT_CASE(j) \
  case (j) + 1:               \
    if constexpr ((j) < n) return DecodeFieldAt<(j) < n ? (j) : 0>(r, ctx, obj, type, seen); \
    break;
#define QUIVER_THRIFT_CASE8(j)                                                                  \
  QUIVER_THRIFT_CASE(j) QUIVER_THRIFT_CASE(j + 1) QUIVER_THRIFT_CASE(j + 2) QUIVER_THRIFT_CASE(j + 3) \
  QUIVER_THRIFT_CASE(j + 4) QUIVER_THRIFT_CASE(j + 5) QUIVER_THRIFT_CASE(j + 6) QUIVER_THRIFT_CASE(j + 7)
    QUIVER_THRIFT_CASE8(0) QUIVER_THRIFT_CASE8(8) QUIVER_THRIFT_CASE8(16) QUIVER_THRIFT_CASE8(24)
    QUIVER_THRIFT_CASE8(32) QUIVER_THRIFT_CASE8(40) QUIVER_THRIFT_CASE8(48) QUIVER_THRIFT_CASE8(56)
#undef QUIVER_THRIFT_CASE8
#undef QUIVER_THRIFT_CASE
    default:
      break;
  }
  return 0;
}

template <typename T, size_t... I>
constexpr uint64_t RequiredMask(std::index_sequence<I...>) {
  return ((std::get<I>(StructInfo<T>::kFields).required ? (uint64_t{1} << I) : 0) | ... | 0);
}

template <typename T, size_t... I>
[[gnu::cold, gnu::noinline]] bool ReportMissing(CompactReader& r, uint64_t missing, std::index_sequence<I...>) {
  bool done = false;
  ((!done && (missing & (uint64_t{1} << I))
        ? (done = true, r.FailMissing(StructInfo<T>::kName, std::get<I>(StructInfo<T>::kFields).name,
                                      std::get<I>(StructInfo<T>::kFields).id))
        : false),
   ...);
  return false;
}

// The fields after a header the in-order pass below could not place (an unknown id, one out of
// order, a repeated one): each id dispatched through the switch. Starts with the header
// (id, type) already read.
struct RemainingResult {
  bool ok;
  uint64_t seen;
};
template <typename T, typename Ctx>
[[gnu::noinline]] RemainingResult DecodeRemainingFields(CompactReader& __restrict r, Ctx& ctx, T& __restrict obj,
                                                        int16_t id, uint8_t type, uint64_t seen) {
  while (type != 0) {
    const int res = DispatchField(r, ctx, obj, id, type, seen);
    if (res == 0) {
      if (!r.Skip(type)) [[unlikely]] return {false, seen};
    } else if (res < 0) [[unlikely]] {
      return {false, seen};
    }
    if (!r.ReadFieldHeader(id, &id, &type)) [[unlikely]] return {false, seen};
  }
  return {true, seen};
}

// One step of the in-order pass for field I, with the next header pending as `key` (see
// CompactReader::ReadFieldKey): 0 to go on (field I decoded and the next key read, or field I
// absent), 1 when the pending field is not one the pass can place here (an id before field I:
// unknown or out of order, or field I's id with another wire type; the generic loop takes
// over), -1 on error. Present and absent are each one compare of the key against a constant,
// and after field I the next key is the header byte plus a constant (the last id is I's).
template <size_t I, typename T, typename Ctx>
QUIVER_THRIFT_INLINE int DecodeInOrder(CompactReader& __restrict r, Ctx& ctx, T& __restrict obj, int32_t& key,
                                       uint64_t& __restrict seen) {
  constexpr auto& f = std::get<I>(StructInfo<T>::kFields);
  using V = typename Unoptional<typename std::remove_cvref_t<decltype(f)>::member_type>::type;
  constexpr uint8_t want = WireType<V>::value;
  constexpr int32_t base = int32_t{f.id} * 16;
  bool present;
  if constexpr (want == kBoolTrue) {
    present = static_cast<uint32_t>(key - (base + kBoolTrue)) < 2u;  // true or false in the header
  } else {
    present = key == base + want;
  }
  if (present) {
    if (DecodeFieldAt<I>(r, ctx, obj, static_cast<uint8_t>(key & 15), seen) < 0) [[unlikely]] return -1;
    return r.ReadFieldKey(f.id, &key) ? 0 : -1;
  }
  if (key >= base + 16) return 0;  // a later field, or STOP (kStopKey): field I is absent
  return 1;
}

// Writers emit fields in ascending id order, so the fields are first matched in table order:
// each wire field is compared with the next table entries until its id is reached (one compare
// per field, present or absent, all predictable), and no dispatch on the id is needed. Anything
// else hands over to DecodeRemainingFields.
template <typename T, typename Ctx, size_t... I>
inline bool DecodeStructImpl(CompactReader& __restrict r, Ctx& ctx, T& __restrict obj, std::index_sequence<I...> seq) {
  if (!r.Enter()) return false;
  uint64_t seen = 0;
  int32_t key = 0;
  if (!r.ReadFieldKey(0, &key)) [[unlikely]] return false;
  int res = 0;
  (void)(((res = DecodeInOrder<I>(r, ctx, obj, key, seen)) == 0) && ...);
  if (res < 0) [[unlikely]] return false;
  if (key != CompactReader::kStopKey) [[unlikely]] {
    // key >> 4 is the id (an arithmetic shift, so negative long-form ids come back too).
    const RemainingResult rest = DecodeRemainingFields(r, ctx, obj, static_cast<int16_t>(key >> 4),
                                                       static_cast<uint8_t>(key & 15), seen);
    if (!rest.ok) return false;
    seen = rest.seen;
  }
  r.Leave();
  constexpr uint64_t required = RequiredMask<T>(std::index_sequence<I...>{});
  if ((seen & required) != required) [[unlikely]] return ReportMissing<T>(r, required & ~seen, seq);
  return true;
}

// The typed skipper: steps over a struct of type T along its field table, in order, as the
// decoder reads it (the same one-compare keys), reading every value with the decoder's own
// bounds and range checks and storing nothing. Each field's check is its own branch, so the
// pattern of a column chunk is predicted field by field instead of through the generic
// skipper's one dispatch loop. Anything the in-order pass cannot place goes to the generic
// skipper. Like the generic skipper it does not report missing required fields.
template <typename V>
QUIVER_THRIFT_INLINE bool SkipValueTyped(CompactReader& __restrict r, uint8_t type) {
  if constexpr (std::is_same_v<V, bool>) {
    bool b;
    return r.ReadBoolElement(&b);
  } else if constexpr (std::is_same_v<V, int8_t>) {
    int8_t v;
    return r.ReadByte(&v);
  } else if constexpr (std::is_same_v<V, int16_t>) {
    int16_t v;
    return r.ReadI16(&v);
  } else if constexpr (std::is_same_v<V, int32_t> || std::is_enum_v<V>) {
    int32_t v;
    return r.ReadI32(&v);
  } else if constexpr (std::is_same_v<V, int64_t>) {
    int64_t v;
    return r.ReadI64(&v);
  } else if constexpr (std::is_same_v<V, double>) {
    double v;
    return r.ReadDouble(&v);
  } else if constexpr (std::is_same_v<V, std::string_view>) {
    std::string_view v;
    return r.ReadBinary(&v);
  } else if constexpr (IsList<V>::value) {
    using E = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<V>().data())>>;
    constexpr uint8_t want = WireType<E>::value;
    uint8_t et = 0;
    uint32_t n = 0;
    if (!r.ReadListHeaderAs<want>(&et, &n)) return false;
    if (n == 0) return true;
    if constexpr (IsStruct<E>::value) {
      if (et == kStruct) [[likely]] {
        constexpr size_t min = MinStructBytes<E>();
        if (min > 1 && n > r.remaining() / min) [[unlikely]] return r.Fail(CompactReader::Error::kCount, n);
        for (uint32_t i = 0; i < n; ++i) {
          if (!SkipStructTyped<E>(r)) [[unlikely]] return false;
        }
        return true;
      }
    }
    // Other element types: the decoder accepts the varint widths and both bool codes, and
    // rejects the rest; the generic skipper checks the same element by element.
    constexpr bool want_varint = want == kI16 || want == kI32 || want == kI64;
    const bool varint_ok = want_varint && (et == kI16 || et == kI32 || et == kI64);
    if (!(et == want || varint_ok || (want == kBoolTrue && et == kBoolFalse))) [[unlikely]] {
      return r.Fail(CompactReader::Error::kType, et);
    }
    if constexpr (IsStruct<E>::value) {
      constexpr size_t min = MinStructBytes<E>();
      if (min > 1 && n > r.remaining() / min) [[unlikely]] return r.Fail(CompactReader::Error::kCount, n);
    }
    return r.SkipElements(et, n);
  } else {
    (void)type;
    return SkipStructTyped<V>(r);
  }
}

template <size_t I, typename T>
QUIVER_THRIFT_INLINE int SkipInOrder(CompactReader& __restrict r, int32_t& key) {
  constexpr auto& f = std::get<I>(StructInfo<T>::kFields);
  using V = typename Unoptional<typename std::remove_cvref_t<decltype(f)>::member_type>::type;
  constexpr uint8_t want = WireType<V>::value;
  constexpr int32_t base = int32_t{f.id} * 16;
  if constexpr (want == kBoolTrue) {
    if (static_cast<uint32_t>(key - (base + kBoolTrue)) < 2u) return r.ReadFieldKey(f.id, &key) ? 0 : -1;
  } else {
    if (key == base + want) {
      if (!SkipValueTyped<V>(r, want)) [[unlikely]] return -1;
      return r.ReadFieldKey(f.id, &key) ? 0 : -1;
    }
  }
  if (key >= base + 16) return 0;
  return 1;
}

template <typename T, size_t... I>
inline bool SkipStructTypedImpl(CompactReader& __restrict r, std::index_sequence<I...>) {
  if (!r.Enter()) return false;
  int32_t key = 0;
  if (!r.ReadFieldKey(0, &key)) [[unlikely]] return false;
  int res = 0;
  (void)(((res = SkipInOrder<I, T>(r, key)) == 0) && ...);
  if (res < 0) [[unlikely]] return false;
  if (key != CompactReader::kStopKey) [[unlikely]] {
    // The rest of the struct, whatever it holds, through the generic skipper.
    int16_t id = static_cast<int16_t>(key >> 4);
    uint8_t type = static_cast<uint8_t>(key & 15);
    while (type != 0) {
      if (!r.Skip(type)) [[unlikely]] return false;
      if (!r.ReadFieldHeader(id, &id, &type)) [[unlikely]] return false;
    }
  }
  r.Leave();
  return true;
}

template <typename T>
bool SkipStructTyped(CompactReader& r) {
  constexpr size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;
  return SkipStructTypedImpl<T>(r, std::make_index_sequence<n>{});
}

}  // namespace detail

template <typename T, typename Ctx>
bool DecodeStruct(CompactReader& r, Ctx& ctx, T& out) {
  constexpr size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;
  static_assert(n <= 64, "the seen-field mask is 64 bits");
  return detail::DecodeStructImpl(r, ctx, out, std::make_index_sequence<n>{});
}

}  // namespace quiver::thrift
