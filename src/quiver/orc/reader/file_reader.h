// OrcFileReader: an ORC file's tail (PostScript, Footer, Metadata), its schema as quiver types,
// and stripes decoded into Arrow-layout record batches: columns chosen by name or dotted path
// (only their streams read), stripes and columns decoded in parallel on the thread pool.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/columnar/schema.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/orc/metadata.h"

namespace quiver::orc {

struct OrcReaderOptions {
  // Stripes and columns decode in parallel here; null decodes on the calling thread.
  ThreadPool* thread_pool = ThreadPool::Default();
  // Every buffer (file reads, decompressed streams, output arrays) comes from this pool, so its
  // tracker's limit bounds the read; exceeding it fails with OutOfMemory naming file, stripe
  // and column.
  MemoryPool* pool = default_memory_pool();
  // Rows per batch when a stripe is streamed (stream::OrcStreamReader): a batch's buffers are
  // recycled for the next one, and the columns of a stripe run ahead on the threads.
  int64_t batch_rows = 65536;
};

class OrcFileReader {
 public:
  static Result<std::unique_ptr<OrcFileReader>> Open(const std::string& path, OrcReaderOptions options = {});
  static Result<std::unique_ptr<OrcFileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                     OrcReaderOptions options = {});
  ~OrcFileReader();

  const std::string& path() const;
  const OrcReaderOptions& options() const;
  const PostScript& postscript() const;
  const Footer& footer() const;
  // The stripe statistics (decoded on first use); empty when the file has none.
  Result<const Metadata*> metadata();
  // "0.12", "0.11" (also for a PostScript without a version), "1.9999".
  std::string version_string() const;
  int64_t num_rows() const;
  int num_stripes() const;
  int64_t file_size() const;

  // The top-level fields (a file whose root type is not a struct has one field, "_col0").
  const SchemaPtr& schema() const;
  // The ORC type of a column id as text, e.g. "struct<a:int,b:varchar(4)>".
  std::string TypeString(uint32_t column_id) const;
  // The column id behind a top-level field or a dotted path ("middle.list"); error naming the
  // path and the file's top-level fields when it names nothing.
  Result<uint32_t> ColumnIdOf(const std::string& path) const;

  // What to read: fields by name or dotted path (empty: everything). A dotted path keeps its
  // ancestors' nesting, with only the chosen children.
  struct Selection {
    std::vector<uint32_t> roots;  // chosen column ids
  };
  Result<Selection> Select(const std::vector<std::string>& paths) const;
  // The schema a selection reads.
  SchemaPtr SelectedSchema(const Selection& selection) const;

  Result<StripeFooter> ReadStripeFooter(int stripe) const;

  // One stripe's chosen top-level columns (in file order), each decoded a batch of rows at a
  // time: a column's streams expand a compression chunk at a time as its decoders advance, so
  // memory is a batch of output plus a block per stream, not the stripe. Different columns may
  // be decoded on different threads; one column on one thread at a time. The file reader must
  // outlive it.
  class StripeCursor {
   public:
    ~StripeCursor();
    int stripe() const;
    int64_t num_rows() const;
    size_t num_columns() const;
    // Column k's next `rows` entries; errors name the file, stripe and column.
    Result<std::shared_ptr<ArrayData>> Next(size_t k, int64_t rows);
    // Frees column k's stream windows and decoders (its rows are all read, or no longer wanted).
    void Close(size_t k);

    struct State;

   private:
    friend class OrcFileReader;
    explicit StripeCursor(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
  };
  // Reads the stripe's footer; `pool` gives every buffer of the batches and the stream windows.
  Result<std::unique_ptr<StripeCursor>> OpenStripe(int stripe, const Selection& selection, MemoryPool* pool) const;
  // One stripe's chosen columns as a record batch.
  Result<std::shared_ptr<RecordBatch>> ReadStripe(int stripe, const Selection& selection) const;
  // Several stripes: every (stripe, top-level column) one task on the pool; batches in order.
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadStripes(const std::vector<int>& stripes,
                                                                const Selection& selection) const;

  // A stream's bytes, decompressed: index streams (row index, bloom filters) for pushdown and meta.
  Result<std::shared_ptr<Buffer>> ReadStream(int stripe, const StripeFooter& footer, uint32_t column,
                                             uint32_t kind) const;

  // A stream's bytes as stored (still compressed); null when the stripe has no such stream.
  Result<std::shared_ptr<Buffer>> StoredStream(int stripe, const StripeFooter& footer, uint32_t column, uint32_t kind) const;

  struct Impl;

 private:
  explicit OrcFileReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::orc
