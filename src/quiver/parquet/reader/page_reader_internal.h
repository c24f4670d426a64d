// Iterates the pages of one column chunk: parses page headers, checks CRCs, decompresses page
// bodies into a reused tracked buffer, and hands out dictionary and data pages (V1 and V2).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "quiver/compress/codec.h"
#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/crypto_internal.h"
#include "quiver/parquet/metadata.h"

namespace quiver::parquet::reader {

class PageLog;

struct PageReaderOptions {
  // Page CRCs are optional in the format; when a page carries one, a mismatch is Corrupt.
  bool verify_crc = true;
  MemoryPool* pool = default_memory_pool();
  // A decompression buffer that one thread reuses from chunk to chunk (grown as needed and left
  // with the caller); null: each PageReader allocates its own.
  std::shared_ptr<Buffer>* scratch = nullptr;
  // The buffer a pread source reads column chunks into, reused the same way (see
  // ParquetFileReader::ChunkBytes); not used by PageReader itself.
  std::shared_ptr<Buffer>* input = nullptr;
  // Where a flat chunk's output buffers (values, offsets, string bytes) go when the caller
  // knows they are final, i.e. the chunk has no nulls (see OutputArenaPool); null: `pool`.
  // Dictionaries and other scratch always come from `pool`. Not used by PageReader itself.
  MemoryPool* output_pool = nullptr;
  // Non-null: every page handed out is also kept in this log, bodies uncompressed (see PageLog).
  PageLog* log = nullptr;
  // Non-null: the pages are this log's, handed out again without decompressing; the chunk
  // bytes and codec passed to the reader are ignored.
  const PageLog* replay = nullptr;
  // An encrypted chunk's key and AAD ordinals (file null: plaintext). Headers and bodies are
  // decrypted (and their GCM tags checked) before anything of them is parsed; page CRCs of
  // encrypted pages are not checked, the tags already authenticate the bytes.
  crypto::ChunkDecryption decrypt;
};

// One page, its bodies already uncompressed. Spans point into the chunk bytes or into the
// reader's scratch buffer and stay valid only until the next call to Next().
struct Page {
  PageType type = PageType::DATA_PAGE;  // DATA_PAGE, DATA_PAGE_V2 or DICTIONARY_PAGE
  int32_t index = 0;                    // position in the chunk, counting every page
  int32_t num_values = 0;               // level entries of a data page; entries of a dictionary
  Encoding encoding = Encoding::PLAIN;
  // V1 only: how the levels at the start of `data` are encoded.
  Encoding definition_level_encoding = Encoding::RLE;
  Encoding repetition_level_encoding = Encoding::RLE;
  // V2 only: the levels, stored uncompressed and without length prefixes.
  std::span<const uint8_t> repetition_levels;
  std::span<const uint8_t> definition_levels;
  int32_t num_nulls = 0;  // V2 only
  // V1: levels then values; V2: values; dictionary page: the PLAIN dictionary entries.
  std::span<const uint8_t> data;
};

// The pages of one column chunk as a PageReader handed them out, bodies and levels copied into
// one buffer of the log's (bodies decompressed straight into it): a chunk decoded for a
// predicate and then again for its kept rows is decompressed once. Reused chunk after chunk
// by one thread, so its buffer stops growing after the first.
class PageLog {
 public:
  explicit PageLog(MemoryPool* pool = default_memory_pool()) : pool_(pool) {}
  void Clear() {
    pages_.clear();
    size_ = 0;
  }
  int64_t num_pages() const { return static_cast<int64_t>(pages_.size()); }

 private:
  friend class PageReader;
  struct Kept {
    Page page;  // its spans are rebuilt from the offsets on replay
    int64_t data = 0, repetition_levels = 0, definition_levels = 0;
  };
  // `n` more bytes at the end of the buffer; earlier pointers into it may move, offsets stay.
  Result<uint8_t*> Grow(int64_t n);
  // Copies the spans of `page` that are not already in the buffer, records the page, and
  // points its spans at the buffer.
  Status Keep(Page* page);
  // Page `i` with its spans in the buffer where it is now.
  Page PageAt(size_t i) const;
  MemoryPool* pool_;
  std::vector<Kept> pages_;
  std::shared_ptr<Buffer> bytes_;
  int64_t size_ = 0;
};

class PageReader {
 public:
  // `chunk` holds the column chunk's bytes (dictionary page first, if any); `num_values` is the
  // chunk's value count from its metadata, which ends the iteration even when bytes follow.
  PageReader(std::shared_ptr<Buffer> chunk, compress::Codec codec, int64_t num_values,
             PageReaderOptions options = {});

  // The next dictionary or data page (index pages are skipped). False at the end of the chunk.
  // Errors name the page ("page 3: ..."); callers add row group and column.
  Result<bool> Next(Page* page);

 private:
  Result<bool> NextRead(Page* page);
  Result<bool> NextReplayed(Page* page);
  Status Decompress(std::span<const uint8_t> in, int64_t uncompressed_size, std::span<const uint8_t>* out);
  // Encrypted chunks: the header module at pos_ decrypted and decoded into `h` (pos_ moved
  // past it), then the body module of `h` decrypted into `*body`.
  Status DecryptHeader(PageHeader* h);
  Status DecryptBody(const PageHeader& h, std::span<const uint8_t> module, std::span<const uint8_t>* body);

  std::shared_ptr<Buffer> chunk_;
  compress::Codec codec_;
  int64_t num_values_;
  PageReaderOptions options_;
  int64_t pos_ = 0;
  int64_t values_seen_ = 0;
  int32_t page_index_ = 0;
  Arena arena_;
  std::shared_ptr<Buffer> own_scratch_;  // decompressed page bodies, reused page after page
  std::shared_ptr<Buffer>* scratch_;     // &own_scratch_ or options.scratch
  // Encrypted chunks only.
  std::unique_ptr<crypto::Cipher> cipher_;
  std::string aad_;
  std::vector<uint8_t> header_plain_;
  std::shared_ptr<Buffer> body_plain_;
  int32_t data_page_ordinal_ = 0;
};

}  // namespace quiver::parquet::reader
