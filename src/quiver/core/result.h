// Result<T>: a T or the Status that explains why there is none; no heap use on success.
#pragma once

#include <cassert>
#include <new>
#include <type_traits>
#include <utility>

#include "quiver/core/status.h"

namespace quiver {

template <typename T>
class [[nodiscard]] Result {
  static_assert(!std::is_reference_v<T>, "Result<T&> is not supported");
  static_assert(!std::is_same_v<std::decay_t<T>, Status>, "Result<Status> makes no sense");

 public:
  // Implicit from a value and from an error Status, so `return value;` and `return st;` both work.
  Result(const T& value) : status_() { new (&value_) T(value); }
  Result(T&& value) noexcept(std::is_nothrow_move_constructible_v<T>) : status_() {
    new (&value_) T(std::move(value));
  }
  template <typename U,
            typename = std::enable_if_t<std::is_constructible_v<T, U&&> &&
                                        !std::is_same_v<std::decay_t<U>, T> &&
                                        !std::is_same_v<std::decay_t<U>, Status> &&
                                        !std::is_same_v<std::decay_t<U>, Result>>>
  Result(U&& value) : status_() {
    new (&value_) T(std::forward<U>(value));
  }
  Result(Status status) : status_(std::move(status)) {
    if (status_.ok()) [[unlikely]]
      status_ = Status::Invalid("Result constructed from an OK Status without a value");
  }

  Result(const Result& other) : status_(other.status_) {
    if (status_.ok()) new (&value_) T(other.value_);
  }
  Result(Result&& other) noexcept(std::is_nothrow_move_constructible_v<T>)
      : status_(other.status_) {
    if (status_.ok()) new (&value_) T(std::move(other.value_));
  }
  Result& operator=(const Result& other) {
    if (this != &other) {
      Destroy();
      status_ = other.status_;
      if (status_.ok()) new (&value_) T(other.value_);
    }
    return *this;
  }
  Result& operator=(Result&& other) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &other) {
      Destroy();
      status_ = other.status_;
      if (status_.ok()) new (&value_) T(std::move(other.value_));
    }
    return *this;
  }
  ~Result() { Destroy(); }

  bool ok() const noexcept { return status_.ok(); }
  const Status& status() const& noexcept { return status_; }
  // A copy even from an rvalue: status_ must stay an error so that the destructor knows no
  // value lives in the union. Only the error path pays for it.
  Status status() && { return status_; }

  const T& ValueUnsafe() const& { return value_; }
  T& ValueUnsafe() & { return value_; }
  T ValueUnsafe() && { return std::move(value_); }

  const T& operator*() const& { assert(ok()); return value_; }
  T& operator*() & { assert(ok()); return value_; }
  T operator*() && { assert(ok()); return std::move(value_); }
  const T* operator->() const { assert(ok()); return &value_; }
  T* operator->() { assert(ok()); return &value_; }

  T ValueOr(T fallback) && { return ok() ? std::move(value_) : std::move(fallback); }

 private:
  void Destroy() noexcept {
    if (status_.ok()) value_.~T();
  }

  Status status_;
  union {
    T value_;
  };
};

}  // namespace quiver

#define QUIVER_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr)          \
  auto tmp = (rexpr);                                          \
  if (!tmp.ok()) [[unlikely]] return std::move(tmp).status();  \
  lhs = std::move(tmp).ValueUnsafe()

// `QUIVER_ASSIGN_OR_RETURN(auto x, Make());` declares or assigns x, or returns the error.
#define QUIVER_ASSIGN_OR_RETURN(lhs, rexpr) \
  QUIVER_ASSIGN_OR_RETURN_IMPL(QUIVER_CONCAT(_quiver_result_, __LINE__), lhs, rexpr)
