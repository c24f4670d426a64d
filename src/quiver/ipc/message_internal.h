// Arrow IPC message framing: where messages come from (bytes in memory, or stdin read in order)
// and one message read off them (continuation marker, metadata length, the Message flatbuffer,
// its body), every length checked against the input.
#pragma once

#include <memory>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/ipc/flatbuffers.h"

namespace quiver::ipc {

// A message: its metadata flatbuffer (kept alive for the tables that point into it) and body.
struct Message {
  std::shared_ptr<Buffer> metadata;
  std::unique_ptr<fb::Context> ctx;
  fb::Table root;
  uint8_t header_type = 0;
  fb::Table header;
  std::shared_ptr<Buffer> body;
  int64_t offset = 0;  // where its framing starts
  int16_t version = 0;  // format::MetadataVersion
};

// Where messages come from: bytes in memory (a mapped file: reads are zero-copy slices), or a
// file descriptor read in order (stdin, a pipe).
class MessageSource {
 public:
  virtual ~MessageSource() = default;
  // Up to n bytes (fewer only at the end of the input).
  virtual Result<std::shared_ptr<Buffer>> Read(int64_t n) = 0;
  virtual int64_t position() const = 0;
  virtual int64_t size() const { return -1; }
};

// A mapped file's or a buffer's bytes from `pos`: reads are zero-copy slices.
class MemorySource final : public MessageSource {
 public:
  MemorySource(std::shared_ptr<Buffer> bytes, int64_t pos) : bytes_(std::move(bytes)), pos_(pos) {}
  Result<std::shared_ptr<Buffer>> Read(int64_t n) override;
  int64_t position() const override { return pos_; }
  int64_t size() const override { return bytes_->size(); }

 private:
  std::shared_ptr<Buffer> bytes_;
  int64_t pos_;
};

// Stdin, read in order through io::ReadStdin (which hands out first what a format check peeked).
class StdinSource final : public MessageSource {
 public:
  explicit StdinSource(MemoryPool* pool) : pool_(pool) {}
  Result<std::shared_ptr<Buffer>> Read(int64_t n) override;
  int64_t position() const override { return pos_; }

 private:
  MemoryPool* pool_;
  int64_t pos_ = 0;
};

// The name of a message header type ("RecordBatch", ...), for messages.
const char* HeaderName(uint8_t t);

// The next message, or nullptr at the end of the stream (an end marker, or the input's end).
Result<std::unique_ptr<Message>> ReadMessage(MessageSource* src);

}  // namespace quiver::ipc
