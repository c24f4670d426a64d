// Schema inference over parsed JSON documents: a tree of what each key path held, widened
// value by value (docs/json.md), then settled into quiver types.
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "quiver/columnar/schema.h"
#include "quiver/core/result.h"

namespace quiver::json {

struct TypeNode {
  enum Kind : uint8_t { kNull, kBool, kInt, kDouble, kString, kObject, kList };
  Kind kind = kNull;
  std::string kind_where;  // where the value that set `kind` is ("line 3", "element 3"), for conflicts
  TypePtr declared;      // from JsonReadOptions::types: inference stops here
  // kString whose strings were all "NaN", "inf" or "-inf" (how the JSON Lines writer spells
  // those floats): a number later makes it float64.
  bool float_words_only = false;
  // kObject: keys in first-seen order.
  std::vector<std::string> names;
  std::vector<std::unique_ptr<TypeNode>> children;
  std::unordered_map<std::string, size_t> index;
  std::unique_ptr<TypeNode> element;  // kList
};

const char* KindName(TypeNode::Kind kind);

class SchemaInferrer {
 public:
  // Declared paths are checked when the schema is settled: each must name a key seen.
  explicit SchemaInferrer(const std::vector<std::pair<std::string, TypePtr>>& declared);
  // One top-level document; `row` names it ("line 12", "element 12"), and `where` is how a
  // message starts ("file:12", "file: element 12").
  Status Observe(const simdjson::dom::element& doc, const std::string& row, const std::string& where);
  Result<SchemaPtr> Finish() const;

 private:
  Status ObserveValue(const simdjson::dom::element& v, TypeNode* node, const std::string& path, const std::string& row,
                      const std::string& where);
  TypeNode root_;
  std::unordered_map<std::string, TypePtr> declared_;
  mutable std::vector<std::string> declared_order_;
};

}  // namespace quiver::json
