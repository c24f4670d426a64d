// ORC UNION columns read as dense unions: the tags of the present rows (the DATA stream, byte
// RLE) choose each row's member, whose column holds the rows of its tag in order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "quiver/columnar/array.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/orc/reader/column_reader_internal.h"
#include "quiver/orc/reader/rle_internal.h"

namespace quiver::orc {

// Decodes member column `id` for `n` entries, `parent_valid` marking those that exist (null:
// all of them), as the column reader decodes a struct's children.
using DecodeMemberFn = std::function<Result<std::shared_ptr<ArrayData>>(uint32_t id, int64_t n, const uint8_t* parent_valid)>;

// The union column `c` over `n` rows, `m` of them present (`valid`, or null when all are);
// `tags` decodes its DATA stream from where the stripe's last batch stopped (null when m is 0).
// A null row is a null slot that points at a null entry appended to the first member (see
// columnar/array.h).
Result<std::shared_ptr<ArrayData>> DecodeUnion(const ColumnInfo& c, int64_t n, int64_t m, std::shared_ptr<Buffer> valid,
                                               rle::ByteRleDecoder* tags, MemoryPool* pool,
                                               const DecodeMemberFn& decode_member);

}  // namespace quiver::orc
