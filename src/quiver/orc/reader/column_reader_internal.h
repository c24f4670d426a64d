// One stripe's columns decoded into Arrow-layout arrays a batch of rows at a time: PRESENT
// streams into validity bitmaps (a child's entries exist only where its struct parent is
// present), each type's DATA, LENGTH, SECONDARY and dictionary streams by its encoding, nested
// types built from lengths.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/orc/metadata.h"
#include "quiver/orc/reader/decompress_internal.h"
#include "quiver/orc/reader/rle_internal.h"
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

// One stripe's streams as one top-level column's decoding reaches them: each opened once, a
// compression chunk at a time (ChunkedStream), with its decoder kept, so that the next batch
// of rows continues where the last one stopped. Used by one thread at a time.
class StripeStreams {
 public:
  // A stream's stored (still compressed) bytes, or null when the stripe has no such stream.
  using Fetch = std::function<Result<std::shared_ptr<Buffer>>(uint32_t column, uint32_t kind)>;
  StripeStreams(const StripeFooter* footer, Fetch fetch, std::shared_ptr<const TimeZone> writer_zone, uint32_t compression,
                uint64_t block_size, MemoryPool* pool)
      : footer_(footer), fetch_(std::move(fetch)), zone_(std::move(writer_zone)), compression_(compression),
        block_size_(block_size), pool_(pool) {}
  const StripeFooter& footer() const { return *footer_; }
  const TimeZone& writer_zone() const { return *zone_; }

  // An open stream: its bytes through `raw`, or through one of the decoders (made at first use).
  struct Stream {
    ChunkedStream chunks;
    rle::ByteSource raw;
    std::unique_ptr<rle::IntRleDecoder> ints;
    std::unique_ptr<rle::ByteRleDecoder> bytes;
    std::unique_ptr<rle::BoolRleDecoder> bools;
    rle::IntRleDecoder* Ints(bool is_signed, bool v2) {
      if (ints == nullptr) ints = std::make_unique<rle::IntRleDecoder>(raw, is_signed, v2);
      return ints.get();
    }
    rle::ByteRleDecoder* Bytes() {
      if (bytes == nullptr) bytes = std::make_unique<rle::ByteRleDecoder>(raw);
      return bytes.get();
    }
    rle::BoolRleDecoder* Bools() {
      if (bools == nullptr) bools = std::make_unique<rle::BoolRleDecoder>(raw);
      return bools.get();
    }
  };
  // The stream, opened at the first call; null when the stripe has no such stream.
  Result<Stream*> Get(uint32_t column, uint32_t kind);
  // The stream decompressed whole (a dictionary's bytes), `pad` zero bytes after its end;
  // null when absent.
  Result<std::shared_ptr<Buffer>> Whole(uint32_t column, uint32_t kind, int64_t pad = 0);

  // A string column's dictionary, decoded at its first batch and kept for the stripe.
  struct Dictionary {
    bool loaded = false;
    int64_t size = 0;
    std::shared_ptr<Buffer> offsets;  // size + 1 int32
    std::shared_ptr<Buffer> bytes;    // the entries, then at least 16 bytes of padding
    int32_t longest = 0;
    std::shared_ptr<Buffer> indices;  // scratch for a batch's indices, reused
  };
  Dictionary& dictionary(uint32_t column) { return dictionaries_[column]; }

 private:
  const StripeFooter* footer_;
  Fetch fetch_;
  std::shared_ptr<const TimeZone> zone_;
  uint32_t compression_;
  uint64_t block_size_;
  MemoryPool* pool_;
  std::map<uint64_t, std::unique_ptr<Stream>> streams_;  // by column << 32 | kind; null: absent
  std::map<uint32_t, Dictionary> dictionaries_;
};

// Decodes the next `n` entries of column `id` (continuing from the entries decoded before in
// this stripe); `parent_valid` (n bits, or null) marks the entries that exist (a struct
// parent's present rows). `included` says which column ids were chosen.
Result<std::shared_ptr<ArrayData>> DecodeColumn(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included,
                                                StripeStreams& streams, uint32_t id, int64_t n,
                                                const uint8_t* parent_valid, MemoryPool* pool);

// The quiver type of a column subtree restricted to the included ids.
TypePtr IncludedType(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included, uint32_t id);

}  // namespace quiver::orc
