#include "quiver/columnar/concatenate.h"

#include <fmt/format.h>

#include <algorithm>
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
      // The joined bytes are the parts' values, each checked where it was made.
      out->utf8_checked = std::all_of(parts.begin(), parts.end(), [](const ArrayData* p) { return p->utf8_checked; });
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
    case TypeId::kDenseUnion: {
      // Members joined whole (a part's offsets may point anywhere in them), each part's offsets
      // shifted by the lengths of the same member in the parts before it.
      QUIVER_ASSIGN_OR_RETURN(auto codes, Buffer::Allocate(std::max<int64_t>(total, 1), pool));
      QUIVER_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate(std::max<int64_t>(total * 4, 1), pool));
      const size_t members = static_cast<size_t>(type->num_fields());
      std::vector<int64_t> base(members, 0);
      int64_t at = 0;
      for (const ArrayData* p : parts) {
        const int8_t* c = p->buffers[1]->data_as<int8_t>() + p->offset;
        const int32_t* o = p->buffers[2]->data_as<int32_t>() + p->offset;
        for (int64_t i = 0; i < p->length; ++i, ++at) {
          const int m = type->ChildOfCode(c[i]);
          const int64_t v = base[static_cast<size_t>(m)] + o[i];
          if (v > INT32_MAX) return Status::Invalid("concatenated union member exceeds 2^31 entries");
          codes->mutable_data_as<int8_t>()[at] = c[i];
          offsets->mutable_data_as<int32_t>()[at] = static_cast<int32_t>(v);
        }
        for (size_t m = 0; m < members; ++m) base[m] += p->children[m]->length;
      }
      out->buffers.push_back(std::move(codes));
      out->buffers.push_back(std::move(offsets));
      for (size_t m = 0; m < members; ++m) {
        std::vector<const ArrayData*> child_parts;
        for (const ArrayData* p : parts) child_parts.push_back(p->children[m].get());
        QUIVER_ASSIGN_OR_RETURN(auto child, ConcatData(type->field(static_cast<int>(m)).type, child_parts, pool));
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

// No rows of `type`: from its builder; a dense union (which has none) from its members'.
Result<Array> EmptyArray(const TypePtr& type, MemoryPool* pool) {
  if (type->id() != TypeId::kDenseUnion) {
    QUIVER_ASSIGN_OR_RETURN(auto builder, MakeBuilder(type, pool));
    return builder->Finish();
  }
  auto d = std::make_shared<ArrayData>();
  d->type = type;
  d->null_count = 0;
  QUIVER_ASSIGN_OR_RETURN(auto codes, Buffer::Allocate(1, pool));
  QUIVER_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate(4, pool));
  d->buffers = {nullptr, std::move(codes), std::move(offsets)};
  for (const Field& f : type->fields()) {
    QUIVER_ASSIGN_OR_RETURN(Array m, EmptyArray(f.type, pool));
    d->children.push_back(m.data());
  }
  return Array(std::move(d));
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
      QUIVER_ASSIGN_OR_RETURN(Array empty, EmptyArray(schema->field(c).type, pool));
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
