// Arrow IPC reading: the stream format (from a file or stdin/pipe) and the file format (ARROW1,
// footer, Block index, memory-mapped) into quiver record batches, as a stream::BatchReader.
// Dictionary-encoded columns are decoded to plain values (quiver has no dictionary type), large
// offsets (LargeUtf8, LargeBinary, LargeList) are narrowed to quiver's 32-bit ones, and
// uncompressed buffers that are 8-byte aligned are borrowed from the mapping, not copied.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/buffer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::ipc {

class MessageSource;
struct FieldInfo;
struct Message;

class IpcReader final : public stream::BatchReader {
 public:
  // A file: the file format when it starts with ARROW1, the stream format otherwise (both over
  // a mapping of the file); "-" reads stdin as a stream (or, when it starts with ARROW1, whole
  // into memory as a file).
  static Result<std::unique_ptr<IpcReader>> Open(const std::string& path, MemoryPool* pool = default_memory_pool());
  // Over bytes in memory (either format), shown as `name` in errors.
  static Result<std::unique_ptr<IpcReader>> OpenBuffer(std::shared_ptr<Buffer> bytes, std::string name,
                                                       MemoryPool* pool = default_memory_pool());
  ~IpcReader() override;

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override;
  stream::ReadStats stats() const override { return stats_; }

  bool is_file_format() const { return file_format_; }
  // File format: the record batches the footer lists.
  int num_record_batches() const { return static_cast<int>(batch_blocks_.size()); }

 private:
  IpcReader() = default;
  Status Init(std::unique_ptr<MessageSource> source, std::shared_ptr<Buffer> whole);
  Status InitFile();
  Status InitStream();
  Result<std::shared_ptr<RecordBatch>> NextImpl();
  Status ApplyDictionary(const Message& m);
  Result<std::shared_ptr<RecordBatch>> DecodeBatch(const Message& m);

  std::string name_;
  MemoryPool* pool_ = nullptr;
  std::unique_ptr<MessageSource> source_;
  std::shared_ptr<Buffer> whole_;  // the file's bytes (file format, or a mapped stream)
  bool file_format_ = false;
  bool done_ = false;
  SchemaPtr schema_;
  std::vector<FieldInfo> fields_;
  std::map<int64_t, const FieldInfo*> dictionary_fields_;  // dictionary id -> the field it encodes
  std::map<int64_t, Array> dictionaries_;
  struct BlockRef { int64_t offset, meta_length, body_length; };
  std::vector<BlockRef> batch_blocks_;
  size_t next_block_ = 0;
  stream::ReadStats stats_;
};

}  // namespace quiver::ipc
