#include "quiver/json/convert_internal.h"

#include <fmt/format.h>

#include <limits>

#include "quiver/columnar/value_parse.h"
#include "quiver/core/utf8.h"

namespace quiver::json {

using simdjson::dom::element_type;

struct RowConverter::Column {
  enum Kind : uint8_t { kBool, kInt32, kInt64, kFloat32, kFloat64, kString, kDate, kTimestamp, kStruct, kList };
  Kind kind;
  bool any_as_text = false;  // a declared string: any value, a non-string as its JSON text
  TimeUnit unit = TimeUnit::kMicro;
  ArrayBuilder* builder = nullptr;
  std::string path;
  TypePtr type;
  // kStruct: children by key, the key expected next tried first; `seen` stamps per child.
  std::vector<std::unique_ptr<Column>> children;
  std::vector<std::string> names;
  std::unordered_map<std::string_view, size_t> index;
  std::vector<uint64_t> seen;
  uint64_t stamp = 0;
};

namespace {

using Column = RowConverter::Column;

Result<std::unique_ptr<Column>> MakeColumn(const TypePtr& type, ArrayBuilder* builder, std::string path,
                                           const std::unordered_set<std::string>& declared) {
  auto c = std::make_unique<Column>();
  c->builder = builder;
  c->type = type;
  c->path = std::move(path);
  switch (type->id()) {
    case TypeId::kBool: c->kind = Column::kBool; break;
    case TypeId::kInt32: c->kind = Column::kInt32; break;
    case TypeId::kInt64: c->kind = Column::kInt64; break;
    case TypeId::kFloat32: c->kind = Column::kFloat32; break;
    case TypeId::kFloat64: c->kind = Column::kFloat64; break;
    case TypeId::kString:
      c->kind = Column::kString;
      c->any_as_text = declared.count(c->path) > 0;
      break;
    case TypeId::kDate32: c->kind = Column::kDate; break;
    case TypeId::kTimestamp:
      c->kind = Column::kTimestamp;
      c->unit = type->unit();
      break;
    case TypeId::kStruct: {
      c->kind = Column::kStruct;
      auto* sb = static_cast<StructBuilder*>(builder);
      for (int i = 0; i < sb->num_fields(); ++i) {
        const Field& f = type->fields()[static_cast<size_t>(i)];
        QUIVER_ASSIGN_OR_RETURN(auto child, MakeColumn(f.type, sb->field_builder(i),
                                                       c->path.empty() ? f.name : c->path + "." + f.name, declared));
        c->names.push_back(f.name);
        c->children.push_back(std::move(child));
      }
      for (size_t i = 0; i < c->names.size(); ++i) c->index.emplace(c->names[i], i);
      c->seen.assign(c->children.size(), 0);
      break;
    }
    case TypeId::kList: {
      c->kind = Column::kList;
      auto* lb = static_cast<ListBuilder*>(builder);
      QUIVER_ASSIGN_OR_RETURN(auto child, MakeColumn(type->fields()[0].type, lb->value_builder(), c->path, declared));
      c->children.push_back(std::move(child));
      break;
    }
    default:
      return Status::Invalid(fmt::format("'{}': JSON reads bool, int32, int64, float32, float64, string, date, "
                                         "timestamp, objects and arrays, not {}",
                                         EscapeForMessage(c->path), type->ToString()));
  }
  return c;
}

const char* JsonKind(element_type t) {
  switch (t) {
    case element_type::ARRAY: return "an array";
    case element_type::OBJECT: return "an object";
    case element_type::INT64:
    case element_type::UINT64: return "an integer";
    case element_type::DOUBLE: return "a number";
    case element_type::STRING: return "a string";
    case element_type::BOOL: return "a boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "?";
}

// "NaN", "inf" and "-inf": how the JSON Lines writer spells the floats JSON has no number for.
bool FloatWord(std::string_view s, double* x) {
  if (s == "NaN") *x = std::numeric_limits<double>::quiet_NaN();
  else if (s == "inf") *x = std::numeric_limits<double>::infinity();
  else if (s == "-inf") *x = -std::numeric_limits<double>::infinity();
  else return false;
  return true;
}

void MarkUtf8Checked(ArrayData* a) {
  if (a->type->id() == TypeId::kString) a->utf8_checked = true;
  for (auto& c : a->children) MarkUtf8Checked(c.get());
}

}  // namespace

Result<std::unique_ptr<RowConverter>> RowConverter::Make(const SchemaPtr& schema,
                                                         const std::unordered_set<std::string>& declared,
                                                         MemoryPool* pool) {
  std::unique_ptr<RowConverter> r(new RowConverter());
  r->schema_ = schema;
  r->root_ = std::make_unique<Column>();
  r->root_->kind = Column::kStruct;
  for (const Field& f : schema->fields()) {
    QUIVER_ASSIGN_OR_RETURN(auto b, MakeBuilder(f.type, pool));
    QUIVER_ASSIGN_OR_RETURN(auto c, MakeColumn(f.type, b.get(), f.name, declared));
    r->root_->names.push_back(f.name);
    r->root_->children.push_back(std::move(c));
    r->builders_.push_back(std::move(b));
  }
  for (size_t i = 0; i < r->root_->names.size(); ++i) r->root_->index.emplace(r->root_->names[i], i);
  r->root_->seen.assign(r->root_->children.size(), 0);
  return r;
}

RowConverter::~RowConverter() = default;

bool RowConverter::Wrong(const Column& c, const simdjson::dom::element& v) {
  // The value (a string's text, anything else as its JSON) escaped and cut as CSV's errors cut
  // a field.
  const std::string text =
      v.type() == element_type::STRING ? std::string(v.get_string().value_unsafe()) : simdjson::to_string(v);
  error_ = fmt::format("'{}' is {}, got {}: {}", EscapeForMessage(c.path), c.type->ToString(), JsonKind(v.type()),
                       EscapeForMessage(text));
  if (c.kind == Column::kString && !c.any_as_text) {
    error_ += fmt::format(" (--types '{}=string' keeps any value as text)", EscapeForMessage(c.path));
  }
  return false;
}

bool RowConverter::Append(const simdjson::dom::element& doc) {
  if (doc.type() != element_type::OBJECT) {
    error_ = fmt::format("a row must be a JSON object, got {}", JsonKind(doc.type()));
    return false;
  }
  if (!AppendObject(*root_, doc)) return false;
  ++rows_;
  return true;
}

bool RowConverter::AppendObject(Column& c, const simdjson::dom::element& v) {
  const uint64_t stamp = ++c.stamp;
  size_t next = 0;
  const simdjson::dom::object fields = v.get_object().value_unsafe();
  for (auto [key, value] : fields) {
    size_t i;
    if (next < c.names.size() && c.names[next] == key) {
      i = next;
    } else {
      auto it = c.index.find(key);
      if (it == c.index.end()) {
        const std::string path = c.path.empty() ? std::string(key) : fmt::format("{}.{}", c.path, key);
        error_ = fmt::format("key '{}' is not in the schema: first seen after the rows it was inferred from "
                             "(a larger --infer-rows, or --types '{}=TYPE', takes it in)",
                             EscapeForMessage(path), EscapeForMessage(path));
        return false;
      }
      i = it->second;
    }
    if (c.seen[i] == stamp) {
      error_ = fmt::format("key '{}' appears twice in one object",
                           EscapeForMessage(c.path.empty() ? std::string(key) : fmt::format("{}.{}", c.path, key)));
      return false;
    }
    c.seen[i] = stamp;
    next = i + 1;
    if (!AppendValue(*c.children[i], value)) return false;
  }
  for (size_t i = 0; i < c.children.size(); ++i) {
    if (c.seen[i] != stamp && !c.children[i]->builder->AppendNull().ok()) {
      error_ = "out of memory";
      return false;
    }
  }
  return true;
}

bool RowConverter::AppendValue(Column& c, const simdjson::dom::element& v) {
  const element_type t = v.type();
  Status st;
  if (t == element_type::NULL_VALUE) {
    st = c.builder->AppendNull();
  } else {
    switch (c.kind) {
      case Column::kBool:
        if (t != element_type::BOOL) return Wrong(c, v);
        st = static_cast<BooleanBuilder*>(c.builder)->Append(v.get_bool().value_unsafe());
        break;
      case Column::kInt64:
        if (t != element_type::INT64) return Wrong(c, v);
        st = static_cast<NumericBuilder<int64_t>*>(c.builder)->Append(v.get_int64().value_unsafe());
        break;
      case Column::kInt32: {
        if (t != element_type::INT64) return Wrong(c, v);
        const int64_t x = v.get_int64().value_unsafe();
        if (x < INT32_MIN || x > INT32_MAX) return Wrong(c, v);
        st = static_cast<NumericBuilder<int32_t>*>(c.builder)->Append(static_cast<int32_t>(x));
        break;
      }
      case Column::kFloat64:
      case Column::kFloat32: {
        double x;
        if (t == element_type::DOUBLE) x = v.get_double().value_unsafe();
        else if (t == element_type::INT64) x = static_cast<double>(v.get_int64().value_unsafe());
        else if (t == element_type::UINT64) x = static_cast<double>(v.get_uint64().value_unsafe());
        else if (t == element_type::STRING && !FloatWord(v.get_string().value_unsafe(), &x)) return Wrong(c, v);
        else if (t != element_type::STRING) return Wrong(c, v);
        if (c.kind == Column::kFloat64) st = static_cast<NumericBuilder<double>*>(c.builder)->Append(x);
        else st = static_cast<NumericBuilder<float>*>(c.builder)->Append(static_cast<float>(x));
        break;
      }
      case Column::kString:
        if (t == element_type::STRING) {
          st = static_cast<BinaryBuilder*>(c.builder)->Append(v.get_string().value_unsafe());
        } else if (c.any_as_text) {
          st = static_cast<BinaryBuilder*>(c.builder)->Append(simdjson::to_string(v));
        } else {
          return Wrong(c, v);
        }
        break;
      case Column::kDate: {
        int32_t days;
        if (t != element_type::STRING || !ParseDate(v.get_string().value_unsafe(), &days)) return Wrong(c, v);
        st = static_cast<NumericBuilder<int32_t>*>(c.builder)->Append(days);
        break;
      }
      case Column::kTimestamp: {
        ParsedTimestamp ts;
        if (t != element_type::STRING || !ParseTimestamp(v.get_string().value_unsafe(), &ts)) return Wrong(c, v);
        int64_t x;
        if (!MicrosInUnit(ts.micros, c.unit, &x)) return Wrong(c, v);  // nanoseconds past 2262
        st = static_cast<NumericBuilder<int64_t>*>(c.builder)->Append(x);
        break;
      }
      case Column::kStruct:
        if (t != element_type::OBJECT) return Wrong(c, v);
        st = static_cast<StructBuilder*>(c.builder)->Append(true);
        if (!st.ok()) break;
        return AppendObject(c, v);
      case Column::kList: {
        if (t != element_type::ARRAY) return Wrong(c, v);
        st = static_cast<ListBuilder*>(c.builder)->Append(true);
        if (!st.ok()) break;
        Column& e = *c.children[0];
        // A copy: value_unsafe() of a temporary result is a reference into it.
        const simdjson::dom::array items = v.get_array().value_unsafe();
        for (simdjson::dom::element x : items) {
          if (!AppendValue(e, x)) return false;
        }
        return true;
      }
    }
  }
  if (!st.ok()) {
    error_ = st.message();
    return false;
  }
  return true;
}

Result<std::shared_ptr<RecordBatch>> RowConverter::Finish() {
  std::vector<Array> columns;
  for (auto& b : builders_) {
    QUIVER_ASSIGN_OR_RETURN(Array a, b->Finish());
    MarkUtf8Checked(a.data().get());
    columns.push_back(std::move(a));
  }
  return RecordBatch::Make(schema_, std::move(columns));
}

}  // namespace quiver::json
