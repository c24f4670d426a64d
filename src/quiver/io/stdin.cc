#include "quiver/io/stdin.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace quiver::io {
namespace {

// What PeekStdin read and ReadStdin has not handed out yet (stdin is one per process).
std::string g_head;
size_t g_head_used = 0;

Result<int64_t> ReadFd0(uint8_t* out, size_t n) {
  for (;;) {
    const ssize_t r = ::read(STDIN_FILENO, out, n);
    if (r >= 0) return static_cast<int64_t>(r);
    if (errno != EINTR) return Status::FromErrno(errno, "reading <stdin>");
  }
}

}  // namespace

Result<std::string_view> PeekStdin(size_t n) {
  if (g_head_used > 0) return Status::Invalid("<stdin>: its first bytes were already read");
  while (g_head.size() < n) {
    const size_t have = g_head.size();
    g_head.resize(n);
    auto r = ReadFd0(reinterpret_cast<uint8_t*>(g_head.data()) + have, n - have);
    g_head.resize(have + static_cast<size_t>(r.ok() ? *r : 0));
    QUIVER_RETURN_NOT_OK(r.status());
    if (*r == 0) break;
  }
  return std::string_view(g_head).substr(0, std::min(n, g_head.size()));
}

Result<int64_t> ReadStdin(uint8_t* out, int64_t n) {
  if (g_head_used < g_head.size()) {
    const size_t take = std::min(static_cast<size_t>(n), g_head.size() - g_head_used);
    std::memcpy(out, g_head.data() + g_head_used, take);
    g_head_used += take;
    return static_cast<int64_t>(take);
  }
  return ReadFd0(out, static_cast<size_t>(n));
}

}  // namespace quiver::io
