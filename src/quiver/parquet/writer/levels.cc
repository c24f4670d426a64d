#include "quiver/parquet/writer/levels_internal.h"

#include <fmt/format.h>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::writer {

namespace {

void Collect(LeafPath& cur, std::vector<LeafPath>& out) {
  const Field& f = *cur.fields.back();
  const DataType& t = *f.type;
  if (f.nullable) ++cur.max_def;
  cur.path_in_schema.push_back(f.name);
  auto descend = [&](const Field& child, int index) {
    LeafPath next = cur;
    next.fields.push_back(&child);
    next.child.push_back(index);
    Collect(next, out);
  };
  switch (t.id()) {
    case TypeId::kList:
      // optional group f (LIST) { repeated group list { element } }
      ++cur.max_def;
      ++cur.max_rep;
      cur.path_in_schema.emplace_back("list");
      descend(t.field(0), 0);
      return;
    case TypeId::kMap: {
      // optional group f (MAP) { repeated group key_value { required key; value } }; the
      // entries struct is the repeated group, required, so it adds no definition level.
      ++cur.max_def;
      ++cur.max_rep;
      cur.path_in_schema.emplace_back("key_value");
      const Field& entries = t.field(0);
      for (int k = 0; k < entries.type->num_fields(); ++k) {
        LeafPath next = cur;
        next.fields.push_back(&entries);
        next.child.push_back(0);
        next.fields.push_back(&entries.type->field(k));
        next.child.push_back(k);
        Collect(next, out);
      }
      return;
    }
    case TypeId::kStruct:
      for (int k = 0; k < t.num_fields(); ++k) descend(t.field(k), k);
      return;
    default: out.push_back(cur); return;
  }
}

class Shredder {
 public:
  Shredder(const LeafPath& path, LeafPiece* out, uint8_t* mask) : path_(path), out_(out), mask_(mask) {
    // The repetition level each repeated step gives its second and later elements.
    int16_t r = 0;
    rep_at_.resize(path.fields.size(), 0);
    for (size_t s = 0; s < path.fields.size(); ++s) {
      const TypeId id = path.fields[s]->type->id();
      if (id == TypeId::kList || id == TypeId::kMap) rep_at_[s] = ++r;
    }
  }

  Status Visit(const ArrayData& a, int64_t i, size_t step, int16_t def, int16_t rep) {
    const Field& f = *path_.fields[step];
    if (!a.IsValid(i)) {
      // The map entries struct and keys are required whatever their field says.
      const bool entries = step > 0 && path_.fields[step - 1]->type->id() == TypeId::kMap;
      if (!f.nullable || entries) {
        return Status::Invalid(fmt::format("'{}' is not nullable but holds nulls", Name(step)));
      }
      Emit(def, rep, -1);
      return Status::OK();
    }
    if (f.nullable) ++def;
    const DataType& t = *f.type;
    switch (t.id()) {
      case TypeId::kList:
      case TypeId::kMap: {
        const int32_t* off = a.values<int32_t>(1);
        const int64_t begin = off[i], end = off[i + 1];
        if (begin == end) {
          Emit(def, rep, -1);
          return Status::OK();
        }
        const ArrayData& child = *a.children[0];
        for (int64_t j = begin; j < end; ++j) {
          QUIVER_RETURN_NOT_OK(Visit(child, j, step + 1, static_cast<int16_t>(def + 1), j == begin ? rep : rep_at_[step]));
        }
        return Status::OK();
      }
      case TypeId::kStruct: {
        const ArrayData& child = *a.children[static_cast<size_t>(path_.child[step])];
        return Visit(child, a.offset + i, step + 1, def, rep);
      }
      default:
        bit_util::SetBit(mask_, a.offset + i);
        Emit(def, rep, i);
        return Status::OK();
    }
  }

 private:
  std::string Name(size_t step) const {
    std::string s;
    for (size_t k = 0; k <= step; ++k) s += (k ? "." : "") + path_.fields[k]->name;
    return s;
  }
  void Emit(int16_t def, int16_t rep, int64_t slot) {
    out_->def.push_back(def);
    if (path_.max_rep > 0) out_->rep.push_back(rep);
    if (slot >= 0) last_end_ = slot + 1;
    out_->slot_end.push_back(last_end_);
  }

  const LeafPath& path_;
  LeafPiece* out_;
  uint8_t* mask_;
  std::vector<int16_t> rep_at_;
  int64_t last_end_ = 0;
};

}  // namespace

std::vector<LeafPath> LeafPathsOf(const Field& top) {
  std::vector<LeafPath> out;
  LeafPath root;
  root.fields.push_back(&top);
  Collect(root, out);
  return out;
}

Result<LeafPiece> ShredLeaf(const LeafPath& path, const Array& top) {
  LeafPiece piece;
  // The leaf's array: one child per step (struct children share their parent's offset).
  const ArrayData* leaf = top.data().get();
  for (size_t s = 0; s + 1 < path.fields.size(); ++s) leaf = leaf->children[static_cast<size_t>(path.child[s])].get();
  const int64_t bits = leaf->offset + leaf->length;
  QUIVER_ASSIGN_OR_RETURN(auto mask, Buffer::AllocateZeroed(bit_util::BytesForBits(bits)));
  piece.def.reserve(static_cast<size_t>(top.length()));
  piece.slot_end.reserve(static_cast<size_t>(top.length()));
  Shredder sh(path, &piece, mask->mutable_data());
  const ArrayData& a = *top.data();
  for (int64_t i = 0; i < a.length; ++i) QUIVER_RETURN_NOT_OK(sh.Visit(a, i, 0, 0, 0));
  auto masked = std::make_shared<ArrayData>(*leaf);
  if (masked->buffers.empty()) masked->buffers.resize(1);
  masked->buffers[0] = std::move(mask);
  masked->null_count = ArrayData::kUnknownNullCount;
  piece.values = Array(std::move(masked));
  return piece;
}

}  // namespace quiver::parquet::writer
