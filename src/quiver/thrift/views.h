// The value types of Thrift-decoded models (the Parquet footer): a list as a view into an
// arena and compact optionals. What a reader of the model needs; the decoder that fills them
// is compact_reader_internal.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "quiver/core/arena.h"

namespace quiver::thrift {

namespace detail {
// A pointer kept as 8 bytes of 1-byte alignment, so that a view (pointer + 32-bit size) takes
// 12 bytes with 4-byte alignment instead of 16: a decoded column chunk holds six such views.
// Loads and stores go through memcpy (plain moves on x86).
class PackedPointer {
 public:
  PackedPointer() = default;
  explicit PackedPointer(const void* p) { std::memcpy(bytes_, &p, sizeof p); }
  template <typename T>
  T* get() const {
    T* p;
    std::memcpy(&p, bytes_, sizeof p);
    return p;
  }

 private:
  unsigned char bytes_[sizeof(void*)] = {};
};
}  // namespace detail

// A Thrift list as a view: elements live in an Arena (decoded) or wherever the builder put
// them. Trivially copyable so whole models can live in arenas with no destructors to run.
template <typename T>
class List {
 public:
  List() = default;
  List(T* data, uint32_t size) : data_(data), size_(size) {}
  T* data() const { return data_.get<T>(); }
  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() const { return data(); }
  T* end() const { return data() + size_; }
  T& operator[](size_t i) const { return data()[i]; }
  friend bool operator==(const List& a, const List& b) {
    if (a.size_ != b.size_) return false;
    const T* x = a.data();
    const T* y = b.data();
    for (uint32_t i = 0; i < a.size_; ++i) {
      if (!(x[i] == y[i])) return false;
    }
    return true;
  }

 private:
  detail::PackedPointer data_;
  uint32_t size_ = 0;
};


// Compact optionals for the model. Footers of wide files hold millions of column chunks and
// every byte of the decoded model is memory to fault in and clear, so the optional kinds that
// are common or large get representations smaller than std::optional:
//  - OptionalBinary: a present-or-absent view in 12 bytes (std::optional<string_view>: 24);
//    present is a non-null pointer (an empty view without one points at a static byte);
//  - OptionalList<T>: a present-or-absent list in 12 bytes (presence is the size's top bit:
//    lists hold fewer than 2^31 elements, which the decoder checks);
//  - OptionalScalar<T>: an optional integer or enum in sizeof(T) + 1 bytes, byte-aligned;
//  - Boxed<T>: an optional struct behind a pointer into the arena (8 bytes when absent).
class OptionalBinary {
 public:
  OptionalBinary() = default;
  OptionalBinary(std::nullopt_t) {}
  OptionalBinary(std::string_view v)
      : data_(v.data() != nullptr ? v.data() : kEmpty), size_(static_cast<uint32_t>(v.size())) {}
  OptionalBinary(const char* s) : OptionalBinary(std::string_view(s)) {}
  bool has_value() const { return data_.get<const char>() != nullptr; }
  explicit operator bool() const { return has_value(); }
  std::string_view operator*() const { return std::string_view(data_.get<const char>(), size_); }
  std::string_view value_or(std::string_view fallback) const { return has_value() ? **this : fallback; }
  void reset() { *this = OptionalBinary(); }
  friend bool operator==(const OptionalBinary& a, const OptionalBinary& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

 private:
  static constexpr char kEmpty[1] = {};
  detail::PackedPointer data_;
  uint32_t size_ = 0;
};

// An optional integer or enum in sizeof(T) + 1 bytes, byte-aligned, so that several sit side
// by side without padding (std::optional<int64_t> takes 16 bytes, and a column chunk has seven
// optional integers). Reads and writes the value through memcpy (an unaligned move on x86).
// The API is the part of std::optional the code uses.
template <typename T>
class OptionalScalar {
  static_assert(std::is_integral_v<T> || std::is_enum_v<T>);

 public:
  OptionalScalar() = default;
  OptionalScalar(std::nullopt_t) {}
  OptionalScalar(T v) : present_(true) { std::memcpy(bytes_, &v, sizeof(T)); }
  OptionalScalar(const std::optional<T>& o) : OptionalScalar() {
    if (o) *this = OptionalScalar(*o);
  }
  bool has_value() const { return present_; }
  explicit operator bool() const { return present_; }
  T operator*() const {
    T v;
    std::memcpy(&v, bytes_, sizeof(T));
    return v;
  }
  T value_or(T fallback) const { return present_ ? **this : fallback; }
  T& emplace() = delete;  // no reference to the unaligned value; assign instead
  void reset() { present_ = false; }
  operator std::optional<T>() const { return present_ ? std::optional<T>(**this) : std::nullopt; }
  friend bool operator==(const OptionalScalar& a, const OptionalScalar& b) {
    return a.present_ == b.present_ && (!a.present_ || *a == *b);
  }
  friend bool operator==(const OptionalScalar& a, const T& b) { return a.present_ && *a == b; }
  friend bool operator==(const OptionalScalar& a, std::nullopt_t) { return !a.present_; }

 private:
  unsigned char bytes_[sizeof(T)] = {};
  bool present_ = false;
};

template <typename T>
class OptionalList {
 public:
  OptionalList() = default;
  OptionalList(std::nullopt_t) {}
  OptionalList(List<T> l) : data_(l.data()), size_(l.size() | kPresent) {}
  bool has_value() const { return size_ != 0; }
  explicit operator bool() const { return size_ != 0; }
  List<T> operator*() const { return List<T>(data_.get<T>(), size_ & ~kPresent); }
  // Member access on the list itself (size(), empty(), begin()...).
  struct Arrow {
    List<T> l;
    const List<T>* operator->() const { return &l; }
  };
  Arrow operator->() const { return Arrow{**this}; }
  void reset() { *this = OptionalList(); }
  friend bool operator==(const OptionalList& a, const OptionalList& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

 private:
  static constexpr uint32_t kPresent = uint32_t{1} << 31;
  detail::PackedPointer data_;
  uint32_t size_ = 0;  // element count | kPresent; 0 when absent
};

template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(std::nullopt_t) {}
  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  T& operator*() const { return *p_; }
  T* operator->() const { return p_; }
  T* get() const { return p_; }
  // A fresh value-initialised T in `arena`; nullptr when the arena is out of memory.
  T* Emplace(Arena* arena) {
    void* mem = arena->Allocate(static_cast<int64_t>(sizeof(T)), alignof(T));
    p_ = mem == nullptr ? nullptr : new (mem) T;
    return p_;
  }
  // Points at a T owned elsewhere (an arena, or storage that outlives the model).
  void Set(T* p) { p_ = p; }
  void reset() { p_ = nullptr; }
  friend bool operator==(const Boxed& a, const Boxed& b) {
    if (a.p_ == nullptr || b.p_ == nullptr) return a.p_ == b.p_;
    return *a.p_ == *b.p_;
  }

 private:
  T* p_ = nullptr;
};

}  // namespace quiver::thrift
