// Standard input read through one place, so that a command can look at its first bytes (to
// tell an Arrow IPC stream from CSV) before the reader it chooses reads stdin from the start.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/core/result.h"

namespace quiver::io {

// Up to n of stdin's first bytes (fewer only when it ends sooner), read once and kept, so that
// ReadStdin hands them out first. Fails once ReadStdin has consumed any of them.
Result<std::string_view> PeekStdin(size_t n);

// Like read(2) on stdin (interrupted reads retried): up to n bytes, 0 at its end; the bytes
// PeekStdin kept come first. One reader at a time.
Result<int64_t> ReadStdin(uint8_t* out, int64_t n);

}  // namespace quiver::io
