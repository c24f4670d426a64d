#include "quiver/columnar/concatenate.h"

#include <fmt/format.h>

#include <cstring>

#include "quiver/columnar/builder.h"

namespace quiver {

namespace {

Result<std::shared_ptr<ArrayData>> ConcatData(const TypePtr& type, const std::vector<const ArrayData*>& parts,
                                              MemoryPool* pool);

// The child ranges [first, last) that each list/map/string part refers to.
struct Range {
  int32_t first, last;
};

Result<std::shared_ptr<Buffer>> ConcatOffsets(const std::vector<const ArrayData*>& parts, int64_t total,
                                              std::vector<Range>* ranges, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RETURN(auto buf, Buffer::Allocate((total + 1) * 4, pool));
  int32_t* out = buf->mutable_data_as<int32_t>();
  int64_t pos = 0;
  int64_t base = 0;
  out[0] = 0;
  for (const ArrayData* p : parts) {
    const int32_t* o = p->buffers[1]->data_as<int32_t>() + p->offset;
    ranges->push_back(Range{o[0], o[p->length]});
    for (int64_t i = 0; i < p->length; ++i) {
      int64_t v = base + (o[i + 1] - o[0]);
      if (v > INT32_MAX) return Status::Invalid("concatenated array exceeds 2^31 offsets");
      out[++pos] = static_cast<int32_t>(v);
    }
    base += o[p->length] - o[0];
  }
  return buf;
}

Result<std::shared_ptr<ArrayData>> ConcatData(const TypePtr& type, const std::vector<const ArrayData*>& parts,
                                              MemoryPool* pool) {
  auto out = std::make_shared<ArrayData>();
  out->type = type;
  int64_t total = 0, nulls = 0;
  bool any_bitmap = false;
  for (const ArrayData* p : parts) {
    total += p->length;
    nulls += const_cast<ArrayData*>(p)->GetNullCount();
    any_bitmap |= p->validity() != nullptr && p->null_count != 0;
  }
  out->length = total;
  out->null_count = nulls;
  if (any_bitmap) {
    QUIVER_ASSIGN_OR_RETURN(auto bm, Buffer::Allocate(bit_util::BytesForBits(total), pool));
    int64_t at = 0;
    for (const ArrayData* p : parts) {
      if (p->validity()) bit_util::CopyBitmap(p->validity(), p->offset, p->length, bm->mutable_data(), at);
      else bit_util::SetBitsTo(bm->mutable_data(), at, p->length, true);
      at += p->length;
    }
    out->buffers.push_back(std::move(bm));
  } else {
    out->buffers.push_back(nullptr);
  }
  switch (type->id()) {
    case TypeId::kBool: {
      QUIVER_ASSIGN_OR_RETURN(auto bits, Buffer::Allocate(bit_util::BytesForBits(total), pool));
      int64_t at = 0;
      for (const ArrayData* p : parts) {
        bit_util::CopyBitmap(p->buffers[1]->data(), p->offset, p->length, bits->mutable_data(), at);
        at += p->length;
      }
      out->buffers.push_back(std::move(bits));
      return out;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      std::vector<Range> ranges;
      QUIVER_ASSIGN_OR_RETURN(auto offsets, ConcatOffsets(parts, total, &ranges, pool));
      int64_t bytes = offsets->data_as<int32_t>()[total];
      QUIVER_ASSIGN_OR_RETURN(auto data, Buffer::Allocate(bytes, pool));
      int64_t at = 0;
      for (size_t i = 0; i < parts.size(); ++i) {
        int64_t n = ranges[i].last - ranges[i].first;
        if (n > 0) std::memcpy(data->mutable_data() + at, parts[i]->buffers[2]->data() + ranges[i].first, static_cast<size_t>(n));
        at += n;
      }
      out->buffers.push_back(std::move(offsets));
      out->buffers.push_back(std::move(data));
      return out;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      std::vector<Range> ranges;
      QUIVER_ASSIGN_OR_RETURN(auto offsets, ConcatOffsets(parts, total, &ranges, pool));
      std::vector<Array> children;
      std::vector<const ArrayData*> child_parts;
      for (size_t i = 0; i < parts.size(); ++i) {
        children.push_back(Array(parts[i]->children[0]).Slice(ranges[i].first, ranges[i].last - ranges[i].first));
      }
      for (const auto& c : children) child_parts.push_back(c.data().get());
      QUIVER_ASSIGN_OR_RETURN(auto child, ConcatData(type->field(0).type, child_parts, pool));
      out->buffers.push_back(std::move(offsets));
      out->children.push_back(std::move(child));
      return out;
    }
    case TypeId::kStruct: {
      for (int f = 0; f < type->num_fields(); ++f) {
        std::vector<Array> slices;
        std::vector<const ArrayData*> child_parts;
        for (const ArrayData* p : parts) slices.push_back(Array(p->children[static_cast<size_t>(f)]).Slice(p->offset, p->length));
        for (const auto& s : slices) child_parts.push_back(s.data().get());
        QUIVER_ASSIGN_OR_RETURN(auto child, ConcatData(type->field(f).type, child_parts, pool));
        out->children.push_back(std::move(child));
      }
      return out;
    }
    default: {
      const int64_t w = type->byte_width();
      QUIVER_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(total * w, pool));
      int64_t at = 0;
      for (const ArrayData* p : parts) {
        if (p->length > 0) std::memcpy(values->mutable_data() + at, p->buffers[1]->data() + p->offset * w, static_cast<size_t>(p->length * w));
        at += p->length * w;
      }
      out->buffers.push_back(std::move(values));
      return out;
    }
  }
}

}  // namespace

Result<Array> Concatenate(const std::vector<Array>& arrays, MemoryPool* pool) {
  if (arrays.empty()) return Status::Invalid("nothing to concatenate");
  std::vector<const ArrayData*> parts;
  for (const auto& a : arrays) {
    if (!a.type()->Equals(*arrays[0].type())) {
      return Status::Invalid(fmt::format("cannot concatenate {} with {}", arrays[0].type()->ToString(), a.type()->ToString()));
    }
    parts.push_back(a.data().get());
  }
  QUIVER_ASSIGN_OR_RETURN(auto d, ConcatData(arrays[0].type(), parts, pool));
  return Array(std::move(d));
}

Result<std::shared_ptr<RecordBatch>> ConcatenateBatches(const SchemaPtr& schema,
                                                        const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                                        MemoryPool* pool) {
  std::vector<Array> columns;
  int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows();
  for (int c = 0; c < schema->num_fields(); ++c) {
    if (batches.empty()) {
      QUIVER_ASSIGN_OR_RETURN(auto builder, MakeBuilder(schema->field(c).type, pool));
      QUIVER_ASSIGN_OR_RETURN(Array empty, builder->Finish());
      columns.push_back(std::move(empty));
      continue;
    }
    if (batches.size() == 1) {
      columns.push_back(batches[0]->column(c));
      continue;
    }
    std::vector<Array> parts;
    for (const auto& b : batches) parts.push_back(b->column(c));
    QUIVER_ASSIGN_OR_RETURN(Array joined, Concatenate(parts, pool));
    columns.push_back(std::move(joined));
  }
  return std::make_shared<RecordBatch>(schema, rows, std::move(columns));
}

}  // namespace quiver
