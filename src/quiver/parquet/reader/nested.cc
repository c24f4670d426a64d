#include "quiver/parquet/reader/nested_internal.h"

#include <fmt/format.h>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::reader {
namespace {

// A node "exists" at a level entry once the entry's definition level reaches that of its
// nearest repeated ancestor-or-self, and the entry starts a new instance of the node when its
// repetition level is at most the node's. Those entries are the node's slots.
class Assembler {
 public:
  Assembler(const SchemaTree& tree, std::vector<std::unique_ptr<LeafChunk>>& leaves, MemoryPool* pool)
      : tree_(tree), leaves_(leaves), pool_(pool) {}

  Result<Array> Build(int32_t node, const TypePtr& type, bool as_element, int depth);

 private:
  const SchemaNode& N(int32_t i) const { return tree_.node(i); }

  // Definition level of the nearest REPEATED node among `node` (if include_self) and its
  // ancestors; 0 when there is none.
  int16_t RepeatedDef(int32_t node, bool include_self) const {
    int32_t i = include_self ? node : N(node).parent;
    while (i > 0) {
      if (N(i).repetition == FieldRepetitionType::REPEATED) return N(i).max_definition_level;
      i = N(i).parent;
    }
    return 0;
  }

  Result<LeafChunk*> FirstLeaf(int32_t node) const {
    std::vector<int32_t> under = tree_.LeavesUnder(node);
    if (under.empty()) return Status::Corrupt(fmt::format("group '{}' has no leaf columns", N(node).name));
    const size_t k = static_cast<size_t>(under[0]);
    if (k >= leaves_.size() || !leaves_[k]) return Status::Invalid("leaf column not decoded");
    return leaves_[k].get();
  }

  static std::vector<int64_t> Slots(const LeafChunk& leaf, int16_t max_rep, int16_t min_def) {
    const auto& def = leaf.def_levels();
    const auto& rep = leaf.rep_levels();
    const int64_t n = leaf.num_levels();
    std::vector<int64_t> out;
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const int16_t r = rep.empty() ? 0 : rep[static_cast<size_t>(i)];
      const int16_t d = def.empty() ? 0 : def[static_cast<size_t>(i)];
      if (r <= max_rep && d >= min_def) out.push_back(i);
    }
    return out;
  }

  // Validity of `slots` for a node defined at `def_level` (null when every slot is valid).
  Result<std::shared_ptr<Buffer>> Validity(const LeafChunk& leaf, const std::vector<int64_t>& slots,
                                                  int16_t def_level, int64_t* nulls) {
    *nulls = 0;
    const auto& def = leaf.def_levels();
    if (def.empty() || def_level == 0) return std::shared_ptr<Buffer>();
    QUIVER_ASSIGN_OR_RETURN(auto buf, Buffer::AllocateZeroed(bit_util::BytesForBits(static_cast<int64_t>(slots.size())), pool_));
    for (size_t k = 0; k < slots.size(); ++k) {
      if (def[static_cast<size_t>(slots[k])] >= def_level) {
        bit_util::SetBit(buf->mutable_data(), static_cast<int64_t>(k));
      } else {
        ++*nulls;
      }
    }
    if (*nulls == 0) return std::shared_ptr<Buffer>();
    return buf;
  }

  // List offsets: how many element slots fall in each list slot's range of entries.
  Result<std::shared_ptr<Buffer>> Offsets(const LeafChunk& leaf, const std::vector<int64_t>& lists,
                                                 const std::vector<int64_t>& elements) {
    QUIVER_ASSIGN_OR_RETURN(auto buf, Buffer::Allocate(static_cast<int64_t>(lists.size() + 1) * 4, pool_));
    int32_t* off = buf->mutable_data_as<int32_t>();
    if (!elements.empty() && (lists.empty() || elements[0] < lists[0])) {
      return Status::Corrupt("repetition levels place list elements outside any list");
    }
    size_t e = 0;
    off[0] = 0;
    for (size_t k = 0; k < lists.size(); ++k) {
      const int64_t end = k + 1 < lists.size() ? lists[k + 1] : leaf.num_levels();
      while (e < elements.size() && elements[e] < end) ++e;
      off[k + 1] = static_cast<int32_t>(e);
    }
    return buf;
  }

  Result<Array> ListOf(int32_t list_node, const TypePtr& type, const std::vector<int64_t>& slots,
                       std::shared_ptr<Buffer> validity, int64_t nulls, int32_t rep_node, int32_t element_node,
                       bool element_is_rep, int depth);

  const SchemaTree& tree_;
  std::vector<std::unique_ptr<LeafChunk>>& leaves_;
  MemoryPool* pool_;
};

Result<Array> Assembler::ListOf(int32_t list_node, const TypePtr& type, const std::vector<int64_t>& slots,
                                std::shared_ptr<Buffer> validity, int64_t nulls, int32_t rep_node,
                                int32_t element_node, bool element_is_rep, int depth) {
  QUIVER_ASSIGN_OR_RETURN(LeafChunk * leaf, FirstLeaf(list_node));
  const SchemaNode& r = N(rep_node);
  const std::vector<int64_t> elements = Slots(*leaf, r.max_repetition_level, r.max_definition_level);
  QUIVER_ASSIGN_OR_RETURN(auto offsets, Offsets(*leaf, slots, elements));
  Array child;
  if (type->id() == TypeId::kMap) {
    // entries: struct<key, value> over the key_value group's slots, never null.
    const TypePtr& entries_type = type->field(0).type;
    auto entries = std::make_shared<ArrayData>();
    entries->type = entries_type;
    entries->length = static_cast<int64_t>(elements.size());
    entries->null_count = 0;
    entries->buffers = {nullptr};
    for (int c = 0; c < 2; ++c) {
      QUIVER_ASSIGN_OR_RETURN(Array a, Build(r.children[static_cast<size_t>(c)], entries_type->field(c).type, false,
                                             depth + 1));
      if (a.length() != entries->length) return Status::Corrupt("map keys and values disagree in number");
      entries->children.push_back(a.data());
    }
    child = Array(entries);
  } else {
    QUIVER_ASSIGN_OR_RETURN(child, Build(element_node, type->field(0).type, element_is_rep, depth + 1));
    if (child.length() != static_cast<int64_t>(elements.size())) {
      return Status::Corrupt("list elements disagree with the list's levels");
    }
  }
  auto data = std::make_shared<ArrayData>();
  data->type = type;
  data->length = static_cast<int64_t>(slots.size());
  data->null_count = nulls;
  data->buffers = {std::move(validity), std::move(offsets)};
  data->children = {child.data()};
  return Array(data);
}

Result<Array> Assembler::Build(int32_t index, const TypePtr& type, bool as_element, int depth) {
  if (depth > 64) return Status::Corrupt("nesting too deep");
  const SchemaNode& n = N(index);
  QUIVER_ASSIGN_OR_RETURN(LeafChunk * leaf, FirstLeaf(index));
  const bool repeated = n.repetition == FieldRepetitionType::REPEATED || n.repetition == FieldRepetitionType::VECTOR;
  if (repeated && !as_element) {
    // A bare repeated field: a never-null list of its instances.
    if (type->id() != TypeId::kList) return Status::Invalid("repeated field without a list type");
    const std::vector<int64_t> slots =
        Slots(*leaf, static_cast<int16_t>(n.max_repetition_level - 1), RepeatedDef(index, false));
    return ListOf(index, type, slots, nullptr, 0, index, index, true, depth);
  }
  const std::vector<int64_t> slots = Slots(*leaf, n.max_repetition_level, RepeatedDef(index, true));
  if (n.is_leaf()) {
    const size_t k = static_cast<size_t>(n.leaf_index);
    return leaves_[k]->ToArray(slots);
  }
  int64_t nulls = 0;
  std::shared_ptr<Buffer> validity;
  if (n.repetition == FieldRepetitionType::OPTIONAL) {
    QUIVER_ASSIGN_OR_RETURN(validity, Validity(*leaf, slots, n.max_definition_level, &nulls));
  }
  if (type->id() == TypeId::kList || type->id() == TypeId::kMap) {
    // LIST or MAP group: one repeated child holds the entries.
    if (n.children.size() != 1) return Status::Corrupt(fmt::format("list group '{}' needs one child", n.name));
    const int32_t rep = n.children[0];
    const SchemaNode& r = N(rep);
    if (r.repetition != FieldRepetitionType::REPEATED) {
      return Status::Corrupt(fmt::format("the child of list group '{}' is not repeated", n.name));
    }
    if (type->id() == TypeId::kMap) {
      if (r.children.size() != 2) return Status::Corrupt("map key_value group needs two children");
      return ListOf(index, type, slots, std::move(validity), nulls, rep, rep, true, depth);
    }
    // Mirrors SchemaTree::ListElementType: when is the repeated node itself the element.
    const bool rep_is_element =
        r.is_leaf() || r.children.size() > 1 || r.name == "array" || r.name == std::string(n.name) + "_tuple";
    if (rep_is_element) return ListOf(index, type, slots, std::move(validity), nulls, rep, rep, true, depth);
    return ListOf(index, type, slots, std::move(validity), nulls, rep, r.children[0], false, depth);
  }
  if (type->id() != TypeId::kStruct) return Status::Invalid("group without a struct, list or map type");
  auto data = std::make_shared<ArrayData>();
  data->type = type;
  data->length = static_cast<int64_t>(slots.size());
  data->null_count = nulls;
  data->buffers = {std::move(validity)};
  if (static_cast<int>(n.children.size()) != type->num_fields()) return Status::Invalid("struct fields differ");
  for (size_t c = 0; c < n.children.size(); ++c) {
    QUIVER_ASSIGN_OR_RETURN(Array a, Build(n.children[c], type->field(static_cast<int>(c)).type, false, depth + 1));
    if (a.length() != data->length) {
      return Status::Corrupt(fmt::format("struct '{}': field '{}' has {} values, the struct {}", n.name,
                                         N(n.children[c]).name, a.length(), data->length));
    }
    data->children.push_back(a.data());
  }
  return Array(data);
}

}  // namespace

Result<Array> AssembleNested(const SchemaTree& tree, int32_t node, const TypePtr& type,
                             std::vector<std::unique_ptr<LeafChunk>>& leaves, MemoryPool* pool) {
  Assembler a(tree, leaves, pool);
  return a.Build(node, type, false, 0);
}

}  // namespace quiver::parquet::reader
