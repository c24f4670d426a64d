// Status: the outcome of an operation, one pointer wide and free on success.
// OK is a null pointer; an error owns a heap state (code, message, context chain).
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace quiver {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalid,         // bad argument or bad user input (CSV value, option)
  kIOError,         // the operating system said no
  kOutOfMemory,     // allocation failed or a memory limit was reached
  kNotImplemented,  // a valid feature quiver does not support (yet)
  kCorrupt,         // malformed file contents
  kCancelled,       // stopped on request or because a sibling task failed
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  Status(StatusCode code, std::string message);

  ~Status() {
    if (state_ != nullptr) [[unlikely]] DeleteState();
  }
  Status(const Status& other) : state_(nullptr) {
    if (other.state_ != nullptr) [[unlikely]] CopyFrom(other);
  }
  Status& operator=(const Status& other) {
    if (state_ != nullptr || other.state_ != nullptr) [[unlikely]] AssignFrom(other);
    return *this;
  }
  Status(Status&& other) noexcept : state_(other.state_) { other.state_ = nullptr; }
  Status& operator=(Status&& other) noexcept {
    std::swap(state_, other.state_);
    return *this;
  }

  static Status OK() noexcept { return Status(); }
  static Status Invalid(std::string msg) { return Status(StatusCode::kInvalid, std::move(msg)); }
  static Status IOError(std::string msg) { return Status(StatusCode::kIOError, std::move(msg)); }
  static Status OutOfMemory(std::string msg) { return Status(StatusCode::kOutOfMemory, std::move(msg)); }
  static Status NotImplemented(std::string msg) {
    return Status(StatusCode::kNotImplemented, std::move(msg));
  }
  static Status Corrupt(std::string msg) { return Status(StatusCode::kCorrupt, std::move(msg)); }
  static Status Cancelled(std::string msg) { return Status(StatusCode::kCancelled, std::move(msg)); }
  // errno-based IOError: "<what>: <strerror(errnum)>".
  static Status FromErrno(int errnum, std::string_view what);

  bool ok() const noexcept { return state_ == nullptr; }
  StatusCode code() const noexcept;
  bool IsInvalid() const noexcept { return code() == StatusCode::kInvalid; }
  bool IsIOError() const noexcept { return code() == StatusCode::kIOError; }
  bool IsOutOfMemory() const noexcept { return code() == StatusCode::kOutOfMemory; }
  bool IsNotImplemented() const noexcept { return code() == StatusCode::kNotImplemented; }
  bool IsCorrupt() const noexcept { return code() == StatusCode::kCorrupt; }
  bool IsCancelled() const noexcept { return code() == StatusCode::kCancelled; }

  // The innermost message, without context.
  std::string_view detail() const noexcept;
  // Context chain then message, outermost first: "a.parquet: row group 3: page header: bad".
  std::string message() const;
  // "Corrupt: " + message().
  std::string ToString() const;

  // Prepends a context frame as the error climbs; a no-op on OK. Rvalue form reuses the state.
  Status WithContext(std::string_view context) const&;
  Status WithContext(std::string_view context) &&;

 private:
  struct State;
  void DeleteState() noexcept;
  void CopyFrom(const Status& other);
  void AssignFrom(const Status& other);
  void PrependContext(std::string_view context);

  State* state_ = nullptr;
};

static_assert(sizeof(Status) == sizeof(void*), "Status must stay one pointer wide");

}  // namespace quiver

#define QUIVER_CONCAT_INNER(a, b) a##b
#define QUIVER_CONCAT(a, b) QUIVER_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define QUIVER_RETURN_NOT_OK(expr)                          \
  do {                                                      \
    ::quiver::Status _quiver_st = (expr);                   \
    if (!_quiver_st.ok()) [[unlikely]] return _quiver_st;   \
  } while (false)

// Same, adding a context frame on the way up.
#define QUIVER_RETURN_NOT_OK_CTX(expr, ctx)                                         \
  do {                                                                              \
    ::quiver::Status _quiver_st = (expr);                                           \
    if (!_quiver_st.ok()) [[unlikely]] return std::move(_quiver_st).WithContext(ctx); \
  } while (false)
