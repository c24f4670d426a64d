// ORC UNION decoding (union_reader_internal.h): tags in one pass backwards, in place, then
// each member decoded for the rows its tag counts.
#include "quiver/orc/reader/union_reader_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "quiver/core/bit_util.h"
#include "quiver/orc/reader/rle_internal.h"

namespace quiver::orc {

Result<std::shared_ptr<ArrayData>> DecodeUnion(const ColumnInfo& c, int64_t n, int64_t m, std::shared_ptr<Buffer> valid,
                                               rle::ByteRleDecoder* tags, MemoryPool* pool,
                                               const DecodeMemberFn& decode_member) {
  const size_t members = c.children.size();
  if (members == 0) return Status::Corrupt("a union without members");
  QUIVER_ASSIGN_OR_RETURN(auto codes_buf, Buffer::Allocate(std::max<int64_t>(n, 1), pool));
  QUIVER_ASSIGN_OR_RETURN(auto offsets_buf, Buffer::Allocate(std::max<int64_t>(n * 4, 1), pool));
  uint8_t* codes = codes_buf->mutable_data();
  int32_t* offsets = offsets_buf->mutable_data_as<int32_t>();
  if (m > 0 && (tags == nullptr || !tags->Decode(codes, m))) {
    return Status::Corrupt(fmt::format("DATA stream (union tags): {}",
                                       tags != nullptr && tags->error() ? tags->error() : "the stream is damaged"));
  }
  std::vector<int64_t> count(members, 0);
  for (int64_t j = 0; j < m; ++j) {
    if (codes[j] >= members) {
      return Status::Corrupt(fmt::format("union tag {} at entry {}, but the union has {} members", codes[j], j, members));
    }
    ++count[codes[j]];
  }
  if (count[0] + (n - m) > INT32_MAX) return Status::NotImplemented("a union member of more than 2^31 entries in one stripe");
  // Backwards, so that each present row's tag is read (at its dense index j <= i) before row i
  // is written; null rows take the entries appended after the first member's own.
  const uint8_t* v = valid ? valid->data() : nullptr;
  std::vector<int64_t> next = count;
  int64_t next_null = count[0] + (n - m);
  for (int64_t i = n - 1, j = m - 1; i >= 0; --i) {
    if (v == nullptr || bit_util::GetBit(v, i)) {
      const uint8_t t = codes[j--];
      codes[i] = t;
      offsets[i] = static_cast<int32_t>(--next[t]);
    } else {
      codes[i] = 0;
      offsets[i] = static_cast<int32_t>(--next_null);
    }
  }
  auto d = std::make_shared<ArrayData>();
  d->type = c.type;
  d->length = n;
  d->null_count = n - m;
  d->buffers = {std::move(valid), std::move(codes_buf), std::move(offsets_buf)};
  for (size_t t = 0; t < members; ++t) {
    int64_t entries = count[t];
    std::shared_ptr<Buffer> exists;
    if (t == 0 && n > m) {  // the first member's own entries, then one null per null row
      entries += n - m;
      QUIVER_ASSIGN_OR_RETURN(exists, Buffer::AllocateZeroed(bit_util::BytesForBits(entries), pool));
      bit_util::SetBitsTo(exists->mutable_data(), 0, count[0], true);
    }
    QUIVER_ASSIGN_OR_RETURN(auto member, decode_member(c.children[t], entries, exists ? exists->data() : nullptr));
    d->children.push_back(std::move(member));
  }
  return d;
}

}  // namespace quiver::orc
