// The struct side of the Thrift engine: the table-driven decoder that every Thrift struct of
// the Parquet model goes through (DecodeStruct, from StructInfo<T> in field_table_internal.h,
// see parquet/metadata_fields_internal.h) and the typed skipper beside it, both reading
// through CompactReader (compact_primitives_internal.h).
#pragma once

#include <array>
#include <cstdint>
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
#include "quiver/thrift/compact_primitives_internal.h"
#include "quiver/thrift/field_table_internal.h"
#include "quiver/thrift/views.h"

#define QUIVER_THRIFT_LAMBDA_INLINE __attribute__((always_inline))

namespace quiver::thrift {

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

// What a list of model elements E checks past its header, for the decoder and the typed
// skipper alike: the element type must be E's wire type (like Thrift's generated readers,
// integer elements are read at the model's width whatever varint width the header claims, seen
// in files from buggy writers, their range checked; either bool code is a bool), and struct
// elements, which take more than a byte each, must fit the bytes left.
template <typename E>
QUIVER_THRIFT_INLINE bool CheckListElements(CompactReader& r, uint8_t et, uint32_t n) {
  constexpr uint8_t want = WireType<E>::value;
  constexpr bool want_varint = want == kI16 || want == kI32 || want == kI64;
  const bool varint_ok = want_varint && (et == kI16 || et == kI32 || et == kI64);
  if (!(et == want || varint_ok || (want == kBoolTrue && et == kBoolFalse))) [[unlikely]] {
    return r.Fail(CompactReader::Error::kType, et);
  }
  if constexpr (IsStruct<E>::value) {
    constexpr size_t min = MinStructBytes<E>();
    if (min > 1 && n > r.remaining() / min) [[unlikely]] return r.Fail(CompactReader::Error::kCount, n);
  }
  return true;
}

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
  if (!CheckListElements<T>(r, et, n)) [[unlikely]] return false;
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
    // The element checks the decoder makes; other element types then go element by element
    // through the generic skipper.
    if (!CheckListElements<E>(r, et, n)) [[unlikely]] return false;
    if constexpr (IsStruct<E>::value) {
      for (uint32_t i = 0; i < n; ++i) {
        if (!SkipStructTyped<E>(r)) [[unlikely]] return false;
      }
      return true;
    } else {
      return r.SkipElements(et, n);
    }
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
  static_assert(TableCoversMembers<T>(), "StructInfo<T>::kFields names every member of T");
  return detail::DecodeStructImpl(r, ctx, out, std::make_index_sequence<n>{});
}

}  // namespace quiver::thrift
