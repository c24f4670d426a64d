// The Parquet schema as a tree: the flat SchemaElement list of the footer turned into nodes
// with repetition and definition levels per leaf, and the mapping to quiver's columnar types.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/core/result.h"
#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

struct SchemaNode {
  const SchemaElement* element = nullptr;
  std::string_view name;
  int32_t parent = -1;                // node index; -1 for the root
  std::vector<int32_t> children;      // node indices, in schema order
  FieldRepetitionType repetition = FieldRepetitionType::REQUIRED;  // the root counts as REQUIRED
  int16_t max_definition_level = 0;   // levels at this node, counting itself
  int16_t max_repetition_level = 0;
  int32_t leaf_index = -1;            // column index for leaves, else -1
  bool is_leaf() const { return leaf_index >= 0; }
};

// A leaf column: what a column reader needs to know.
struct ColumnDescriptor {
  int32_t node = 0;
  std::vector<std::string_view> path;  // names from below the root down to the leaf
  Type physical_type = Type::BOOLEAN;
  int32_t type_length = 0;
  int16_t max_definition_level = 0;
  int16_t max_repetition_level = 0;
  const SchemaElement* element = nullptr;

  std::string dotted_path() const;  // "a.b.c"
};

class SchemaTree {
 public:
  // Validates the element list (counts, types, nesting) and builds the tree. Names point into
  // the elements, which must outlive the tree.
  static Result<SchemaTree> Make(const List<SchemaElement>& elements);

  const std::vector<SchemaNode>& nodes() const { return nodes_; }
  const SchemaNode& node(int32_t i) const { return nodes_[static_cast<size_t>(i)]; }
  const SchemaNode& root() const { return nodes_[0]; }
  const std::vector<ColumnDescriptor>& columns() const { return columns_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  // Leaf index by dotted path, or by a top-level name (its first leaf); -1 if absent.
  int FindColumn(std::string_view dotted_path) const;
  // Leaf indices under a node.
  std::vector<int32_t> LeavesUnder(int32_t node) const;
  // Node index by dotted path from below the root ("a", "a.list.element"); -1 if absent.
  int32_t FindNode(std::string_view dotted_path) const;
  // The leaves named by `names` (dotted paths of any node; a group selects all its leaves),
  // sorted and unique; Invalid naming the first unknown name.
  Result<std::vector<int32_t>> ResolveColumns(const std::vector<std::string>& names) const;

  // quiver's columnar type for a node (legacy LIST/MAP forms, INT96 as timestamp[us]).
  Result<Field> ToField(int32_t node) const;
  // One field per child of the root.
  Result<std::vector<Field>> ToFields() const;

 private:
  Result<Field> ToFieldImpl(int32_t node, int depth) const;
  Result<TypePtr> LeafType(const SchemaNode& n) const;
  Result<TypePtr> ListElementType(int32_t list_node, int depth, bool* element_nullable, std::string* name) const;

  std::vector<SchemaNode> nodes_;
  std::vector<ColumnDescriptor> columns_;
};

// "TIMESTAMP(MICROS,true)", "DECIMAL(9,2)", "STRING", or "" without a logical type.
std::string LogicalTypeToString(const LogicalType& t);

}  // namespace quiver::parquet
