#include "quiver/parquet/encoding/page_internal.h"

#include <algorithm>
#include <cstring>

namespace quiver::parquet::encoding {

namespace {

// A header's compressed-size field is a varint of at most 5 bytes: the real header is at most
// this much longer than the guessed one.
constexpr int64_t kHeaderSlack = 8;

}  // namespace

Result<int64_t> AppendCompressedPage(compress::Codec codec, int level, std::span<const uint8_t> stored,
                                     std::span<const uint8_t> payload, int64_t guess,
                                     const std::function<Status(int64_t, BufferBuilder*)>& encode_header,
                                     BufferBuilder* out, BufferBuilder* scratch, int64_t reserve) {
  const int64_t stored_size = static_cast<int64_t>(stored.size());
  BufferBuilder header(out->pool());
  QUIVER_RETURN_NOT_OK(encode_header(guess, &header));
  const int64_t guessed = header.size();
  const int64_t before = out->size();
  const int64_t room =
      guessed + kHeaderSlack + stored_size + compress::MaxCompressedLength(codec, static_cast<int64_t>(payload.size()));
  if (before == 0 && out->capacity() < room) {
    // Empty: a buffer of the new size rather than the old one grown, which would copy it.
    *out = BufferBuilder(out->pool());
    QUIVER_RETURN_NOT_OK(out->Reserve(std::max(room, reserve)));
  }
  if (out->capacity() - before >= room) {
    const int64_t at = before + guessed + stored_size;
    out->UnsafeSetSize(at);
    Status st = compress::Compress(codec, level, payload, out);
    if (!st.ok()) {
      out->UnsafeSetSize(before);
      return st;
    }
    const int64_t compressed = out->size() - at;
    header.Clear();
    st = encode_header(compressed, &header);
    if (!st.ok()) {
      out->UnsafeSetSize(before);
      return st;
    }
    const int64_t length = header.size();
    uint8_t* page = out->mutable_data() + before;
    if (length != guessed) {
      std::memmove(page + length + stored_size, page + guessed + stored_size, static_cast<size_t>(compressed));
    }
    std::memcpy(page, header.data(), static_cast<size_t>(length));
    if (stored_size > 0) std::memcpy(page + length, stored.data(), stored.size());
    out->UnsafeSetSize(before + length + stored_size + compressed);
    return compressed;
  }
  scratch->Clear();
  QUIVER_RETURN_NOT_OK(compress::Compress(codec, level, payload, scratch));
  header.Clear();
  QUIVER_RETURN_NOT_OK(encode_header(scratch->size(), &header));
  QUIVER_RETURN_NOT_OK(out->Append(header.data(), header.size()));
  QUIVER_RETURN_NOT_OK(out->Append(stored.data(), stored_size));
  QUIVER_RETURN_NOT_OK(out->Append(scratch->data(), scratch->size()));
  return scratch->size();
}

}  // namespace quiver::parquet::encoding
