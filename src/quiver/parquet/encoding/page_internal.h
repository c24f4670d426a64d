// A compressed page appended to its column chunk's bytes: header, the body's stored part, the
// compressed rest, compressed straight into the chunk instead of into a buffer copied after it.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "quiver/compress/codec.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"

namespace quiver::parquet::encoding {

// Appends to `out` the page header that `encode_header(compressed size, header)` appends, then
// `stored` (a V2 page's levels, or nothing), then `payload` compressed by `codec`; returns the
// payload's compressed size. The header holds that size but comes first, so the payload is
// compressed into `out` after room for the header as `guess` (the last page's compressed size)
// makes it, and moved the few bytes the real header differs by, if it does. When `out` has no
// room for the worst case and is not empty (growing it would copy the chunk), the payload is
// compressed into `scratch` and appended instead. An empty `out` is given a buffer of the worst
// case or of `reserve` (what the whole chunk is expected to take), whichever is larger.
Result<int64_t> AppendCompressedPage(compress::Codec codec, int level, std::span<const uint8_t> stored,
                                     std::span<const uint8_t> payload, int64_t guess,
                                     const std::function<Status(int64_t, BufferBuilder*)>& encode_header,
                                     BufferBuilder* out, BufferBuilder* scratch, int64_t reserve = 0);

}  // namespace quiver::parquet::encoding
