// Thrift compact protocol encoding into a growing buffer, and the table-driven struct encoder
// driven by the same StructInfo<T> descriptions the decoder uses (field_table_internal.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <tuple>
#include <utility>

#include "quiver/core/buffer.h"
#include "quiver/thrift/compact_reader_internal.h"

namespace quiver::thrift {

// Writes into a BufferBuilder through a raw cursor; capacity is ensured once per field (a
// field's fixed part is at most 3 + 10 bytes), so single bytes are stores, not calls.
class CompactWriter {
 public:
  explicit CompactWriter(BufferBuilder* out) : out_(out) { Sync(); }
  ~CompactWriter() { Flush(); }
  CompactWriter(const CompactWriter&) = delete;
  CompactWriter& operator=(const CompactWriter&) = delete;

  // Makes room for n more bytes; false (and status() set) when memory ran out.
  bool Ensure(size_t n) {
    if (static_cast<size_t>(limit_ - p_) >= n) [[likely]] return true;
    return Grow(n);
  }
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  // Makes the builder's size match what was written.
  void Flush() {
    if (out_ != nullptr && out_->mutable_data() != nullptr) out_->UnsafeSetSize(p_ - out_->mutable_data());
  }
  size_t size() const { return out_->mutable_data() == nullptr ? 0 : static_cast<size_t>(p_ - out_->mutable_data()); }

  // The Unsafe* writers need the room ensured by the caller.
  void UnsafeByte(uint8_t b) { *p_++ = b; }
  void UnsafeVarint(uint64_t v) {
    while (v >= 0x80) {
      *p_++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p_++ = static_cast<uint8_t>(v);
  }
  void UnsafeZigZag(int64_t v) {
    UnsafeVarint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void UnsafeFieldHeader(int16_t last_id, int16_t id, uint8_t type) {
    int delta = id - last_id;
    if (delta > 0 && delta <= 15) {
      *p_++ = static_cast<uint8_t>((delta << 4) | type);
    } else {
      *p_++ = type;
      UnsafeZigZag(id);
    }
  }
  void UnsafeDouble(double d) {
    std::memcpy(p_, &d, 8);
    p_ += 8;
  }
  void UnsafeListHeader(uint8_t elem_type, uint32_t n) {
    if (n < 15) {
      *p_++ = static_cast<uint8_t>((n << 4) | elem_type);
    } else {
      *p_++ = static_cast<uint8_t>(0xf0 | elem_type);
      UnsafeVarint(n);
    }
  }
  bool WriteBinary(std::string_view s) {
    if (!Ensure(10 + s.size())) return false;
    UnsafeVarint(s.size());
    if (!s.empty()) std::memcpy(p_, s.data(), s.size());
    p_ += s.size();
    return true;
  }

 private:
  bool Grow(size_t n);
  void Sync() {
    uint8_t* d = out_->mutable_data();
    p_ = d == nullptr ? nullptr : d + out_->size();
    limit_ = d == nullptr ? nullptr : d + out_->capacity();
  }

  BufferBuilder* out_;
  uint8_t* p_ = nullptr;
  uint8_t* limit_ = nullptr;
  Status status_;
};

inline bool CompactWriter::Grow(size_t n) {
  if (!status_.ok()) return false;
  Flush();
  int64_t want = out_->size() + static_cast<int64_t>(n);
  int64_t cap = std::max<int64_t>(want, out_->capacity() * 2);
  cap = std::max<int64_t>(cap, 256);
  Status st = out_->Reserve(cap - out_->size());
  if (!st.ok()) {
    status_ = std::move(st);
    return false;
  }
  Sync();
  return true;
}

template <typename T>
bool EncodeStruct(CompactWriter& w, const T& v);

namespace detail {

template <typename T>
bool EncodeValue(CompactWriter& w, const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!w.Ensure(1)) return false;
    w.UnsafeByte(v ? kBoolTrue : kBoolFalse);
    return true;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    if (!w.Ensure(1)) return false;
    w.UnsafeByte(static_cast<uint8_t>(v));
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    if (!w.Ensure(10)) return false;
    w.UnsafeZigZag(v);
    return true;
  } else if constexpr (std::is_enum_v<T>) {
    if (!w.Ensure(10)) return false;
    w.UnsafeZigZag(static_cast<int32_t>(v));
    return true;
  } else if constexpr (std::is_same_v<T, double>) {
    if (!w.Ensure(8)) return false;
    w.UnsafeDouble(v);
    return true;
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return w.WriteBinary(v);
  } else if constexpr (IsList<T>::value) {
    using E = std::remove_cv_t<std::remove_reference_t<decltype(*v.data())>>;
    if (!w.Ensure(6)) return false;
    w.UnsafeListHeader(WireType<E>::value, v.size());
    for (const E& e : v) {
      if (!EncodeValue<E>(w, e)) return false;
    }
    return true;
  } else {
    return EncodeStruct(w, v);
  }
}

template <size_t I, typename T>
inline bool EncodeField(CompactWriter& w, const T& obj, int16_t& last) {
  constexpr auto& f = std::get<I>(StructInfo<T>::kFields);
  using M = typename std::remove_cvref_t<decltype(f)>::member_type;
  using V = typename Unoptional<M>::type;
  const M& m = obj.*(f.member);
  if constexpr (IsOptional<M>::value) {
    if (!m.has_value()) return true;
  }
  // A reference for std::optional, Boxed and plain members; a small value for the compact optionals.
  decltype(auto) value = [&]() -> decltype(auto) {
    if constexpr (IsOptional<M>::value) {
      return *m;
    } else {
      return (m);
    }
  }();
  if (!w.Ensure(3)) return false;
  if constexpr (std::is_same_v<V, bool>) {
    w.UnsafeFieldHeader(last, f.id, value ? kBoolTrue : kBoolFalse);
    last = f.id;
    return true;
  } else {
    w.UnsafeFieldHeader(last, f.id, WireType<V>::value);
    last = f.id;
    return EncodeValue<V>(w, value);
  }
}

template <typename T, size_t... I>
constexpr bool AscendingIds(std::index_sequence<I...>) {
  [[maybe_unused]] int prev = -32769;
  bool ok = true;
  ((ok = ok && std::get<I>(StructInfo<T>::kFields).id > prev, prev = std::get<I>(StructInfo<T>::kFields).id), ...);
  return ok;
}

template <typename T, size_t... I>
inline bool EncodeStructImpl(CompactWriter& w, const T& v, std::index_sequence<I...> seq) {
  static_assert(AscendingIds<T>(seq), "StructInfo fields must be listed in ascending id order");
  [[maybe_unused]] int16_t last = 0;
  bool ok = (EncodeField<I>(w, v, last) && ...);
  if (!ok || !w.Ensure(1)) return false;
  w.UnsafeByte(kStop);
  return true;
}

}  // namespace detail

// Fields are written in ascending id order, optionals only when engaged.
template <typename T>
bool EncodeStruct(CompactWriter& w, const T& v) {
  constexpr size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(StructInfo<T>::kFields)>>;
  static_assert(TableCoversMembers<T>(), "StructInfo<T>::kFields names every member of T");
  return detail::EncodeStructImpl(w, v, std::make_index_sequence<n>{});
}

}  // namespace quiver::thrift
