#include "quiver/ipc/batch_decoder_internal.h"

#include <algorithm>
#include <climits>
#include <cstring>

#include <fmt/format.h>

#include "quiver/columnar/gather.h"
#include "quiver/compress/codec.h"
#include "quiver/ipc/format.h"

namespace quiver::ipc {
namespace {

namespace f = format;

// Past this a buffer's stated uncompressed size is refused rather than allocated.
constexpr int64_t kMaxUncompressedBuffer = int64_t{1} << 32;

}  // namespace

// Decodes one RecordBatch table's nodes and buffers into arrays, field by field in schema order.
class BatchDecoder::Impl {
 public:
  Impl(const fb::Table& rb, std::shared_ptr<Buffer> body, const std::map<int64_t, Array>* dictionaries,
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

  // A fixed-size list's implied offsets: slot i starts at i * size.
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

BatchDecoder::BatchDecoder(const fb::Table& rb, std::shared_ptr<Buffer> body, const std::map<int64_t, Array>* dictionaries,
                           MemoryPool* pool, int16_t version)
    : impl_(std::make_unique<Impl>(rb, std::move(body), dictionaries, pool, version)) {}
BatchDecoder::~BatchDecoder() = default;
int64_t BatchDecoder::length() const { return impl_->length(); }
Status BatchDecoder::CheckHeader() const { return impl_->CheckHeader(); }
Result<std::shared_ptr<ArrayData>> BatchDecoder::Decode(const FieldInfo& fi, bool use_dictionary, int depth) {
  return impl_->Decode(fi, use_dictionary, depth);
}

}  // namespace quiver::ipc
