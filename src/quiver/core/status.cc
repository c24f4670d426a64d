#include "quiver/core/status.h"

#include <cstring>
#include <vector>

namespace quiver {

struct Status::State {
  StatusCode code;
  std::string message;
  // Frames in the order they were added (innermost first); printed reversed.
  std::vector<std::string> context;
};

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kOutOfMemory: return "OutOfMemory";
    case StatusCode::kNotImplemented: return "NotImplemented";
    case StatusCode::kCorrupt: return "Corrupt";
    case StatusCode::kCancelled: return "Cancelled";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code == StatusCode::kOk) return;
  state_ = new State{code, std::move(message), {}};
}

Status Status::FromErrno(int errnum, std::string_view what) {
  char buf[256];
  const char* text = strerror_r(errnum, buf, sizeof(buf));
  std::string msg(what);
  msg += ": ";
  msg += text;
  return Status(StatusCode::kIOError, std::move(msg));
}

void Status::DeleteState() noexcept {
  delete state_;
  state_ = nullptr;
}

void Status::CopyFrom(const Status& other) { state_ = new State(*other.state_); }

void Status::AssignFrom(const Status& other) {
  if (this == &other) return;
  State* copy = other.state_ ? new State(*other.state_) : nullptr;
  delete state_;
  state_ = copy;
}

StatusCode Status::code() const noexcept { return state_ ? state_->code : StatusCode::kOk; }

std::string_view Status::detail() const noexcept {
  return state_ ? std::string_view(state_->message) : std::string_view();
}

std::string Status::message() const {
  if (!state_) return "OK";
  std::string out;
  for (auto it = state_->context.rbegin(); it != state_->context.rend(); ++it) {
    out += *it;
    out += ": ";
  }
  out += state_->message;
  return out;
}

std::string Status::ToString() const {
  if (!state_) return "OK";
  std::string out(StatusCodeName(state_->code));
  out += ": ";
  out += message();
  return out;
}

void Status::PrependContext(std::string_view context) {
  if (!context.empty()) state_->context.emplace_back(context);
}

Status Status::WithContext(std::string_view context) const& {
  Status copy(*this);
  if (copy.state_) copy.PrependContext(context);
  return copy;
}

Status Status::WithContext(std::string_view context) && {
  if (state_) PrependContext(context);
  return std::move(*this);
}

}  // namespace quiver
