// The layout side of the Thrift engine: compact type codes, and how a model struct is
// described once for every walker (StructInfo<T>: its name and a table of FieldDef, one per
// member: wire id, name, member pointer, required or optional, selective-decoding hook), with
// what follows from a description at compile time (wire types, fewest bytes on the wire) and
// the check that a table names every member of its struct.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "quiver/thrift/views.h"

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

// A description names every member of its struct once. The member count is taken by a
// structured binding with as many names as the table has entries (a count that differs does
// not compile: "N names provided for structured binding"), and the entries' members are told
// apart by address (MemberAddresses, checked for every struct by tests/parquet/field_tables_test.cc). So a member
// added to a model struct without its entry, or an entry left after its member went, cannot
// build: a member without an entry would silently never be decoded or encoded.
template <typename T, size_t N>
struct MemberBinding;  // the addresses of T's N members, in declaration order
#define QUIVER_THRIFT_UNPAREN(...) __VA_ARGS__
#define QUIVER_THRIFT_MEMBER_BINDING(N, NAMES, ADDRS)                         \
  template <typename T>                                                       \
  struct MemberBinding<T, N> {                                                \
    static std::array<const void*, N> Addresses(T& t) {                       \
      auto& [QUIVER_THRIFT_UNPAREN NAMES] = t;                               \
      return {QUIVER_THRIFT_UNPAREN ADDRS};                                   \
    }                                                                         \
  };
QUIVER_THRIFT_MEMBER_BINDING(1, (m0), (&m0))
QUIVER_THRIFT_MEMBER_BINDING(2, (m0, m1), (&m0, &m1))
QUIVER_THRIFT_MEMBER_BINDING(3, (m0, m1, m2), (&m0, &m1, &m2))
QUIVER_THRIFT_MEMBER_BINDING(4, (m0, m1, m2, m3), (&m0, &m1, &m2, &m3))
QUIVER_THRIFT_MEMBER_BINDING(5, (m0, m1, m2, m3, m4), (&m0, &m1, &m2, &m3, &m4))
QUIVER_THRIFT_MEMBER_BINDING(6, (m0, m1, m2, m3, m4, m5), (&m0, &m1, &m2, &m3, &m4, &m5))
QUIVER_THRIFT_MEMBER_BINDING(7, (m0, m1, m2, m3, m4, m5, m6), (&m0, &m1, &m2, &m3, &m4, &m5, &m6))
QUIVER_THRIFT_MEMBER_BINDING(8, (m0, m1, m2, m3, m4, m5, m6, m7), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7))
QUIVER_THRIFT_MEMBER_BINDING(9, (m0, m1, m2, m3, m4, m5, m6, m7, m8), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8))
QUIVER_THRIFT_MEMBER_BINDING(10, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9))
QUIVER_THRIFT_MEMBER_BINDING(11, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10))
QUIVER_THRIFT_MEMBER_BINDING(12, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11))
QUIVER_THRIFT_MEMBER_BINDING(13, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12))
QUIVER_THRIFT_MEMBER_BINDING(14, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13))
QUIVER_THRIFT_MEMBER_BINDING(15, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14))
QUIVER_THRIFT_MEMBER_BINDING(16, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15))
QUIVER_THRIFT_MEMBER_BINDING(17, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16))
QUIVER_THRIFT_MEMBER_BINDING(18, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17))
QUIVER_THRIFT_MEMBER_BINDING(19, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18))
QUIVER_THRIFT_MEMBER_BINDING(20, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19))
QUIVER_THRIFT_MEMBER_BINDING(21, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20))
QUIVER_THRIFT_MEMBER_BINDING(22, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21))
QUIVER_THRIFT_MEMBER_BINDING(23, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22))
QUIVER_THRIFT_MEMBER_BINDING(24, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23))
QUIVER_THRIFT_MEMBER_BINDING(25, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24))
QUIVER_THRIFT_MEMBER_BINDING(26, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25))
QUIVER_THRIFT_MEMBER_BINDING(27, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26))
QUIVER_THRIFT_MEMBER_BINDING(28, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26, &m27))
QUIVER_THRIFT_MEMBER_BINDING(29, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26, &m27, &m28))
QUIVER_THRIFT_MEMBER_BINDING(30, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26, &m27, &m28, &m29))
QUIVER_THRIFT_MEMBER_BINDING(31, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26, &m27, &m28, &m29, &m30))
QUIVER_THRIFT_MEMBER_BINDING(32, (m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27, m28, m29, m30, m31), (&m0, &m1, &m2, &m3, &m4, &m5, &m6, &m7, &m8, &m9, &m10, &m11, &m12, &m13, &m14, &m15, &m16, &m17, &m18, &m19, &m20, &m21, &m22, &m23, &m24, &m25, &m26, &m27, &m28, &m29, &m30, &m31))
#undef QUIVER_THRIFT_MEMBER_BINDING
#undef QUIVER_THRIFT_UNPAREN

template <typename T>
inline constexpr size_t kFieldCount = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;

// True, or a compile error naming T when its table and its members differ in number.
template <typename T>
constexpr bool TableCoversMembers() {
  if constexpr (kFieldCount<T> == 0) {
    return std::is_empty_v<T>;
  } else {
    (void)&MemberBinding<T, kFieldCount<T>>::Addresses;
    return true;
  }
}

// The addresses of t's members as its table names them, in table order (for the test that
// each entry names a different member).
template <typename T, size_t... I>
std::array<const void*, sizeof...(I)> FieldAddressesImpl(T& t, std::index_sequence<I...>) {
  return {static_cast<const void*>(&(t.*std::get<I>(StructInfo<T>::kFields).member))...};
}
template <typename T>
std::array<const void*, kFieldCount<T>> FieldAddresses(T& t) {
  return FieldAddressesImpl(t, std::make_index_sequence<kFieldCount<T>>{});
}
template <typename T>
std::array<const void*, kFieldCount<T>> MemberAddresses(T& t) {
  if constexpr (kFieldCount<T> == 0) {
    return {};
  } else {
    return MemberBinding<T, kFieldCount<T>>::Addresses(t);
  }
}

}  // namespace quiver::thrift
