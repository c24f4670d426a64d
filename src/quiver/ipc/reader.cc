#include "quiver/ipc/reader.h"

#include <cstring>

#include <fmt/format.h>

#include "quiver/columnar/concatenate.h"
#include "quiver/io/file.h"
#include "quiver/io/stdin.h"
#include "quiver/ipc/batch_decoder_internal.h"
#include "quiver/ipc/format.h"
#include "quiver/ipc/message_internal.h"
#include "quiver/ipc/schema_read_internal.h"

namespace quiver::ipc {

namespace f = format;

IpcReader::~IpcReader() = default;

Result<std::unique_ptr<IpcReader>> IpcReader::Open(const std::string& path, MemoryPool* pool) {
  auto r = std::unique_ptr<IpcReader>(new IpcReader());
  r->pool_ = pool;
  if (path == "-") {
    r->name_ = "<stdin>";
    QUIVER_ASSIGN_OR_RETURN(const std::string_view head, io::PeekStdin(6));
    auto src = std::make_unique<StdinSource>(pool);
    if (head == std::string_view(f::kFileMagic, 6)) {
      // The file format needs its end first: read it whole.
      QUIVER_ASSIGN_OR_RETURN(auto whole, src->Read(INT64_MAX));
      return OpenBuffer(std::move(whole), r->name_, pool);
    }
    QUIVER_RETURN_NOT_OK(r->Init(std::move(src), nullptr));
    return r;
  }
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path));
  // Mapped: the buffer keeps the mapping alive, and so does every batch borrowing from it.
  QUIVER_ASSIGN_OR_RETURN(auto whole, file->ReadAt(0, file->size(), pool));
  return OpenBuffer(std::move(whole), path, pool);
}

Result<std::unique_ptr<IpcReader>> IpcReader::OpenBuffer(std::shared_ptr<Buffer> bytes, std::string name, MemoryPool* pool) {
  auto r = std::unique_ptr<IpcReader>(new IpcReader());
  r->pool_ = pool;
  r->name_ = std::move(name);
  auto src = std::make_unique<MemorySource>(bytes, 0);
  QUIVER_RETURN_NOT_OK(r->Init(std::move(src), std::move(bytes)));
  return r;
}

Status IpcReader::Init(std::unique_ptr<MessageSource> source, std::shared_ptr<Buffer> whole) {
  source_ = std::move(source);
  whole_ = std::move(whole);
  stats_.input_size = whole_ ? whole_->size() : -1;
  file_format_ = whole_ && whole_->size() >= 6 && std::memcmp(whole_->data(), f::kFileMagic, 6) == 0;
  Status st = file_format_ ? InitFile() : InitStream();
  if (!st.ok()) return st.WithContext(name_);
  CollectDictionaries(fields_, &dictionary_fields_);
  return Status::OK();
}

Status IpcReader::InitStream() {
  QUIVER_ASSIGN_OR_RETURN(auto m, ReadMessage(source_.get()));
  if (!m) return Status::Corrupt("the Arrow IPC stream is empty (no Schema message)");
  if (m->header_type != f::kSchema) {
    return Status::Corrupt(fmt::format("the Arrow IPC stream starts with a {} message, not a Schema", HeaderName(m->header_type)));
  }
  return ReadSchema(m->header, &fields_, &schema_);
}

Status IpcReader::InitFile() {
  const int64_t size = whole_->size();
  if (size < 6 + 2 + 4 + 6 || std::memcmp(whole_->data() + size - 6, f::kFileMagic, 6) != 0) {
    return Status::Corrupt("starts with ARROW1 but does not end with it: not a whole Arrow IPC file");
  }
  int32_t footer_length;
  std::memcpy(&footer_length, whole_->data() + size - 10, 4);
  if (footer_length <= 0 || footer_length > size - 18) {
    return Status::Corrupt(fmt::format("Arrow IPC footer length {} does not fit the file of {} bytes", footer_length, size));
  }
  auto footer_bytes = Buffer::Slice(whole_, size - 10 - footer_length, footer_length);
  fb::Context ctx(footer_bytes->span(), "Footer");
  fb::Table footer = fb::Table::Root(&ctx);
  fb::Table schema = footer.Child(f::footer::schema);
  if (!ctx.ok()) return ctx.status();
  if (!schema.valid()) return Status::Corrupt("the Arrow IPC footer has no schema");
  QUIVER_RETURN_NOT_OK(ReadSchema(schema, &fields_, &schema_));
  auto blocks = [&](int slot, std::vector<BlockRef>* out) -> Status {
    fb::Vector v = footer.VectorOf(slot, sizeof(f::Block));
    for (uint32_t i = 0; i < v.size(); ++i) {
      const auto b = v.StructAt<f::Block>(i);
      if (b.offset < 8 || b.offset >= size || b.meta_data_length < 0 || b.body_length < 0) {
        return Status::Corrupt(fmt::format("Arrow IPC footer block {} at {} lies outside the file", i, b.offset));
      }
      out->push_back({b.offset, b.meta_data_length, b.body_length});
    }
    return ctx.status();
  };
  std::vector<BlockRef> dictionaries;
  QUIVER_RETURN_NOT_OK(blocks(f::footer::dictionaries, &dictionaries));
  QUIVER_RETURN_NOT_OK(blocks(f::footer::record_batches, &batch_blocks_));
  CollectDictionaries(fields_, &dictionary_fields_);
  for (const auto& b : dictionaries) {
    MemorySource src(whole_, b.offset);
    QUIVER_ASSIGN_OR_RETURN(auto m, ReadMessage(&src));
    if (!m || m->header_type != f::kDictionaryBatch) {
      return Status::Corrupt(fmt::format("the footer's dictionary block at {} is not a DictionaryBatch", b.offset));
    }
    QUIVER_RETURN_NOT_OK(ApplyDictionary(*m));
  }
  return Status::OK();
}

Status IpcReader::ApplyDictionary(const Message& m) {
  const int64_t id = m.header.Scalar<int64_t>(f::dictionary_batch::id, 0);
  fb::Table data = m.header.Child(f::dictionary_batch::data);
  const bool delta = m.header.Bool(f::dictionary_batch::is_delta);
  if (!m.ctx->ok()) return m.ctx->status();
  auto it = dictionary_fields_.find(id);
  if (it == dictionary_fields_.end()) {
    return Status::Corrupt(fmt::format("DictionaryBatch at byte {} for dictionary {}, which no field uses", m.offset, id));
  }
  if (!data.valid()) return Status::Corrupt(fmt::format("DictionaryBatch at byte {} has no data", m.offset));
  BatchDecoder dec(data, m.body, &dictionaries_, pool_, m.version);
  QUIVER_RETURN_NOT_OK(dec.CheckHeader());
  QUIVER_ASSIGN_OR_RETURN(auto d, dec.Decode(*it->second, false, 0));
  if (!m.ctx->ok()) return m.ctx->status();
  Array values(d);
  if (values.length() != dec.length()) {
    return Status::Corrupt(fmt::format("DictionaryBatch at byte {}: {} values in a batch of {}", m.offset, values.length(),
                                       dec.length()));
  }
  QUIVER_RETURN_NOT_OK_CTX(values.Validate(), fmt::format("dictionary {}", id));
  auto old = dictionaries_.find(id);
  if (delta && old != dictionaries_.end()) {
    QUIVER_ASSIGN_OR_RETURN(values, Concatenate({old->second, values}, pool_));
  }
  dictionaries_[id] = std::move(values);
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> IpcReader::DecodeBatch(const Message& m) {
  BatchDecoder dec(m.header, m.body, &dictionaries_, pool_, m.version);
  if (!m.ctx->ok()) return m.ctx->status();
  QUIVER_RETURN_NOT_OK(dec.CheckHeader());
  std::vector<Array> columns;
  columns.reserve(fields_.size());
  for (const auto& fi : fields_) {
    QUIVER_ASSIGN_OR_RETURN(auto d, dec.Decode(fi, true, 0));
    if (d->length != dec.length()) {
      return Status::Corrupt(fmt::format("record batch at byte {}: column '{}' has {} rows in a batch of {}", m.offset,
                                         fi.field.name, d->length, dec.length()));
    }
    columns.emplace_back(std::move(d));
  }
  if (!m.ctx->ok()) return m.ctx->status();
  std::shared_ptr<RecordBatch> batch;
  if (columns.empty()) {
    batch = std::make_shared<RecordBatch>(schema_, dec.length(), std::move(columns));
  } else {
    QUIVER_ASSIGN_OR_RETURN(batch, RecordBatch::Make(schema_, std::move(columns)));
  }
  stats_.rows_read += batch->num_rows();
  stats_.bytes_read += m.body->size();
  return batch;
}

Result<std::shared_ptr<RecordBatch>> IpcReader::NextImpl() {
  if (file_format_) {
    if (next_block_ >= batch_blocks_.size()) return nullptr;
    const BlockRef b = batch_blocks_[next_block_++];
    MemorySource src(whole_, b.offset);
    QUIVER_ASSIGN_OR_RETURN(auto m, ReadMessage(&src));
    if (!m || m->header_type != f::kRecordBatch) {
      return Status::Corrupt(fmt::format("the footer's record batch block at {} is not a RecordBatch", b.offset));
    }
    stats_.input_position = src.position();
    return DecodeBatch(*m);
  }
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(auto m, ReadMessage(source_.get()));
    stats_.input_position = source_->position();
    if (!m) return nullptr;
    switch (m->header_type) {
      case f::kRecordBatch:
        return DecodeBatch(*m);
      case f::kDictionaryBatch:
        QUIVER_RETURN_NOT_OK(ApplyDictionary(*m));
        continue;
      case f::kSchema:
        return Status::Corrupt(fmt::format("a second Schema message at byte {}", m->offset));
      default:
        return Status::NotImplemented(fmt::format("Arrow IPC {} messages (at byte {}) are not supported by quiver",
                                                  HeaderName(m->header_type), m->offset));
    }
  }
}

Result<std::shared_ptr<RecordBatch>> IpcReader::Next() {
  if (done_) return nullptr;
  auto r = NextImpl();
  if (!r.ok()) {
    done_ = true;
    return r.status().WithContext(name_);
  }
  if (*r == nullptr) done_ = true;
  return r;
}

}  // namespace quiver::ipc
