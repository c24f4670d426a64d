#include "quiver/ipc/reader.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/gather.h"
#include "quiver/compress/codec.h"
#include "quiver/io/file.h"
#include "quiver/io/stdin.h"
#include "quiver/ipc/flatbuffers.h"
#include "quiver/ipc/format.h"

namespace quiver::ipc {

// One field of the schema as read: the quiver field (for a dictionary-encoded field, its value
// type) and what decoding its buffers needs beyond it.
struct FieldInfo {
  Field field;
  uint8_t tag = 0;       // the Arrow type of the values
  bool large = false;    // 64-bit offsets, narrowed on reading
  int32_t list_size = 0; // FixedSizeList: read as a list of this many entries per slot
  bool view = false;     // Utf8View/BinaryView: views and variadic buffers, read into offsets
  bool sparse = false;   // a sparse Union: read as a dense one whose offsets are the slot numbers
  int64_t dict_id = -1;  // dictionary-encoded when >= 0
  int index_bits = 32;
  bool index_signed = true;
  std::vector<FieldInfo> children;
};

namespace {

namespace f = format;

// Past this a buffer's stated uncompressed size is refused rather than allocated.
constexpr int64_t kMaxUncompressedBuffer = int64_t{1} << 32;

}  // namespace

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

namespace {

class MemorySource final : public MessageSource {
 public:
  MemorySource(std::shared_ptr<Buffer> bytes, int64_t pos) : bytes_(std::move(bytes)), pos_(pos) {}
  Result<std::shared_ptr<Buffer>> Read(int64_t n) override {
    const int64_t take = std::min(n, bytes_->size() - pos_);
    auto b = Buffer::Slice(bytes_, pos_, take);
    pos_ += take;
    return b;
  }
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
  Result<std::shared_ptr<Buffer>> Read(int64_t n) override {
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
  int64_t position() const override { return pos_; }

 private:
  MemoryPool* pool_;
  int64_t pos_ = 0;
};

Result<std::shared_ptr<Buffer>> ReadExactly(MessageSource* src, int64_t n, const char* what) {
  const int64_t at = src->position();
  QUIVER_ASSIGN_OR_RETURN(auto b, src->Read(n));
  if (b->size() != n) {
    return Status::Corrupt(fmt::format("Arrow IPC {} at byte {} is cut short: {} of {} bytes", what, at, b->size(), n));
  }
  return b;
}

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

KeyValueMetadata ReadMetadata(const fb::Table& t, int slot) {
  KeyValueMetadata out;
  fb::Vector v = t.VectorOf(slot, 4);
  for (uint32_t i = 0; i < v.size(); ++i) {
    fb::Table kv = v.TableAt(i);
    out.emplace_back(std::string(kv.String(f::key_value::key)), std::string(kv.String(f::key_value::value)));
  }
  return out;
}

quiver::TimeUnit UnitOf(int16_t u) {
  switch (u) {
    case f::kSecond: return quiver::TimeUnit::kSecond;
    case f::kMillisecond: return quiver::TimeUnit::kMilli;
    case f::kMicrosecond: return quiver::TimeUnit::kMicro;
    default: return quiver::TimeUnit::kNano;
  }
}

Status Unsupported(const std::string& path, std::string_view what) {
  return Status::NotImplemented(fmt::format("field '{}': {} is not supported by quiver", path, what));
}

Result<FieldInfo> ReadField(const fb::Table& t, const std::string& parent, int depth) {
  FieldInfo info;
  const std::string name(t.String(f::field::name));
  const std::string path = parent.empty() ? name : parent + "." + name;
  if (depth > fb::kMaxDepth) return Status::Corrupt(fmt::format("field '{}' is nested deeper than {}", path, fb::kMaxDepth));
  info.tag = t.Scalar<uint8_t>(f::field::type_type, 0);
  fb::Table type = t.Child(f::field::type);
  fb::Vector kids = t.VectorOf(f::field::children, 4);
  std::vector<Field> child_fields;
  for (uint32_t i = 0; i < kids.size(); ++i) {
    QUIVER_ASSIGN_OR_RETURN(FieldInfo c, ReadField(kids.TableAt(i), path, depth + 1));
    child_fields.push_back(c.field);
    info.children.push_back(std::move(c));
  }
  if (!t.context()->ok()) return t.context()->status();
  fb::Table dict = t.Child(f::field::dictionary);
  if (dict.valid()) {
    info.dict_id = dict.Scalar<int64_t>(f::dictionary_encoding::id, 0);
    fb::Table index = dict.Child(f::dictionary_encoding::index_type);
    if (index.valid()) {
      info.index_bits = index.Scalar<int32_t>(f::int_type::bit_width, 0);
      info.index_signed = index.Bool(f::int_type::is_signed);
    }
    if (info.index_bits != 8 && info.index_bits != 16 && info.index_bits != 32 && info.index_bits != 64) {
      return Status::Corrupt(fmt::format("field '{}': dictionary index width of {} bits", path, info.index_bits));
    }
  }
  auto need_children = [&](size_t n) -> Status {
    if (child_fields.size() != n) {
      return Status::Corrupt(fmt::format("field '{}': an Arrow {} has {} children, not {}", path,
                                         f::TypeTagName(info.tag), child_fields.size(), n));
    }
    return Status::OK();
  };
  if (!type.valid() && info.tag != f::kNull) {
    if (!t.context()->ok()) return t.context()->status();
    return Status::Corrupt(fmt::format("field '{}' has no type", path));
  }
  TypePtr ty;
  switch (info.tag) {
    case f::kInt: {
      const int bits = type.Scalar<int32_t>(f::int_type::bit_width, 0);
      const bool sign = type.Bool(f::int_type::is_signed);
      switch (bits) {
        case 8: ty = sign ? int8() : uint8(); break;
        case 16: ty = sign ? int16() : uint16(); break;
        case 32: ty = sign ? int32() : uint32(); break;
        case 64: ty = sign ? int64() : uint64(); break;
        default: return Status::Corrupt(fmt::format("field '{}': integer width of {} bits", path, bits));
      }
      break;
    }
    case f::kFloatingPoint:
      switch (type.Scalar<int16_t>(f::floating_point::precision, f::kHalf)) {
        case f::kHalf: ty = float16(); break;
        case f::kSingle: ty = float32(); break;
        case f::kDouble: ty = float64(); break;
        default: return Status::Corrupt(fmt::format("field '{}': unknown floating-point precision", path));
      }
      break;
    case f::kBool: ty = boolean(); break;
    case f::kUtf8: ty = utf8(); break;
    case f::kBinary: ty = binary(); break;
    case f::kLargeUtf8: ty = utf8(); info.large = true; break;
    case f::kLargeBinary: ty = binary(); info.large = true; break;
    case f::kUtf8View: ty = utf8(); info.view = true; break;
    case f::kBinaryView: ty = binary(); info.view = true; break;
    case f::kDecimal: {
      const int bits = type.Scalar<int32_t>(f::decimal::bit_width, 128);
      const int precision = type.Scalar<int32_t>(f::decimal::precision, 0);
      const int scale = type.Scalar<int32_t>(f::decimal::scale, 0);
      if (bits != 128) return Unsupported(path, fmt::format("decimal{}", bits));
      if (precision < 1 || precision > 38 || scale > precision) {
        return Unsupported(path, fmt::format("decimal128 with precision {} and scale {}", precision, scale));
      }
      ty = decimal128(precision, scale);
      break;
    }
    case f::kDate:
      if (type.Scalar<int16_t>(f::date::unit, f::kDateMillisecond) != f::kDay) return Unsupported(path, "date64 (milliseconds)");
      ty = date32();
      break;
    case f::kTime: {
      const int16_t unit = type.Scalar<int16_t>(f::time::unit, f::kMillisecond);
      const int bits = type.Scalar<int32_t>(f::time::bit_width, 32);
      if (bits == 32 && (unit == f::kSecond || unit == f::kMillisecond)) {
        ty = time32(UnitOf(unit));
      } else if (bits == 64 && (unit == f::kMicrosecond || unit == f::kNanosecond)) {
        ty = time64(UnitOf(unit));
      } else {
        return Status::Corrupt(fmt::format("field '{}': time of {} bits in unit {}", path, bits, unit));
      }
      break;
    }
    case f::kTimestamp: {
      const int16_t unit = type.Scalar<int16_t>(f::timestamp::unit, f::kSecond);
      if (unit < f::kSecond || unit > f::kNanosecond) return Status::Corrupt(fmt::format("field '{}': timestamp unit {}", path, unit));
      ty = timestamp(UnitOf(unit), std::string(type.String(f::timestamp::timezone)));
      break;
    }
    case f::kFixedSizeBinary: {
      const int width = type.Scalar<int32_t>(f::fixed_size_binary::byte_width, 0);
      // quiver counts a type's width in bits in an int.
      if (width <= 0 || width > INT32_MAX / 8) {
        return Status::Corrupt(fmt::format("field '{}': fixed-size binary of width {}", path, width));
      }
      ty = fixed_size_binary(width);
      break;
    }
    case f::kList:
    case f::kLargeList:
      QUIVER_RETURN_NOT_OK(need_children(1));
      ty = list(child_fields[0]);
      info.large = info.tag == f::kLargeList;
      break;
    case f::kFixedSizeList: {
      QUIVER_RETURN_NOT_OK(need_children(1));
      info.list_size = type.Scalar<int32_t>(f::fixed_size_list::list_size, 0);
      if (info.list_size < 0) return Status::Corrupt(fmt::format("field '{}': fixed-size list of size {}", path, info.list_size));
      ty = list(child_fields[0]);
      break;
    }
    case f::kStruct: ty = struct_(child_fields); break;
    case f::kMap: {
      QUIVER_RETURN_NOT_OK(need_children(1));
      const Field& entries = child_fields[0];
      if (entries.type->id() != TypeId::kStruct || entries.type->num_fields() != 2) {
        return Status::Corrupt(fmt::format("field '{}': a map's entries are not a struct of key and value", path));
      }
      DataType::Params p;
      p.keys_sorted = type.Bool(f::map::keys_sorted);
      p.fields = child_fields;
      ty = std::make_shared<DataType>(TypeId::kMap, std::move(p));
      break;
    }
    case f::kUnion: {
      const int16_t mode = type.Scalar<int16_t>(f::union_type::mode, f::kSparse);
      if (mode != f::kSparse && mode != f::kDense) return Status::Corrupt(fmt::format("field '{}': union mode {}", path, mode));
      info.sparse = mode == f::kSparse;
      // Without typeIds the codes are the members' positions.
      fb::Vector ids = type.VectorOf(f::union_type::type_ids, 4);
      std::vector<int8_t> codes;
      if (child_fields.size() > 128) return Status::Corrupt(fmt::format("field '{}': a union of {} members", path, child_fields.size()));
      for (size_t i = 0; i < child_fields.size(); ++i) {
        const int32_t c = ids.size() == 0 ? static_cast<int32_t>(i) : i < ids.size() ? ids.StructAt<int32_t>(static_cast<uint32_t>(i)) : -1;
        if (c < 0 || c > 127 || std::count(codes.begin(), codes.end(), static_cast<int8_t>(c)) != 0) {
          return Status::Corrupt(fmt::format("field '{}': union type code {} for member {} (0..127, distinct, one per member)", path, c, i));
        }
        codes.push_back(static_cast<int8_t>(c));
      }
      if (ids.size() != 0 && ids.size() != child_fields.size()) {
        return Status::Corrupt(fmt::format("field '{}': {} union type codes for {} members", path, ids.size(), child_fields.size()));
      }
      ty = dense_union(child_fields, std::move(codes));
      break;
    }
    default:
      return Unsupported(path, fmt::format("the Arrow type {}", f::TypeTagName(info.tag)));
  }
  if (!t.context()->ok()) return t.context()->status();
  info.field = field(name, std::move(ty), t.Bool(f::field::nullable), ReadMetadata(t, f::field::custom_metadata));
  return info;
}

void CollectDictionaries(const std::vector<FieldInfo>& fields, std::map<int64_t, const FieldInfo*>* out) {
  for (const auto& fi : fields) {
    if (fi.dict_id >= 0) out->emplace(fi.dict_id, &fi);
    CollectDictionaries(fi.children, out);
  }
}

Status ReadSchema(const fb::Table& s, std::vector<FieldInfo>* fields, SchemaPtr* schema) {
  if (s.Scalar<int16_t>(f::schema::endianness, f::kLittle) != f::kLittle) {
    return Status::NotImplemented("the Arrow IPC data is big-endian; quiver reads little-endian data only");
  }
  fb::Vector v = s.VectorOf(f::schema::fields, 4);
  std::vector<Field> out;
  for (uint32_t i = 0; i < v.size(); ++i) {
    QUIVER_ASSIGN_OR_RETURN(FieldInfo fi, ReadField(v.TableAt(i), "", 0));
    out.push_back(fi.field);
    fields->push_back(std::move(fi));
  }
  KeyValueMetadata md = ReadMetadata(s, f::schema::custom_metadata);
  if (!s.context()->ok()) return s.context()->status();
  *schema = std::make_shared<Schema>(std::move(out), std::move(md));
  return Status::OK();
}

// Decodes one RecordBatch table's nodes and buffers into arrays, field by field in schema order.
class BatchDecoder {
 public:
  BatchDecoder(const fb::Table& rb, std::shared_ptr<Buffer> body, const std::map<int64_t, Array>* dictionaries,
               MemoryPool* pool, int16_t version)
      : body_(std::move(body)), dictionaries_(dictionaries), pool_(pool), version_(version) {
    length_ = rb.Scalar<int64_t>(f::record_batch::length, 0);
    nodes_ = rb.VectorOf(f::record_batch::nodes, sizeof(f::FieldNode));
    variadic_ = rb.VectorOf(f::record_batch::variadic_buffer_counts, sizeof(int64_t));
    buffers_ = rb.VectorOf(f::record_batch::buffers, sizeof(f::BufferRef));
    fb::Table c = rb.Child(f::record_batch::compression);
    if (c.valid()) codec_ = c.Scalar<int8_t>(f::body_compression::codec, f::kLz4Frame);
  }
  int64_t length() const { return length_; }

  Status CheckHeader() const {
    if (length_ < 0) return Status::Corrupt(fmt::format("record batch length {}", length_));
    if (codec_ != -1 && codec_ != f::kLz4Frame && codec_ != f::kZstd) {
      return Status::NotImplemented(fmt::format("Arrow IPC body compression codec {}", codec_));
    }
    return Status::OK();
  }

  Result<std::shared_ptr<ArrayData>> Decode(const FieldInfo& fi, bool use_dictionary, int depth) {
    if (depth > fb::kMaxDepth) return Status::Corrupt("arrays nested too deep");
    if (next_node_ >= nodes_.size()) return Status::Corrupt("the record batch has fewer field nodes than its schema has fields");
    const auto node = nodes_.StructAt<f::FieldNode>(next_node_++);
    if (node.length < 0 || node.null_count < 0 || node.null_count > node.length || node.length > INT32_MAX) {
      return Status::Corrupt(fmt::format("field '{}': node of length {} with {} nulls", fi.field.name, node.length,
                                         node.null_count));
    }
    auto d = std::make_shared<ArrayData>();
    d->length = node.length;
    d->null_count = node.null_count;
    if (fi.tag == f::kUnion && fi.dict_id < 0) return DecodeUnion(fi, std::move(d), depth);
    QUIVER_ASSIGN_OR_RETURN(auto validity, NextBuffer());
    d->buffers.push_back(node.null_count == 0 ? nullptr : validity);
    if (node.null_count > 0 && validity->size() < bit_util::BytesForBits(node.length)) {
      return Status::Corrupt(fmt::format("field '{}': validity of {} bytes for {} slots", fi.field.name,
                                         validity->size(), node.length));
    }
    if (fi.dict_id >= 0 && use_dictionary) return DecodeDictionary(fi, d);
    d->type = fi.field.type;
    switch (fi.field.type->id()) {
      case TypeId::kString:
      case TypeId::kBinary: {
        if (fi.view) {
          QUIVER_RETURN_NOT_OK(Views(fi, d.get()));
          break;
        }
        QUIVER_ASSIGN_OR_RETURN(auto offsets, Offsets(fi, node.length));
        QUIVER_ASSIGN_OR_RETURN(auto data, NextBuffer());
        d->buffers.push_back(std::move(offsets));
        d->buffers.push_back(std::move(data));
        break;
      }
      case TypeId::kList:
      case TypeId::kMap: {
        std::shared_ptr<Buffer> offsets;
        if (fi.tag == f::kFixedSizeList) {
          QUIVER_ASSIGN_OR_RETURN(offsets, FixedSizeOffsets(fi, node.length));
        } else {
          QUIVER_ASSIGN_OR_RETURN(offsets, Offsets(fi, node.length));
        }
        d->buffers.push_back(std::move(offsets));
        QUIVER_ASSIGN_OR_RETURN(auto child, Decode(fi.children[0], true, depth + 1));
        d->children.push_back(std::move(child));
        break;
      }
      case TypeId::kStruct:
        for (const auto& c : fi.children) {
          QUIVER_ASSIGN_OR_RETURN(auto child, Decode(c, true, depth + 1));
          d->children.push_back(std::move(child));
        }
        break;
      default: {
        QUIVER_ASSIGN_OR_RETURN(auto values, NextBuffer());
        d->buffers.push_back(std::move(values));
      }
    }
    return d;
  }

 private:
  Result<std::shared_ptr<Buffer>> NextBuffer() {
    if (next_buffer_ >= buffers_.size()) return Status::Corrupt("the record batch has fewer buffers than its schema needs");
    const auto ref = buffers_.StructAt<f::BufferRef>(next_buffer_++);
    if (ref.offset < 0 || ref.length < 0 || ref.offset > body_->size() || ref.length > body_->size() - ref.offset) {
      return Status::Corrupt(fmt::format("buffer {} at {} of {} bytes lies outside the body of {} bytes", next_buffer_ - 1,
                                         ref.offset, ref.length, body_->size()));
    }
    if (ref.length == 0) return Buffer::Slice(body_, ref.offset, 0);
    if (codec_ == -1) return Aligned(Buffer::Slice(body_, ref.offset, ref.length));
    if (ref.length < 8) return Status::Corrupt(fmt::format("compressed buffer of {} bytes has no length prefix", ref.length));
    int64_t raw;
    std::memcpy(&raw, body_->data() + ref.offset, 8);
    auto payload = std::span<const uint8_t>(body_->data() + ref.offset + 8, static_cast<size_t>(ref.length - 8));
    if (raw == -1) return Aligned(Buffer::Slice(body_, ref.offset + 8, ref.length - 8));
    // A frame expands at most so far (LZ4 about 255 times: a length byte per 255 bytes of a
    // match; ZSTD 32,768 times: a 128 KiB run in a 4-byte block), so a claim past that is refused
    // before anything is allocated for it.
    const int64_t max_ratio = codec_ == f::kLz4Frame ? 256 : 32768;
    if (raw < 0 || raw > kMaxUncompressedBuffer || raw > (ref.length - 8) * max_ratio + 64) {
      return Status::Corrupt(fmt::format("compressed buffer of {} bytes claims {} bytes uncompressed", ref.length - 8, raw));
    }
    QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(raw, pool_));
    std::span<uint8_t> dst(out->mutable_data(), static_cast<size_t>(raw));
    const Status st = codec_ == f::kLz4Frame ? compress::DecompressLz4Frame(payload, dst)
                                              : compress::Decompress(compress::Codec::kZstd, payload, dst);
    if (!st.ok()) {
      std::string why = fmt::format("compressed buffer {} ({}, {} bytes) does not expand to the {} bytes its length prefix gives",
                                    next_buffer_ - 1, codec_ == f::kLz4Frame ? "LZ4_FRAME" : "ZSTD", payload.size(), raw);
      // The one writer bug seen in the wild, named so that its files are not taken for damage.
      if (raw == static_cast<int64_t>(payload.size())) {
        why += ": the prefix holds the compressed size, where the format puts the uncompressed one (apache-arrow for "
               "JavaScript 21.2 and earlier writes that)";
      }
      return Status::Corrupt(why + " (" + st.message() + ")");
    }
    return out;
  }

  // Borrowed when 8-byte aligned (every width quiver reads through), copied otherwise.
  Result<std::shared_ptr<Buffer>> Aligned(std::shared_ptr<Buffer> b) {
    if (reinterpret_cast<uintptr_t>(b->data()) % 8 == 0) return b;
    return Buffer::CopyOf(b->span(), pool_);
  }

  // A view-typed column (16-byte views: a length, then up to 12 bytes inline, or a prefix, a
  // data buffer's index and an offset into it) copied into offsets and bytes.
  Status Views(const FieldInfo& fi, ArrayData* d) {
    QUIVER_ASSIGN_OR_RETURN(auto views, NextBuffer());
    if (next_variadic_ >= variadic_.size()) {
      return Status::Corrupt(fmt::format("field '{}': no variadic buffer count for a view column", fi.field.name));
    }
    const int64_t count = variadic_.StructAt<int64_t>(next_variadic_++);
    if (count < 0 || count > static_cast<int64_t>(buffers_.size())) {
      return Status::Corrupt(fmt::format("field '{}': {} variadic buffers", fi.field.name, count));
    }
    std::vector<std::shared_ptr<Buffer>> data;
    for (int64_t i = 0; i < count; ++i) {
      QUIVER_ASSIGN_OR_RETURN(auto b, NextBuffer());
      data.push_back(std::move(b));
    }
    const int64_t n = d->length;
    if (views->size() < n * 16) {
      return Status::Corrupt(fmt::format("field '{}': views buffer of {} bytes for {} slots", fi.field.name, views->size(), n));
    }
    QUIVER_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate((n + 1) * 4, pool_));
    int32_t* o = offsets->mutable_data_as<int32_t>();
    const uint8_t* valid = d->validity();
    BufferBuilder bytes(pool_);
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t* v = views->data() + i * 16;
      int32_t len, index, offset;
      std::memcpy(&len, v, 4);
      if (valid != nullptr && !bit_util::GetBit(valid, i)) len = 0;
      if (len < 0 || bytes.size() + len > INT32_MAX) {
        return Status::Corrupt(fmt::format("field '{}': view {} of length {}", fi.field.name, i, len));
      }
      if (len <= 12) {
        QUIVER_RETURN_NOT_OK(bytes.Append(v + 4, len));
      } else {
        std::memcpy(&index, v + 8, 4);
        std::memcpy(&offset, v + 12, 4);
        if (index < 0 || index >= count || offset < 0 || offset > data[static_cast<size_t>(index)]->size() - len) {
          return Status::Corrupt(fmt::format("field '{}': view {} points outside its data buffers", fi.field.name, i));
        }
        QUIVER_RETURN_NOT_OK(bytes.Append(data[static_cast<size_t>(index)]->data() + offset, len));
      }
      o[i + 1] = static_cast<int32_t>(bytes.size());
    }
    QUIVER_ASSIGN_OR_RETURN(auto chars, bytes.Finish());
    d->buffers.push_back(std::move(offsets));
    d->buffers.push_back(std::move(chars));
    return Status::OK();
  }

  // A union: no validity buffer since V5 (one before, which must then mark no nulls: a null
  // slot of an Arrow union is a null member entry); type codes; offsets, or for a sparse union
  // the slot numbers (its members are as long as it is), so that it reads as a dense union.
  Result<std::shared_ptr<ArrayData>> DecodeUnion(const FieldInfo& fi, std::shared_ptr<ArrayData> d, int depth) {
    if (version_ < f::kV5) {
      QUIVER_RETURN_NOT_OK(NextBuffer().status());
      if (d->null_count != 0) {
        return Status::NotImplemented(fmt::format("field '{}': a union with {} null slots in its own validity (Arrow before "
                                                  "1.0); quiver reads unions whose nulls are their members'", fi.field.name,
                                                  d->null_count));
      }
    }
    d->null_count = 0;
    d->type = fi.field.type;
    QUIVER_ASSIGN_OR_RETURN(auto codes, NextBuffer());
    std::shared_ptr<Buffer> offsets;
    if (fi.sparse) {
      QUIVER_ASSIGN_OR_RETURN(offsets, Buffer::Allocate(std::max<int64_t>(d->length * 4, 4), pool_));
      int32_t* o = offsets->mutable_data_as<int32_t>();
      for (int64_t i = 0; i < d->length; ++i) o[i] = static_cast<int32_t>(i);
    } else {
      QUIVER_ASSIGN_OR_RETURN(offsets, NextBuffer());
    }
    d->buffers = {nullptr, std::move(codes), std::move(offsets)};
    for (const auto& c : fi.children) {
      QUIVER_ASSIGN_OR_RETURN(auto child, Decode(c, true, depth + 1));
      if (fi.sparse && child->length < d->length) {
        return Status::Corrupt(fmt::format("field '{}': sparse union member of {} slots in a union of {}", fi.field.name,
                                           child->length, d->length));
      }
      d->children.push_back(std::move(child));
    }
    QUIVER_RETURN_NOT_OK_CTX(Array(d).Validate(), fmt::format("field '{}'", fi.field.name));
    return d;
  }

  // A fixed-size list's implied offsets: slot i starts at i * size.
  Result<std::shared_ptr<Buffer>> FixedSizeOffsets(const FieldInfo& fi, int64_t length) {
    if (length * int64_t{fi.list_size} > INT32_MAX) {
      return Status::NotImplemented(fmt::format("field '{}': a fixed-size list of more than 2^31 entries", fi.field.name));
    }
    QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate((length + 1) * 4, pool_));
    int32_t* o = out->mutable_data_as<int32_t>();
    for (int64_t i = 0; i <= length; ++i) o[i] = static_cast<int32_t>(i * fi.list_size);
    return out;
  }

  // 32-bit offsets as they are, 64-bit ones narrowed (they must fit). An empty array may come
  // without any offsets; quiver's always have the first.
  Result<std::shared_ptr<Buffer>> Offsets(const FieldInfo& fi, int64_t length) {
    QUIVER_ASSIGN_OR_RETURN(auto b, NextBuffer());
    if (length == 0 && b->size() < 4) return Buffer::AllocateZeroed(4, pool_);
    if (!fi.large) return b;
    if (b->size() < (length + 1) * 8) {
      return Status::Corrupt(fmt::format("field '{}': offsets buffer of {} bytes for {} slots", fi.field.name, b->size(), length));
    }
    QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate((length + 1) * 4, pool_));
    const int64_t* in = b->data_as<int64_t>();
    int32_t* o = out->mutable_data_as<int32_t>();
    int64_t bad = 0;
    for (int64_t i = 0; i <= length; ++i) {
      bad |= in[i] < 0 || in[i] > INT32_MAX;
      o[i] = static_cast<int32_t>(in[i]);
    }
    if (bad) {
      return Status::NotImplemented(fmt::format(
          "field '{}': offsets past 2 GiB in a large (64-bit offset) type are not supported by quiver", fi.field.name));
    }
    return out;
  }

  Result<std::shared_ptr<ArrayData>> DecodeDictionary(const FieldInfo& fi, std::shared_ptr<ArrayData> d) {
    auto it = dictionaries_->find(fi.dict_id);
    if (it == dictionaries_->end()) {
      return Status::Corrupt(fmt::format("field '{}' uses dictionary {}, which no DictionaryBatch before it defines",
                                         fi.field.name, fi.dict_id));
    }
    const Array& dict = it->second;
    QUIVER_ASSIGN_OR_RETURN(auto values, NextBuffer());
    const int width = fi.index_bits / 8;
    if (values->size() < d->length * width) {
      return Status::Corrupt(fmt::format("field '{}': dictionary indices of {} bytes for {} slots", fi.field.name,
                                         values->size(), d->length));
    }
    std::vector<int32_t> idx(static_cast<size_t>(d->length));
    const uint8_t* valid = d->validity();
    const uint8_t* p = values->data();
    int64_t bad = -1;
    for (int64_t i = 0; i < d->length; ++i) {
      int64_t v;
      switch (fi.index_bits) {
        case 8: v = fi.index_signed ? int64_t{static_cast<int8_t>(p[i])} : int64_t{p[i]}; break;
        case 16: { uint16_t u; std::memcpy(&u, p + 2 * i, 2); v = fi.index_signed ? int64_t{static_cast<int16_t>(u)} : int64_t{u}; break; }
        case 32: { uint32_t u; std::memcpy(&u, p + 4 * i, 4); v = fi.index_signed ? int64_t{static_cast<int32_t>(u)} : int64_t{u}; break; }
        default: { std::memcpy(&v, p + 8 * i, 8); if (!fi.index_signed && v < 0) v = INT64_MAX; }
      }
      if (valid != nullptr && !bit_util::GetBit(valid, i)) v = 0;
      else if (v < 0 || v >= dict.length()) bad = i;
      idx[static_cast<size_t>(i)] = static_cast<int32_t>(v);
    }
    if (bad >= 0) {
      return Status::Corrupt(fmt::format("field '{}': dictionary index at slot {} is outside the dictionary of {} values",
                                         fi.field.name, bad, dict.length()));
    }
    if (dict.length() == 0 && d->length > 0) {
      return Status::NotImplemented(fmt::format("field '{}': null slots over an empty dictionary", fi.field.name));
    }
    QUIVER_ASSIGN_OR_RETURN(Array taken, TakeAny(dict, idx));
    auto out = std::make_shared<ArrayData>(*taken.data());
    if (valid != nullptr) {
      QUIVER_ASSIGN_OR_RETURN(auto bits, Buffer::Allocate(bit_util::BytesForBits(d->length), pool_));
      bit_util::CopyBitmap(valid, 0, d->length, bits->mutable_data(), 0);
      if (const uint8_t* tv = out->validity()) {
        for (int64_t i = 0; i < d->length; ++i) {
          if (!bit_util::GetBit(tv, out->offset + i)) bit_util::ClearBit(bits->mutable_data(), i);
        }
      }
      if (out->offset != 0) {
        // Take returns offset 0 arrays; a bitmap at another offset is not expected.
        return Status::Invalid("internal: gathered dictionary values carry an offset");
      }
      out->buffers[0] = std::move(bits);
      out->null_count = ArrayData::kUnknownNullCount;
    }
    return out;
  }

  // Rows `idx` of `values` (any type): flat types through Take, nested ones by gathering their
  // children's rows.
  Result<Array> TakeAny(const Array& values, std::span<const int32_t> idx) {
    const auto& d = *values.data();
    if (idx.empty()) return values.Slice(0, 0);
    if (!d.type->is_nested()) return Take(values, idx, pool_);
    const int64_t n = static_cast<int64_t>(idx.size());
    auto out = std::make_shared<ArrayData>();
    out->type = d.type;
    out->length = n;
    out->null_count = ArrayData::kUnknownNullCount;
    std::shared_ptr<Buffer> bits;
    if (d.validity() != nullptr) {
      QUIVER_ASSIGN_OR_RETURN(bits, Buffer::AllocateZeroed(bit_util::BytesForBits(n), pool_));
      for (int64_t i = 0; i < n; ++i) {
        if (d.IsValid(idx[static_cast<size_t>(i)])) bit_util::SetBit(bits->mutable_data(), i);
      }
    }
    out->buffers.push_back(bits);
    if (d.type->id() == TypeId::kStruct) {
      StructArray s(values);
      for (int c = 0; c < s.num_fields(); ++c) {
        QUIVER_ASSIGN_OR_RETURN(Array child, TakeAny(s.field(c), idx));
        out->children.push_back(child.data());
      }
      return Array(out);
    }
    ListArray l(values);
    QUIVER_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate((n + 1) * 4, pool_));
    int32_t* o = offsets->mutable_data_as<int32_t>();
    std::vector<int32_t> rows;
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t r = idx[static_cast<size_t>(i)];
      for (int32_t k = l.value_offset(r); k < l.value_offset(r + 1); ++k) rows.push_back(k);
      if (rows.size() > INT32_MAX) return Status::Invalid("dictionary values expand past 2^31 list entries");
      o[i + 1] = static_cast<int32_t>(rows.size());
    }
    out->buffers.push_back(std::move(offsets));
    QUIVER_ASSIGN_OR_RETURN(Array child, TakeAny(l.values(), rows));
    out->children.push_back(child.data());
    return Array(out);
  }

  std::shared_ptr<Buffer> body_;
  const std::map<int64_t, Array>* dictionaries_;
  MemoryPool* pool_;
  int16_t version_;
  int64_t length_ = 0;
  fb::Vector nodes_, buffers_, variadic_;
  uint32_t next_node_ = 0, next_buffer_ = 0, next_variadic_ = 0;
  int8_t codec_ = -1;
};

}  // namespace

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
