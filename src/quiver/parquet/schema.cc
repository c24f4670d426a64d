// Schema tree construction and type mapping (including the legacy LIST/MAP layouts of
// LogicalTypes.md's backward-compatibility rules).
#include "quiver/parquet/schema.h"

#include "quiver/core/utf8.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

namespace {

constexpr int kMaxSchemaDepth = 1000;

std::string Quote(std::string_view name) { return fmt::format("'{}'", EscapeForMessage(name)); }

bool IsListAnnotated(const SchemaElement& e) {
  return (e.logicalType && e.logicalType->LIST) || (e.converted_type && *e.converted_type == ConvertedType::LIST);
}
bool IsMapAnnotated(const SchemaElement& e) {
  return (e.logicalType && e.logicalType->MAP) ||
         (e.converted_type &&
          (*e.converted_type == ConvertedType::MAP || *e.converted_type == ConvertedType::MAP_KEY_VALUE));
}

const char* UnitName(const TimeUnit& u) {
  if (u.MILLIS) return "MILLIS";
  if (u.MICROS) return "MICROS";
  if (u.NANOS) return "NANOS";
  return "?";
}

}  // namespace

std::string ColumnDescriptor::dotted_path() const {
  std::string s;
  for (auto p : path) {
    if (!s.empty()) s += '.';
    s.append(p);
  }
  return s;
}

Result<SchemaTree> SchemaTree::Make(const List<SchemaElement>& elements) {
  SchemaTree tree;
  if (elements.empty()) return Status::Corrupt("schema is empty (no root element)");
  const uint32_t n = elements.size();
  tree.nodes_.reserve(n);
  struct Open {
    int32_t node;
    int32_t remaining;
  };
  std::vector<Open> stack;
  const SchemaElement& root = elements[0];
  SchemaNode r;
  r.element = &root;
  r.name = root.name;
  tree.nodes_.push_back(std::move(r));
  int32_t root_children = root.num_children.value_or(0);
  if (root_children < 0) return Status::Corrupt(fmt::format("schema root has {} children", root_children));
  if (root_children > 0) stack.push_back({0, root_children});
  for (uint32_t i = 1; i < n; ++i) {
    const SchemaElement& e = elements[i];
    if (stack.empty()) {
      return Status::Corrupt(fmt::format("schema has {} elements but its tree ends after {}", n, i));
    }
    Open& top = stack.back();
    --top.remaining;
    const SchemaNode& parent = tree.nodes_[static_cast<size_t>(top.node)];
    SchemaNode node;
    node.element = &e;
    node.name = e.name;
    node.parent = top.node;
    if (!e.repetition_type) {
      return Status::Corrupt(fmt::format("schema element {} has no repetition type", Quote(e.name)));
    }
    node.repetition = *e.repetition_type;
    int32_t rep = static_cast<int32_t>(node.repetition);
    if (rep < 0 || rep > 3) {
      return Status::Corrupt(fmt::format("schema element {} has unknown repetition type {}", Quote(e.name), rep));
    }
    bool optional = node.repetition == FieldRepetitionType::OPTIONAL;
    bool repeated = node.repetition == FieldRepetitionType::REPEATED;
    node.max_definition_level = static_cast<int16_t>(parent.max_definition_level + (optional || repeated ? 1 : 0));
    node.max_repetition_level = static_cast<int16_t>(parent.max_repetition_level + (repeated ? 1 : 0));
    int32_t index = static_cast<int32_t>(tree.nodes_.size());
    tree.nodes_[static_cast<size_t>(top.node)].children.push_back(index);
    int32_t nc = e.num_children.value_or(0);
    if (nc < 0) return Status::Corrupt(fmt::format("schema element {} has {} children", Quote(e.name), nc));
    bool group = nc > 0 || (!e.type && e.num_children);
    if (!group) {
      if (!e.type) {
        return Status::Corrupt(fmt::format("schema element {} has neither a physical type nor children", Quote(e.name)));
      }
      int32_t t = static_cast<int32_t>(*e.type);
      if (t < 0 || t > 7) {
        return Status::Corrupt(fmt::format("schema element {} has unknown physical type {}", Quote(e.name), t));
      }
      if (*e.type == Type::FIXED_LEN_BYTE_ARRAY && e.type_length.value_or(0) <= 0) {
        return Status::Corrupt(
            fmt::format("schema element {} is FIXED_LEN_BYTE_ARRAY without a positive type_length", Quote(e.name)));
      }
      node.leaf_index = static_cast<int32_t>(tree.columns_.size());
      ColumnDescriptor col;
      col.node = index;
      col.physical_type = *e.type;
      col.type_length = e.type_length.value_or(0);
      col.max_definition_level = node.max_definition_level;
      col.max_repetition_level = node.max_repetition_level;
      col.element = &e;
      tree.columns_.push_back(std::move(col));
    }
    tree.nodes_.push_back(std::move(node));
    // `top` may dangle after push_back below; re-read the stack.
    if (group && nc > 0) {
      if (stack.size() >= kMaxSchemaDepth) {
        return Status::Corrupt(fmt::format("schema nesting deeper than {}", kMaxSchemaDepth));
      }
      stack.push_back({index, nc});
    }
    while (!stack.empty() && stack.back().remaining == 0) stack.pop_back();
  }
  if (!stack.empty()) {
    const SchemaNode& open = tree.nodes_[static_cast<size_t>(stack.back().node)];
    return Status::Corrupt(fmt::format("schema element {} declares {} more children than the schema holds",
                                       Quote(open.name), stack.back().remaining));
  }
  for (ColumnDescriptor& col : tree.columns_) {
    std::vector<std::string_view> rev;
    for (int32_t k = col.node; k > 0; k = tree.nodes_[static_cast<size_t>(k)].parent) {
      rev.push_back(tree.nodes_[static_cast<size_t>(k)].name);
    }
    col.path.assign(rev.rbegin(), rev.rend());
  }
  return tree;
}

int SchemaTree::FindColumn(std::string_view dotted) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i].dotted_path() == dotted) return static_cast<int>(i);
  }
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].path.empty() && columns_[i].path[0] == dotted) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int32_t> SchemaTree::LeavesUnder(int32_t node) const {
  std::vector<int32_t> out;
  std::vector<int32_t> todo{node};
  while (!todo.empty()) {
    int32_t k = todo.back();
    todo.pop_back();
    const SchemaNode& n = nodes_[static_cast<size_t>(k)];
    if (n.is_leaf()) out.push_back(n.leaf_index);
    for (auto it = n.children.rbegin(); it != n.children.rend(); ++it) todo.push_back(*it);
  }
  return out;
}

int32_t SchemaTree::FindNode(std::string_view dotted) const {
  int32_t cur = 0;
  while (true) {
    size_t dot = dotted.find('.');
    std::string_view part = dotted.substr(0, dot);
    int32_t next = -1;
    for (int32_t c : nodes_[static_cast<size_t>(cur)].children) {
      if (nodes_[static_cast<size_t>(c)].name == part) {
        next = c;
        break;
      }
    }
    if (next < 0) return -1;
    cur = next;
    if (dot == std::string_view::npos) return cur;
    dotted.remove_prefix(dot + 1);
  }
}

Result<std::vector<int32_t>> SchemaTree::ResolveColumns(const std::vector<std::string>& names) const {
  std::vector<int32_t> out;
  for (const std::string& name : names) {
    int32_t node = FindNode(name);
    if (node <= 0) {
      std::string known;
      for (size_t i = 0; i < root().children.size() && i < 20; ++i) {
        known += (i ? ", " : "") + std::string(nodes_[static_cast<size_t>(root().children[i])].name);
      }
      if (root().children.size() > 20) known += ", ...";
      return Status::Invalid(fmt::format("no column '{}' (top-level columns: {})", name, known));
    }
    for (int32_t leaf : LeavesUnder(node)) out.push_back(leaf);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Result<TypePtr> SchemaTree::LeafType(const SchemaNode& n) const {
  const SchemaElement& e = *n.element;
  const Type pt = *e.type;
  const LogicalType* lt = e.logicalType ? &*e.logicalType : nullptr;
  std::optional<ConvertedType> ct = e.converted_type;
  auto decimal = [&](int32_t precision, int32_t scale) -> TypePtr {
    if (precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision) return decimal128(precision, scale);
    return nullptr;  // not representable: fall back to the physical type
  };
  TypePtr t;
  if (lt != nullptr && lt->DECIMAL) {
    t = decimal(lt->DECIMAL->precision, lt->DECIMAL->scale);
  } else if (lt == nullptr && ct == ConvertedType::DECIMAL) {
    t = decimal(e.precision.value_or(0), e.scale.value_or(0));
  }
  if (t != nullptr && pt != Type::BOOLEAN && pt != Type::FLOAT && pt != Type::DOUBLE && pt != Type::INT96) return t;
  t = nullptr;
  switch (pt) {
    case Type::BOOLEAN:
      return boolean();
    case Type::INT32:
    case Type::INT64: {
      bool is64 = pt == Type::INT64;
      if (lt != nullptr) {
        if (lt->INTEGER) {
          bool s = lt->INTEGER->isSigned;
          switch (lt->INTEGER->bitWidth) {
            case 8: return s ? int8() : uint8();
            case 16: return s ? int16() : uint16();
            case 32: return s ? int32() : uint32();
            case 64: return s ? int64() : uint64();
            default: break;
          }
        }
        if (lt->DATE && !is64) return date32();
        if (lt->TIME) {
          const TimeUnit& u = lt->TIME->unit;
          if (u.MILLIS && !is64) return time32(quiver::TimeUnit::kMilli);
          if (u.MICROS && is64) return time64(quiver::TimeUnit::kMicro);
          if (u.NANOS && is64) return time64(quiver::TimeUnit::kNano);
        }
        if (lt->TIMESTAMP && is64) {
          const TimeUnit& u = lt->TIMESTAMP->unit;
          std::string tz = lt->TIMESTAMP->isAdjustedToUTC ? "UTC" : "";
          if (u.MILLIS) return timestamp(quiver::TimeUnit::kMilli, tz);
          if (u.MICROS) return timestamp(quiver::TimeUnit::kMicro, tz);
          if (u.NANOS) return timestamp(quiver::TimeUnit::kNano, tz);
        }
      } else if (ct) {
        switch (*ct) {
          case ConvertedType::INT_8: return int8();
          case ConvertedType::INT_16: return int16();
          case ConvertedType::INT_32: return int32();
          case ConvertedType::INT_64: return int64();
          case ConvertedType::UINT_8: return uint8();
          case ConvertedType::UINT_16: return uint16();
          case ConvertedType::UINT_32: return uint32();
          case ConvertedType::UINT_64: return uint64();
          case ConvertedType::DATE: if (!is64) return date32(); break;
          case ConvertedType::TIME_MILLIS: if (!is64) return time32(quiver::TimeUnit::kMilli); break;
          case ConvertedType::TIME_MICROS: if (is64) return time64(quiver::TimeUnit::kMicro); break;
          // Converted timestamps are instants (LogicalTypes.md: isAdjustedToUTC = true).
          case ConvertedType::TIMESTAMP_MILLIS: if (is64) return timestamp(quiver::TimeUnit::kMilli, "UTC"); break;
          case ConvertedType::TIMESTAMP_MICROS: if (is64) return timestamp(quiver::TimeUnit::kMicro, "UTC"); break;
          default: break;
        }
      }
      return is64 ? int64() : int32();
    }
    case Type::INT96:
      // Legacy Impala/Spark timestamps: nanoseconds in the day plus a Julian day, read as
      // microseconds (as Spark and DuckDB do) so that the years Spark writes all fit.
      return timestamp(quiver::TimeUnit::kMicro);
    case Type::FLOAT:
      return float32();
    case Type::DOUBLE:
      return float64();
    case Type::BYTE_ARRAY:
      if (lt != nullptr) {
        if (lt->STRING || lt->ENUM || lt->JSON) return utf8();
        return binary();
      }
      if (ct == ConvertedType::UTF8 || ct == ConvertedType::ENUM || ct == ConvertedType::JSON) return utf8();
      return binary();
    case Type::FIXED_LEN_BYTE_ARRAY:
      if (lt != nullptr && lt->FLOAT16 && e.type_length == 2) return float16();
      return fixed_size_binary(*e.type_length);
  }
  return Status::Corrupt(fmt::format("schema element {} has unknown physical type {}", Quote(e.name),
                                     static_cast<int32_t>(pt)));
}

// The element of a LIST-annotated group, following the backward-compatibility rules.
Result<TypePtr> SchemaTree::ListElementType(int32_t list_node, int depth, bool* element_nullable,
                                            std::string* name) const {
  const SchemaNode& list = nodes_[static_cast<size_t>(list_node)];
  if (list.children.size() != 1) {
    return Status::Corrupt(fmt::format("LIST group {} must have exactly one child, has {}", Quote(list.name),
                                       list.children.size()));
  }
  int32_t rep_index = list.children[0];
  const SchemaNode& rep = nodes_[static_cast<size_t>(rep_index)];
  if (rep.repetition != FieldRepetitionType::REPEATED) {
    return Status::Corrupt(fmt::format("the child of LIST group {} is not repeated", Quote(list.name)));
  }
  bool rep_is_element = rep.is_leaf() || rep.children.size() > 1 || rep.name == "array" ||
                        rep.name == std::string(list.name) + "_tuple";
  if (rep_is_element) {
    // The repeated node itself is the element (required); reuse the struct/leaf mapping of it
    // without its REPEATED wrapper.
    QUIVER_ASSIGN_OR_RETURN(Field f, ToFieldImpl(rep_index, depth + 1));
    *element_nullable = false;
    *name = std::string(rep.name);
    // ToFieldImpl wrapped the repeated node in a list; unwrap it.
    return f.type->field(0).type;
  }
  QUIVER_ASSIGN_OR_RETURN(Field f, ToFieldImpl(rep.children[0], depth + 1));
  *element_nullable = f.nullable;
  *name = f.name;
  return f.type;
}

Result<Field> SchemaTree::ToField(int32_t node) const { return ToFieldImpl(node, 0); }

Result<Field> SchemaTree::ToFieldImpl(int32_t index, int depth) const {
  if (depth > kMaxSchemaDepth) return Status::Corrupt("schema nesting too deep");
  const SchemaNode& n = nodes_[static_cast<size_t>(index)];
  const SchemaElement& e = *n.element;
  TypePtr type;
  if (n.is_leaf()) {
    QUIVER_ASSIGN_OR_RETURN(type, LeafType(n));
  } else if (IsListAnnotated(e)) {
    bool nullable = true;
    std::string name;
    QUIVER_ASSIGN_OR_RETURN(TypePtr elem, ListElementType(index, depth, &nullable, &name));
    type = list(field(name, elem, nullable));
  } else if (IsMapAnnotated(e) && n.children.size() == 1 &&
             !nodes_[static_cast<size_t>(n.children[0])].is_leaf() &&
             nodes_[static_cast<size_t>(n.children[0])].repetition == FieldRepetitionType::REPEATED) {
    const SchemaNode& kv = nodes_[static_cast<size_t>(n.children[0])];
    if (kv.children.size() == 2) {
      QUIVER_ASSIGN_OR_RETURN(Field key, ToFieldImpl(kv.children[0], depth + 1));
      QUIVER_ASSIGN_OR_RETURN(Field value, ToFieldImpl(kv.children[1], depth + 1));
      type = map(key.type, value.type, value.nullable);
    } else if (kv.children.size() == 1) {
      // A map without values (seen in the wild): the keys as a list.
      QUIVER_ASSIGN_OR_RETURN(Field key, ToFieldImpl(kv.children[0], depth + 1));
      type = list(field(key.name, key.type, false));
    } else {
      return Status::Corrupt(fmt::format("MAP group {} has a key_value group with {} children", Quote(n.name),
                                         kv.children.size()));
    }
  } else {
    std::vector<Field> fields;
    fields.reserve(n.children.size());
    for (int32_t c : n.children) {
      QUIVER_ASSIGN_OR_RETURN(Field f, ToFieldImpl(c, depth + 1));
      fields.push_back(std::move(f));
    }
    type = struct_(std::move(fields));
  }
  std::string name(n.name);
  if (n.repetition == FieldRepetitionType::REPEATED || n.repetition == FieldRepetitionType::VECTOR) {
    // An unannotated repeated field is a required list of its (required) values.
    return field(name, list(field(name, type, false)), false);
  }
  return field(name, type, n.repetition == FieldRepetitionType::OPTIONAL);
}

Result<std::vector<Field>> SchemaTree::ToFields() const {
  std::vector<Field> out;
  for (int32_t c : root().children) {
    QUIVER_ASSIGN_OR_RETURN(Field f, ToField(c));
    out.push_back(std::move(f));
  }
  return out;
}

std::string LogicalTypeToString(const LogicalType& t) {
  if (t.DECIMAL) return fmt::format("DECIMAL({},{})", t.DECIMAL->precision, t.DECIMAL->scale);
  if (t.TIME) return fmt::format("TIME({},{})", UnitName(t.TIME->unit), t.TIME->isAdjustedToUTC);
  if (t.TIMESTAMP) return fmt::format("TIMESTAMP({},{})", UnitName(t.TIMESTAMP->unit), t.TIMESTAMP->isAdjustedToUTC);
  if (t.INTEGER) return fmt::format("INTEGER({},{})", t.INTEGER->bitWidth, t.INTEGER->isSigned);
  if (t.VARIANT && t.VARIANT->specification_version) {
    return fmt::format("VARIANT({})", *t.VARIANT->specification_version);
  }
  if (t.GEOMETRY && t.GEOMETRY->crs) return fmt::format("GEOMETRY({})", *t.GEOMETRY->crs);
  if (t.GEOGRAPHY && (t.GEOGRAPHY->crs || t.GEOGRAPHY->algorithm)) {
    return fmt::format("GEOGRAPHY({},{})", t.GEOGRAPHY->crs.value_or(""),
                       t.GEOGRAPHY->algorithm ? static_cast<int32_t>(*t.GEOGRAPHY->algorithm) : 0);
  }
  return LogicalTypeKind(t);
}

}  // namespace quiver::parquet
