// One stripe's columns decoded into Arrow-layout arrays: PRESENT streams into validity bitmaps
// (a child's entries exist only where its struct parent is present), each type's DATA, LENGTH,
// SECONDARY and dictionary streams by its encoding, nested types built from lengths.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/orc/metadata.h"
#include "quiver/orc/reader/timezone_internal.h"

namespace quiver::orc {

// What the reader knows of each column id, from the footer's types.
struct ColumnInfo {
  uint32_t kind = 0;  // format::type_kind
  TypePtr type;       // the quiver type of the whole subtree
  std::string name;   // dotted path from the root, for messages
  std::vector<uint32_t> children;
  std::vector<std::string> child_names;
  int32_t precision = 0, scale = 0;
  bool decimal64_v2 = false;   // RLE v2 integers in the type's scale (files of version 1.9999)
  bool legacy_decimal = false;  // Hive 0.11: no precision or scale in the footer
};

// A stripe's streams, fetched and decompressed on demand.
class StripeStreams {
 public:
  // Returns the decompressed stream, or null when the stripe has no such stream.
  using Fetch = std::function<Result<std::shared_ptr<Buffer>>(uint32_t column, uint32_t kind)>;
  StripeStreams(const StripeFooter* footer, Fetch fetch, std::shared_ptr<const TimeZone> writer_zone)
      : footer_(footer), fetch_(std::move(fetch)), zone_(std::move(writer_zone)) {}
  Result<std::shared_ptr<Buffer>> Get(uint32_t column, uint32_t kind) const { return fetch_(column, kind); }
  const StripeFooter& footer() const { return *footer_; }
  const TimeZone& writer_zone() const { return *zone_; }

 private:
  const StripeFooter* footer_;
  Fetch fetch_;
  std::shared_ptr<const TimeZone> zone_;
};

// Decodes column `id` for `n` entries; `parent_valid` (n bits, or null) marks the entries that
// exist (a struct parent's present rows). `included` says which column ids were chosen.
Result<std::shared_ptr<ArrayData>> DecodeColumn(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included,
                                                const StripeStreams& streams, uint32_t id, int64_t n,
                                                const uint8_t* parent_valid, MemoryPool* pool);

// The quiver type of a column subtree restricted to the included ids.
TypePtr IncludedType(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included, uint32_t id);

}  // namespace quiver::orc
