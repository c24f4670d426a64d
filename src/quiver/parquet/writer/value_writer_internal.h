// The typed half of writing a column chunk: a column's values into one dictionary or one value
// encoder of its physical type (TypedValueWriter<Type>, value_writer.cc), with their bounds, the
// bloom filter and the UTF-8 check of STRING values. Called once per slice of rows (virtual
// there, never per value); pages, levels and headers are the PageAssembler's.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/parquet/writer/page_assembler_internal.h"

namespace quiver::parquet::writer {

// Rows per ValueWriter::Put: page sizes and the dictionary's limit are checked this often.
inline constexpr int64_t kSliceRows = 4096;

class ValueWriter {
 public:
  virtual ~ValueWriter() = default;

  // The chunk's values go through the dictionary (when `dictionary` and the type has one, and no
  // encoding was asked for) or through the options' encoding (PLAIN by default); Invalid when
  // that encoding does not suit the physical type. `values`: the chunk's values at most (sizes
  // the index buffer and a bloom filter); `reserve_*`: the column's last dictionary.
  virtual Status Start(bool dictionary, int64_t values, int64_t reserve_entries, int64_t reserve_bytes) = 0;
  // Where the dictionary encoder is kept between chunks (before Start); without it each chunk
  // makes its own.
  virtual void KeepDictionaryIn(KeptDictionary* kept) = 0;
  // Rows [r, r + n) of a flat array (the leaf array of a nested column), `nulls` of them null.
  virtual Status Put(const ArrayData& a, int64_t r, int64_t n, int64_t nulls) = 0;
  // The open page's values (dictionary indices or encoded values) after the levels already in
  // `body`: *page is the whole page, either `body` with the values appended or, for PLAIN values,
  // the levels copied into the room kept in front of the values' own buffer (no copy of the
  // values). *page stays valid until the next Put. The page's bounds are complete only after
  // this call (a dictionary chunk's first page takes them from the entries here).
  virtual Status FlushValues(BufferBuilder* body, std::span<const uint8_t>* page) = 0;
  // Appends the dictionary's PLAIN entries to `body` and counts them; builds the bloom filter
  // from them when one is asked for.
  virtual Status WriteDictionaryPage(BufferBuilder* body, int64_t* entries) = 0;

  bool dictionary() const { return dictionary_; }
  // The dictionary's entries, and their bytes without length prefixes (byte arrays only).
  virtual int64_t dictionary_entries() const = 0;
  virtual int64_t dictionary_value_bytes() const = 0;
  // The dictionary passed its size limit: the chunk must start over without it.
  virtual bool dictionary_full() const = 0;
  Encoding encoding() const { return encoding_; }
  // PLAIN-equivalent bytes of the open page's values (pages end at ColumnWriterOptions::page_size).
  int64_t page_plain_bytes() const { return page_plain_bytes_; }

 protected:
  bool dictionary_ = false;
  Encoding encoding_ = Encoding::PLAIN;
  int64_t page_plain_bytes_ = 0;
};

// The writer of `leaf`'s physical type. Bounds go to `bounds`; the bloom filter, when
// `options` asks for one, to out->bloom_filter.
std::unique_ptr<ValueWriter> MakeValueWriter(const Field& field, const LeafType& leaf,
                                             const ColumnWriterOptions& options, PageBounds* bounds,
                                             EncodedColumnChunk* out);

}  // namespace quiver::parquet::writer
