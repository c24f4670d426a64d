#include "quiver/ipc/message_internal.h"

#include <cstring>

#include <fmt/format.h>

#include "quiver/io/stdin.h"
#include "quiver/ipc/format.h"

namespace quiver::ipc {

namespace f = format;

Result<std::shared_ptr<Buffer>> MemorySource::Read(int64_t n) {
  const int64_t take = std::min(n, bytes_->size() - pos_);
  auto b = Buffer::Slice(bytes_, pos_, take);
  pos_ += take;
  return b;
}

Result<std::shared_ptr<Buffer>> StdinSource::Read(int64_t n) {
  // Grown as bytes arrive, so a hostile length costs only what the input really holds.
  BufferBuilder b(pool_);
  int64_t got = 0;
  while (got < n) {
    const int64_t want = std::min<int64_t>(n - got, int64_t{16} << 20);
    QUIVER_RETURN_NOT_OK(b.Reserve(want));
    QUIVER_ASSIGN_OR_RETURN(const int64_t r, io::ReadStdin(b.mutable_data() + b.size(), want));
    if (r == 0) break;
    b.UnsafeSetSize(b.size() + r);
    got += r;
  }
  pos_ += got;
  return b.Finish();
}

namespace {

Result<std::shared_ptr<Buffer>> ReadExactly(MessageSource* src, int64_t n, const char* what) {
  const int64_t at = src->position();
  QUIVER_ASSIGN_OR_RETURN(auto b, src->Read(n));
  if (b->size() != n) {
    return Status::Corrupt(fmt::format("Arrow IPC {} at byte {} is cut short: {} of {} bytes", what, at, b->size(), n));
  }
  return b;
}

}  // namespace

const char* HeaderName(uint8_t t) {
  switch (t) {
    case f::kSchema: return "Schema";
    case f::kDictionaryBatch: return "DictionaryBatch";
    case f::kRecordBatch: return "RecordBatch";
    case f::kTensor: return "Tensor";
    case f::kSparseTensor: return "SparseTensor";
    default: return "unknown";
  }
}

// The next message, or nullptr at the end of the stream (an end marker, or the input's end).
Result<std::unique_ptr<Message>> ReadMessage(MessageSource* src) {
  auto m = std::make_unique<Message>();
  m->offset = src->position();
  QUIVER_ASSIGN_OR_RETURN(auto head, src->Read(4));
  if (head->size() == 0) return nullptr;
  if (head->size() < 4) return Status::Corrupt(fmt::format("Arrow IPC message at byte {} is cut short", m->offset));
  uint32_t word;
  std::memcpy(&word, head->data(), 4);
  if (word == f::kContinuation) {
    QUIVER_ASSIGN_OR_RETURN(head, ReadExactly(src, 4, "message length"));
    std::memcpy(&word, head->data(), 4);
  }
  const int32_t length = static_cast<int32_t>(word);
  if (length == 0) return nullptr;
  if (length < 0) return Status::Corrupt(fmt::format("Arrow IPC message at byte {} has metadata length {}", m->offset, length));
  if (src->size() >= 0 && length > src->size() - src->position()) {
    return Status::Corrupt(fmt::format("Arrow IPC message at byte {}: metadata of {} bytes runs past the end ({} bytes)",
                                       m->offset, length, src->size()));
  }
  QUIVER_ASSIGN_OR_RETURN(m->metadata, ReadExactly(src, length, "message metadata"));
  m->ctx = std::make_unique<fb::Context>(m->metadata->span(), "Message");
  m->root = fb::Table::Root(m->ctx.get());
  const int16_t version = m->root.Scalar<int16_t>(f::message::version, f::kV1);
  m->version = version;
  m->header_type = m->root.Scalar<uint8_t>(f::message::header_type, 0);
  m->header = m->root.Child(f::message::header);
  const int64_t body_length = m->root.Scalar<int64_t>(f::message::body_length, 0);
  if (!m->ctx->ok()) return m->ctx->status().WithContext(fmt::format("message at byte {}", m->offset));
  if (version < f::kV4) {
    return Status::NotImplemented(fmt::format(
        "Arrow IPC message at byte {} has metadata version V{}, older than quiver reads (V4 and V5, Arrow 0.8 on)",
        m->offset, version + 1));
  }
  if (!m->header.valid()) {
    return Status::Corrupt(fmt::format("Arrow IPC message at byte {} has no header", m->offset));
  }
  if (body_length < 0 || (src->size() >= 0 && body_length > src->size() - src->position())) {
    return Status::Corrupt(fmt::format("Arrow IPC message at byte {}: body of {} bytes runs past the end", m->offset, body_length));
  }
  QUIVER_ASSIGN_OR_RETURN(m->body, ReadExactly(src, body_length, "message body"));
  return m;
}

}  // namespace quiver::ipc
