#include "quiver/json/infer_internal.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"

namespace quiver::json {
namespace {

using simdjson::dom::element_type;

TypeNode::Kind KindOf(element_type t) {
  switch (t) {
    case element_type::ARRAY: return TypeNode::kList;
    case element_type::OBJECT: return TypeNode::kObject;
    case element_type::INT64: return TypeNode::kInt;
    case element_type::UINT64:  // past int64: widened to float64 as a larger integer would be
    case element_type::DOUBLE: return TypeNode::kDouble;
    case element_type::STRING: return TypeNode::kString;
    case element_type::BOOL: return TypeNode::kBool;
    case element_type::NULL_VALUE: return TypeNode::kNull;
  }
  return TypeNode::kNull;
}

bool IsFloatWord(std::string_view s) { return s == "NaN" || s == "inf" || s == "-inf"; }

std::string Join(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

TypePtr TypeOf(const TypeNode& n) {
  if (n.declared) return n.declared;
  switch (n.kind) {
    case TypeNode::kNull: return utf8();  // quiver has no null type: a key only ever null is a string
    case TypeNode::kBool: return boolean();
    case TypeNode::kInt: return int64();
    case TypeNode::kDouble: return float64();
    case TypeNode::kString: return utf8();
    case TypeNode::kList: return list(n.element ? TypeOf(*n.element) : utf8());
    case TypeNode::kObject: {
      std::vector<Field> fields;
      for (size_t i = 0; i < n.names.size(); ++i) fields.push_back(field(n.names[i], TypeOf(*n.children[i])));
      return struct_(std::move(fields));
    }
  }
  return utf8();
}

}  // namespace

const char* KindName(TypeNode::Kind kind) {
  switch (kind) {
    case TypeNode::kNull: return "null";
    case TypeNode::kBool: return "a boolean";
    case TypeNode::kInt: return "an integer";
    case TypeNode::kDouble: return "a number";
    case TypeNode::kString: return "a string";
    case TypeNode::kObject: return "an object";
    case TypeNode::kList: return "an array";
  }
  return "?";
}

SchemaInferrer::SchemaInferrer(const std::vector<std::pair<std::string, TypePtr>>& declared) {
  root_.kind = TypeNode::kObject;
  for (const auto& [path, type] : declared) {
    declared_[path] = type;
    declared_order_.push_back(path);
  }
}

Status SchemaInferrer::Observe(const simdjson::dom::element& doc, const std::string& row, const std::string& where) {
  if (doc.type() != element_type::OBJECT) {
    return Status::Invalid(fmt::format("{}: a row must be a JSON object, got {}", where, KindName(KindOf(doc.type()))));
  }
  return ObserveValue(doc, &root_, "", row, where);
}

Status SchemaInferrer::ObserveValue(const simdjson::dom::element& v, TypeNode* node, const std::string& path,
                                    const std::string& row, const std::string& where) {
  if (node->declared) return Status::OK();
  TypeNode::Kind k = KindOf(v.type());
  if (k == TypeNode::kNull) return Status::OK();
  const bool float_word = k == TypeNode::kString && IsFloatWord(v.get_string().value_unsafe());
  if (float_word && (node->kind == TypeNode::kInt || node->kind == TypeNode::kDouble)) {
    node->kind = TypeNode::kDouble;
    return Status::OK();
  }
  if (node->kind == TypeNode::kString && node->float_words_only) {
    if (k == TypeNode::kInt || k == TypeNode::kDouble) {
      node->kind = TypeNode::kDouble;
      node->float_words_only = false;
      return Status::OK();
    }
    if (!float_word) node->float_words_only = false;
  }
  if (node->kind == TypeNode::kNull) {
    node->float_words_only = float_word;
    node->kind = k;
    node->kind_where = row;
  } else if (node->kind != k) {
    if ((node->kind == TypeNode::kInt && k == TypeNode::kDouble) ||
        (node->kind == TypeNode::kDouble && k == TypeNode::kInt)) {
      node->kind = TypeNode::kDouble;  // int -> double
    } else {
      const std::string shown = path.empty() ? std::string("the row") : fmt::format("'{}'", EscapeForMessage(path));
      return Status::Invalid(fmt::format(
          "{}: {} is {} here but {} at {}; declare its type (--types '{}=string' keeps either as text)", where,
          shown, KindName(k), KindName(node->kind), node->kind_where, EscapeForMessage(path)));
    }
  }
  if (k == TypeNode::kObject) {
    for (auto [key, value] : simdjson::dom::object(v)) {
      auto it = node->index.find(std::string(key));
      TypeNode* child;
      const std::string child_path = Join(path, key);
      if (it == node->index.end()) {
        node->index.emplace(std::string(key), node->children.size());
        node->names.emplace_back(key);
        node->children.push_back(std::make_unique<TypeNode>());
        child = node->children.back().get();
        auto d = declared_.find(child_path);
        if (d != declared_.end()) child->declared = d->second;
      } else {
        child = node->children[it->second].get();
      }
      QUIVER_RETURN_NOT_OK(ObserveValue(value, child, child_path, row, where));
    }
  } else if (k == TypeNode::kList) {
    if (!node->element) {
      node->element = std::make_unique<TypeNode>();
      // An array's elements go by the array's path (an array of objects: "items.price").
    }
    for (simdjson::dom::element e : simdjson::dom::array(v)) {
      QUIVER_RETURN_NOT_OK(ObserveValue(e, node->element.get(), path, row, where));
    }
  }
  return Status::OK();
}

Result<SchemaPtr> SchemaInferrer::Finish() const {
  // Every declared path must name a key the sample holds: a misspelt one is not ignored.
  for (const std::string& path : declared_order_) {
    const TypeNode* n = &root_;
    size_t start = 0;
    bool found = true;
    while (found) {
      const size_t dot = path.find('.', start);
      const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      while (n->kind == TypeNode::kList && n->element) n = n->element.get();
      auto it = n->index.find(key);
      if (it == n->index.end()) {
        found = false;
        break;
      }
      n = n->children[it->second].get();
      if (dot == std::string::npos) break;
      start = dot + 1;
    }
    if (!found) {
      return Status::Invalid(fmt::format("--types names '{}', which no row of the sample holds (key paths are dotted: "
                                         "a.b is key b of object a)",
                                         EscapeForMessage(path)));
    }
  }
  std::vector<Field> fields;
  for (size_t i = 0; i < root_.names.size(); ++i) fields.push_back(field(root_.names[i], TypeOf(*root_.children[i])));
  return std::make_shared<Schema>(std::move(fields));
}

}  // namespace quiver::json
