#include "quiver/ipc/writer.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include <fmt/format.h>

#include "quiver/columnar/concatenate.h"
#include "quiver/compress/codec.h"
#include "quiver/ipc/flatbuffers.h"
#include "quiver/ipc/format.h"

namespace quiver::ipc {
namespace {

namespace f = format;
using Off = fb::Builder::Offset;

// Every buffer of a body starts on a multiple of this (Arrow recommends 64 for SIMD readers).
constexpr int64_t kBufferPadding = 64;

Off WriteKeyValues(fb::Builder& b, const KeyValueMetadata& md) {
  if (md.empty()) return 0;
  std::vector<Off> kvs;
  for (const auto& [k, v] : md) {
    const Off ko = b.CreateString(k), vo = b.CreateString(v);
    b.StartTable();
    b.AddOffset(f::key_value::key, ko);
    b.AddOffset(f::key_value::value, vo);
    kvs.push_back(b.EndTable());
  }
  return b.CreateOffsetVector(kvs);
}

int16_t UnitOf(TimeUnit u) {
  switch (u) {
    case TimeUnit::kSecond: return f::kSecond;
    case TimeUnit::kMilli: return f::kMillisecond;
    case TimeUnit::kMicro: return f::kMicrosecond;
    default: return f::kNanosecond;
  }
}

// The type's union tag and table.
std::pair<uint8_t, Off> WriteType(fb::Builder& b, const DataType& t) {
  auto int_type = [&](int bits, bool sign) {
    b.StartTable();
    b.Add<int32_t>(f::int_type::bit_width, bits);
    b.Add<uint8_t>(f::int_type::is_signed, sign);
    return std::pair<uint8_t, Off>{f::kInt, b.EndTable()};
  };
  auto empty = [&](uint8_t tag) {
    b.StartTable();
    return std::pair<uint8_t, Off>{tag, b.EndTable()};
  };
  auto floating = [&](int16_t precision) {
    b.StartTable();
    b.Add<int16_t>(f::floating_point::precision, precision);
    return std::pair<uint8_t, Off>{f::kFloatingPoint, b.EndTable()};
  };
  switch (t.id()) {
    case TypeId::kBool: return empty(f::kBool);
    case TypeId::kInt8: return int_type(8, true);
    case TypeId::kInt16: return int_type(16, true);
    case TypeId::kInt32: return int_type(32, true);
    case TypeId::kInt64: return int_type(64, true);
    case TypeId::kUInt8: return int_type(8, false);
    case TypeId::kUInt16: return int_type(16, false);
    case TypeId::kUInt32: return int_type(32, false);
    case TypeId::kUInt64: return int_type(64, false);
    case TypeId::kFloat16: return floating(f::kHalf);
    case TypeId::kFloat32: return floating(f::kSingle);
    case TypeId::kFloat64: return floating(f::kDouble);
    case TypeId::kDecimal128:
      b.StartTable();
      b.Add<int32_t>(f::decimal::precision, t.precision());
      b.Add<int32_t>(f::decimal::scale, t.scale());
      b.Add<int32_t>(f::decimal::bit_width, 128);
      return {f::kDecimal, b.EndTable()};
    case TypeId::kDate32:
      b.StartTable();
      b.Add<int16_t>(f::date::unit, f::kDay);
      return {f::kDate, b.EndTable()};
    case TypeId::kTime32:
    case TypeId::kTime64:
      b.StartTable();
      b.Add<int16_t>(f::time::unit, UnitOf(t.unit()));
      b.Add<int32_t>(f::time::bit_width, t.id() == TypeId::kTime32 ? 32 : 64);
      return {f::kTime, b.EndTable()};
    case TypeId::kTimestamp: {
      const Off tz = t.timezone().empty() ? 0 : b.CreateString(t.timezone());
      b.StartTable();
      b.Add<int16_t>(f::timestamp::unit, UnitOf(t.unit()));
      if (tz != 0) b.AddOffset(f::timestamp::timezone, tz);
      return {f::kTimestamp, b.EndTable()};
    }
    case TypeId::kString: return empty(f::kUtf8);
    case TypeId::kBinary: return empty(f::kBinary);
    case TypeId::kFixedSizeBinary:
      b.StartTable();
      b.Add<int32_t>(f::fixed_size_binary::byte_width, t.fixed_size());
      return {f::kFixedSizeBinary, b.EndTable()};
    case TypeId::kList: return empty(f::kList);
    case TypeId::kStruct: return empty(f::kStruct);
    case TypeId::kMap:
      b.StartTable();
      b.Add<uint8_t>(f::map::keys_sorted, t.keys_sorted());
      return {f::kMap, b.EndTable()};
    case TypeId::kDenseUnion: {
      const std::vector<int32_t> codes(t.type_codes().begin(), t.type_codes().end());
      const Off ids = b.CreateVector(codes);
      b.StartTable();
      b.Add<int16_t>(f::union_type::mode, f::kDense);
      b.AddOffset(f::union_type::type_ids, ids);
      return {f::kUnion, b.EndTable()};
    }
  }
  return empty(f::kTypeNone);
}

Off WriteField(fb::Builder& b, const Field& fld) {
  std::vector<Off> kids;
  for (const Field& c : fld.type->fields()) kids.push_back(WriteField(b, c));
  const Off children = b.CreateOffsetVector(kids);
  const Off name = b.CreateString(fld.name);
  const Off md = WriteKeyValues(b, fld.metadata);
  const auto [tag, type] = WriteType(b, *fld.type);
  b.StartTable();
  b.AddOffset(f::field::name, name);
  b.Add<uint8_t>(f::field::nullable, fld.nullable);
  b.Add<uint8_t>(f::field::type_type, tag);
  b.AddOffset(f::field::type, type);
  b.AddOffset(f::field::children, children);
  if (md != 0) b.AddOffset(f::field::custom_metadata, md);
  return b.EndTable();
}

Off WriteSchema(fb::Builder& b, const Schema& s) {
  std::vector<Off> fields;
  for (const Field& fld : s.fields()) fields.push_back(WriteField(b, fld));
  const Off v = b.CreateOffsetVector(fields);
  const Off md = WriteKeyValues(b, s.metadata());
  b.StartTable();
  b.Add<int16_t>(f::schema::endianness, f::kLittle);
  b.AddOffset(f::schema::fields, v);
  if (md != 0) b.AddOffset(f::schema::custom_metadata, md);
  return b.EndTable();
}

std::vector<uint8_t> MessageBytes(fb::Builder& b, uint8_t header_type, Off header, int64_t body_length) {
  b.StartTable();
  b.Add<int64_t>(f::message::body_length, body_length);
  b.AddOffset(f::message::header, header);
  b.Add<int16_t>(f::message::version, f::kV5);
  b.Add<uint8_t>(f::message::header_type, header_type);
  return b.Finish(b.EndTable());
}

// A batch's field nodes and buffers in Arrow's depth-first order, each buffer's bytes starting at
// the array's offset: borrowed from the array where they can be, else rebuilt (a bitmap that does
// not start on a byte, offsets that do not start at 0).
class BodyAssembler {
 public:
  explicit BodyAssembler(MemoryPool* pool) : pool_(pool) {}

  Status Add(const std::shared_ptr<ArrayData>& d) {
    if (d->type->id() == TypeId::kDenseUnion) return AddUnion(*d);
    const int64_t nulls = d->GetNullCount();
    nodes_.push_back({d->length, nulls});
    if (nulls == 0) {
      pieces_.push_back({nullptr, 0});
    } else {
      QUIVER_RETURN_NOT_OK(Bits(d->validity(), d->offset, d->length));
    }
    const int64_t off = d->offset, len = d->length;
    switch (d->type->id()) {
      case TypeId::kBool:
        return Bits(d->buffers[1]->data(), off, len);
      case TypeId::kString:
      case TypeId::kBinary: {
        QUIVER_ASSIGN_OR_RETURN(auto range, Offsets(*d));
        pieces_.push_back({d->buffers[2]->data() + range.first, range.second - range.first});
        return Status::OK();
      }
      case TypeId::kList:
      case TypeId::kMap: {
        QUIVER_ASSIGN_OR_RETURN(auto range, Offsets(*d));
        Array child = Array(d->children[0]).Slice(range.first, range.second - range.first);
        return Add(child.data());
      }
      case TypeId::kStruct: {
        StructArray s{Array(d)};
        for (int i = 0; i < s.num_fields(); ++i) QUIVER_RETURN_NOT_OK(Add(s.field(i).data()));
        return Status::OK();
      }
      default: {
        const int w = d->type->byte_width();
        pieces_.push_back({d->buffers[1]->data() + off * w, len * w});
        return Status::OK();
      }
    }
  }

  std::vector<f::FieldNode>& nodes() { return nodes_; }
  std::vector<IpcWriter::Piece>& pieces() { return pieces_; }
  std::vector<std::shared_ptr<Buffer>>& keep() { return keep_; }

 private:
  // A dense union (metadata V5): no validity buffer (its null slots point at null member
  // entries), the slice's type codes and offsets, and every member whole (the offsets index it).
  Status AddUnion(const ArrayData& d) {
    nodes_.push_back({d.length, 0});
    pieces_.push_back({d.buffers[1]->data() + d.offset, d.length});
    pieces_.push_back({d.buffers[2]->data() + d.offset * 4, d.length * 4});
    for (const auto& c : d.children) QUIVER_RETURN_NOT_OK(Add(c));
    return Status::OK();
  }

  Status Bits(const uint8_t* bits, int64_t offset, int64_t length) {
    const int64_t bytes = bit_util::BytesForBits(length);
    if (offset % 8 == 0) {
      pieces_.push_back({bits + offset / 8, bytes});
      return Status::OK();
    }
    QUIVER_ASSIGN_OR_RETURN(auto b, Buffer::AllocateZeroed(bytes, pool_));
    bit_util::CopyBitmap(bits, offset, length, b->mutable_data(), 0);
    pieces_.push_back({b->data(), bytes});
    keep_.push_back(std::move(b));
    return Status::OK();
  }

  // The offsets piece, rebased to 0 when the slice does not start there; returns the value
  // range [first, last) they cover.
  Result<std::pair<int64_t, int64_t>> Offsets(const ArrayData& d) {
    const int32_t* o = d.buffers[1]->data_as<int32_t>() + d.offset;
    const int64_t n = d.length + 1;
    if (d.length == 0) {
      // An empty array covers no values, whatever its one offset says (Validate does not bound
      // it): write a zero and slice its child or bytes at 0.
      static constexpr int32_t kZero = 0;
      pieces_.push_back({reinterpret_cast<const uint8_t*>(&kZero), 4});
      return std::pair<int64_t, int64_t>{0, 0};
    }
    if (o[0] == 0) {
      pieces_.push_back({reinterpret_cast<const uint8_t*>(o), n * 4});
    } else {
      QUIVER_ASSIGN_OR_RETURN(auto b, Buffer::Allocate(n * 4, pool_));
      int32_t* out = b->mutable_data_as<int32_t>();
      for (int64_t i = 0; i < n; ++i) out[i] = o[i] - o[0];
      pieces_.push_back({b->data(), n * 4});
      keep_.push_back(std::move(b));
    }
    return std::pair<int64_t, int64_t>{o[0], o[d.length]};
  }

  MemoryPool* pool_;
  std::vector<f::FieldNode> nodes_;
  std::vector<IpcWriter::Piece> pieces_;
  std::vector<std::shared_ptr<Buffer>> keep_;
};

}  // namespace

Result<BodyCompression> BodyCompressionFromName(std::string_view name) {
  std::string s(name);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "none" || s == "uncompressed") return BodyCompression::kNone;
  if (s == "lz4" || s == "lz4_frame") return BodyCompression::kLz4Frame;
  if (s == "zstd") return BodyCompression::kZstd;
  return Status::Invalid(fmt::format("Arrow IPC compression '{}' is not one of none, lz4 (LZ4_FRAME), zstd", name));
}

IpcWriter::~IpcWriter() {
  if (!finished_ && target_) target_->Abandon();
}

Result<std::unique_ptr<IpcWriter>> IpcWriter::Open(const std::string& path, SchemaPtr schema, IpcWriteOptions options) {
  auto w = std::unique_ptr<IpcWriter>(new IpcWriter());
  QUIVER_ASSIGN_OR_RETURN(w->target_, io::OutputTarget::Open(path));
  w->out_ = w->target_->stream();
  w->schema_ = std::move(schema);
  w->options_ = options;
  QUIVER_RETURN_NOT_OK(w->Start());
  return w;
}

Result<std::unique_ptr<IpcWriter>> IpcWriter::Make(io::OutputStream* out, SchemaPtr schema, IpcWriteOptions options) {
  auto w = std::unique_ptr<IpcWriter>(new IpcWriter());
  w->out_ = out;
  w->schema_ = std::move(schema);
  w->options_ = options;
  QUIVER_RETURN_NOT_OK(w->Start());
  return w;
}

Status IpcWriter::Start() {
  if (options_.file_format) {
    static constexpr char kHead[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
    QUIVER_RETURN_NOT_OK(out_->Write(kHead, 8));
  }
  fb::Builder b;
  const Off s = WriteSchema(b, *schema_);
  return WriteMessage(MessageBytes(b, f::kSchema, s, 0), {}, 0, false);
}

Status IpcWriter::WriteMessage(const std::vector<uint8_t>& metadata, const std::vector<Piece>& body,
                               int64_t body_length, bool record_block) {
  static constexpr uint8_t kZeros[kBufferPadding] = {};
  const int64_t start = out_->Tell();
  const int64_t padded = bit_util::RoundUp(static_cast<int64_t>(metadata.size()), 8);
  const uint32_t head[2] = {f::kContinuation, static_cast<uint32_t>(padded)};
  QUIVER_RETURN_NOT_OK(out_->Write(head, 8));
  QUIVER_RETURN_NOT_OK(out_->Write(metadata.data(), static_cast<int64_t>(metadata.size())));
  QUIVER_RETURN_NOT_OK(out_->Write(kZeros, padded - static_cast<int64_t>(metadata.size())));
  for (const Piece& p : body) {
    if (p.length > 0) QUIVER_RETURN_NOT_OK(out_->Write(p.data, p.length));
    QUIVER_RETURN_NOT_OK(out_->Write(kZeros, bit_util::RoundUp(p.length, kBufferPadding) - p.length));
  }
  if (record_block) blocks_.push_back({start, static_cast<int32_t>(8 + padded), body_length});
  return Status::OK();
}

Status IpcWriter::Write(const std::shared_ptr<RecordBatch>& batch) {
  const int64_t rows = options_.batch_rows;
  if (rows <= 0) return WriteBatch(*batch);
  for (int64_t at = 0, n = batch->num_rows(); at < n;) {
    const int64_t take = std::min(n - at, rows - pending_rows_);
    if (take == rows) {
      QUIVER_RETURN_NOT_OK(WriteBatch(*batch->Slice(at, take)));  // a whole batch: no copy
    } else {
      pending_.push_back(batch->Slice(at, take));
      pending_rows_ += take;
      if (pending_rows_ == rows) QUIVER_RETURN_NOT_OK(FlushPending());
    }
    at += take;
  }
  return Status::OK();
}

Status IpcWriter::FlushPending() {
  if (pending_.empty()) return Status::OK();
  std::shared_ptr<RecordBatch> joined = pending_.front();
  if (pending_.size() > 1) {
    QUIVER_ASSIGN_OR_RETURN(joined, ConcatenateBatches(schema_, pending_));
  }
  pending_.clear();
  pending_rows_ = 0;
  return WriteBatch(*joined);
}

Status IpcWriter::WriteBatch(const RecordBatch& batch) {
  BodyAssembler body(default_memory_pool());
  for (const Array& c : batch.columns()) QUIVER_RETURN_NOT_OK(body.Add(c.data()));
  std::vector<Piece>& pieces = body.pieces();
  if (options_.compression != BodyCompression::kNone) {
    // Each buffer: its uncompressed length (int64), then the codec's frame; or -1 and the bytes
    // as they are when compressing would not make them smaller.
    for (Piece& p : pieces) {
      if (p.length == 0) continue;
      BufferBuilder out;
      const int64_t raw = p.length;
      QUIVER_RETURN_NOT_OK(out.AppendValue(raw));
      std::span<const uint8_t> in(p.data, static_cast<size_t>(p.length));
      if (options_.compression == BodyCompression::kLz4Frame) {
        QUIVER_RETURN_NOT_OK(compress::CompressLz4Frame(in, &out));
      } else {
        QUIVER_RETURN_NOT_OK(compress::Compress(compress::Codec::kZstd, compress::kDefaultCompressionLevel, in, &out));
      }
      if (out.size() >= raw + 8) {
        out.Clear();
        QUIVER_RETURN_NOT_OK(out.AppendValue(int64_t{-1}));
        QUIVER_RETURN_NOT_OK(out.Append(p.data, p.length));
      }
      QUIVER_ASSIGN_OR_RETURN(auto b, out.Finish());
      p = {b->data(), b->size()};
      body.keep().push_back(std::move(b));
    }
  }
  std::vector<f::BufferRef> refs;
  int64_t pos = 0;
  for (const Piece& p : pieces) {
    refs.push_back({pos, p.length});
    pos += bit_util::RoundUp(p.length, kBufferPadding);
  }
  fb::Builder b;
  const Off nodes = b.CreateVector(body.nodes());
  const Off buffers = b.CreateVector(refs);
  Off compression = 0;
  if (options_.compression != BodyCompression::kNone) {
    b.StartTable();
    b.Add<int8_t>(f::body_compression::codec, options_.compression == BodyCompression::kLz4Frame ? f::kLz4Frame : f::kZstd);
    b.Add<int8_t>(f::body_compression::method, 0);
    compression = b.EndTable();
  }
  b.StartTable();
  b.Add<int64_t>(f::record_batch::length, batch.num_rows());
  b.AddOffset(f::record_batch::nodes, nodes);
  b.AddOffset(f::record_batch::buffers, buffers);
  if (compression != 0) b.AddOffset(f::record_batch::compression, compression);
  const Off rb = b.EndTable();
  return WriteMessage(MessageBytes(b, f::kRecordBatch, rb, pos), pieces, pos, true);
}

Status IpcWriter::Finish() {
  QUIVER_RETURN_NOT_OK(FlushPending());
  const uint32_t eos[2] = {f::kContinuation, 0};
  QUIVER_RETURN_NOT_OK(out_->Write(eos, 8));
  if (options_.file_format) {
    fb::Builder b;
    const Off schema = WriteSchema(b, *schema_);
    std::vector<f::Block> blocks;
    for (const auto& k : blocks_) blocks.push_back({k.offset, k.meta_length, 0, k.body_length});
    const Off batches = b.CreateVector(blocks);
    const Off dictionaries = b.CreateVector(std::vector<f::Block>{});
    b.StartTable();
    b.AddOffset(f::footer::schema, schema);
    b.AddOffset(f::footer::dictionaries, dictionaries);
    b.AddOffset(f::footer::record_batches, batches);
    b.Add<int16_t>(f::footer::version, f::kV5);
    const std::vector<uint8_t> footer = b.Finish(b.EndTable());
    QUIVER_RETURN_NOT_OK(out_->Write(footer.data(), static_cast<int64_t>(footer.size())));
    const int32_t n = static_cast<int32_t>(footer.size());
    QUIVER_RETURN_NOT_OK(out_->Write(&n, 4));
    QUIVER_RETURN_NOT_OK(out_->Write(f::kFileMagic, 6));
  }
  bytes_ = out_->Tell();
  finished_ = true;
  if (target_) return target_->Commit();
  return out_->Flush();
}

void IpcWriter::Abort() {
  if (bytes_ < 0) bytes_ = out_->Tell();
  finished_ = true;
  if (target_) target_->Abandon();
}

}  // namespace quiver::ipc
