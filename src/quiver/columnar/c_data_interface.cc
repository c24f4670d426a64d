#include "quiver/columnar/c_data_interface.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <string>
#include <vector>

namespace quiver {

Result<std::string> ArrowFormatString(const DataType& t) {
  switch (t.id()) {
    case TypeId::kBool: return std::string("b");
    case TypeId::kInt8: return std::string("c");
    case TypeId::kUInt8: return std::string("C");
    case TypeId::kInt16: return std::string("s");
    case TypeId::kUInt16: return std::string("S");
    case TypeId::kInt32: return std::string("i");
    case TypeId::kUInt32: return std::string("I");
    case TypeId::kInt64: return std::string("l");
    case TypeId::kUInt64: return std::string("L");
    case TypeId::kFloat16: return std::string("e");
    case TypeId::kFloat32: return std::string("f");
    case TypeId::kFloat64: return std::string("g");
    case TypeId::kDecimal128: return fmt::format("d:{},{}", t.precision(), t.scale());
    case TypeId::kDate32: return std::string("tdD");
    case TypeId::kTime32: return std::string(t.unit() == TimeUnit::kSecond ? "tts" : "ttm");
    case TypeId::kTime64: return std::string(t.unit() == TimeUnit::kMicro ? "ttu" : "ttn");
    case TypeId::kTimestamp: {
      const char* u = t.unit() == TimeUnit::kSecond ? "s" : t.unit() == TimeUnit::kMilli ? "m"
                    : t.unit() == TimeUnit::kMicro  ? "u" : "n";
      return fmt::format("ts{}:{}", u, t.timezone());
    }
    case TypeId::kString: return std::string("u");
    case TypeId::kBinary: return std::string("z");
    case TypeId::kFixedSizeBinary: return fmt::format("w:{}", t.fixed_size());
    case TypeId::kList: return std::string("+l");
    case TypeId::kStruct: return std::string("+s");
    case TypeId::kMap: return std::string("+m");
    case TypeId::kDenseUnion: {
      std::string f = "+ud:";
      for (size_t i = 0; i < t.type_codes().size(); ++i) f += fmt::format("{}{}", i ? "," : "", t.type_codes()[i]);
      return f;
    }
  }
  return Status::NotImplemented(fmt::format("no Arrow format for {}", t.ToString()));
}

namespace {

// ---- export ---------------------------------------------------------------------------

struct SchemaPrivate {
  std::string format, name, metadata;
  std::vector<ArrowSchema> child_structs;
  std::vector<ArrowSchema*> child_ptrs;
};

void ReleaseSchema(ArrowSchema* s) {
  if (s == nullptr || s->release == nullptr) return;
  auto* p = static_cast<SchemaPrivate*>(s->private_data);
  for (auto& c : p->child_structs) {
    if (c.release) c.release(&c);
  }
  delete p;
  s->release = nullptr;
}

std::string EncodeMetadata(const KeyValueMetadata& md) {
  if (md.empty()) return {};
  std::string out;
  auto put32 = [&](int32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  put32(static_cast<int32_t>(md.size()));
  for (const auto& [k, v] : md) {
    put32(static_cast<int32_t>(k.size()));
    out += k;
    put32(static_cast<int32_t>(v.size()));
    out += v;
  }
  return out;
}

Status ExportSchemaNode(const std::string& name, const DataType& type, bool nullable, const KeyValueMetadata& md,
                        ArrowSchema* out) {
  QUIVER_ASSIGN_OR_RETURN(std::string format, ArrowFormatString(type));
  auto* p = new SchemaPrivate;
  p->format = std::move(format);
  p->name = name;
  p->metadata = EncodeMetadata(md);
  p->child_structs.resize(type.fields().size());
  for (size_t i = 0; i < type.fields().size(); ++i) {
    const Field& f = type.fields()[i];
    Status st = ExportSchemaNode(f.name, *f.type, f.nullable, f.metadata, &p->child_structs[i]);
    if (!st.ok()) {
      for (size_t j = 0; j < i; ++j) p->child_structs[j].release(&p->child_structs[j]);
      delete p;
      return st;
    }
  }
  for (auto& c : p->child_structs) p->child_ptrs.push_back(&c);
  out->format = p->format.c_str();
  out->name = p->name.c_str();
  out->metadata = p->metadata.empty() ? nullptr : p->metadata.data();
  out->flags = (nullable ? ARROW_FLAG_NULLABLE : 0) |
               (type.id() == TypeId::kMap && type.keys_sorted() ? ARROW_FLAG_MAP_KEYS_SORTED : 0);
  out->n_children = static_cast<int64_t>(p->child_ptrs.size());
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = nullptr;
  out->release = ReleaseSchema;
  out->private_data = p;
  return Status::OK();
}

struct ArrayPrivate {
  std::shared_ptr<ArrayData> data;
  std::vector<const void*> buffers;
  std::vector<ArrowArray> child_structs;
  std::vector<ArrowArray*> child_ptrs;
};

void ReleaseArray(ArrowArray* a) {
  if (a == nullptr || a->release == nullptr) return;
  auto* p = static_cast<ArrayPrivate*>(a->private_data);
  for (auto& c : p->child_structs) {
    if (c.release) c.release(&c);
  }
  delete p;
  a->release = nullptr;
}

void ExportArrayNode(const std::shared_ptr<ArrayData>& d, ArrowArray* out) {
  auto* p = new ArrayPrivate;
  p->data = d;
  // A union has no validity buffer in Arrow: its null slots already point at null member entries.
  const bool is_union = d->type->id() == TypeId::kDenseUnion;
  for (size_t i = is_union ? 1 : 0; i < d->buffers.size(); ++i) p->buffers.push_back(d->buffers[i] ? d->buffers[i]->data() : nullptr);
  p->child_structs.resize(d->children.size());
  for (size_t i = 0; i < d->children.size(); ++i) ExportArrayNode(d->children[i], &p->child_structs[i]);
  for (auto& c : p->child_structs) p->child_ptrs.push_back(&c);
  out->length = d->length;
  out->null_count = is_union ? 0 : d->GetNullCount();
  out->offset = d->offset;
  out->n_buffers = static_cast<int64_t>(p->buffers.size());
  out->n_children = static_cast<int64_t>(p->child_ptrs.size());
  out->buffers = p->buffers.data();
  out->children = p->child_ptrs.empty() ? nullptr : p->child_ptrs.data();
  out->dictionary = nullptr;
  out->release = ReleaseArray;
  out->private_data = p;
}

// ---- import ---------------------------------------------------------------------------

// Releases the producer's schema when the import is done with it, whatever happens.
struct SchemaReleaser {
  ArrowSchema* s;
  ~SchemaReleaser() {
    if (s && s->release) s->release(s);
  }
};

Result<int64_t> ParseInt(std::string_view s, std::string_view whole) {
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    return Status::Invalid(fmt::format("Arrow format '{}': bad number '{}'", whole, s));
  }
  return v;
}

KeyValueMetadata DecodeMetadata(const char* md) {
  KeyValueMetadata out;
  if (md == nullptr) return out;
  auto get32 = [&](const char*& p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    p += 4;
    return v;
  };
  const char* p = md;
  int32_t n = get32(p);
  for (int32_t i = 0; i < n; ++i) {
    int32_t kl = get32(p);
    std::string k(p, static_cast<size_t>(kl));
    p += kl;
    int32_t vl = get32(p);
    std::string v(p, static_cast<size_t>(vl));
    p += vl;
    out.emplace_back(std::move(k), std::move(v));
  }
  return out;
}

Result<Field> ImportFieldNode(const ArrowSchema* s, int depth);

Result<TypePtr> ImportTypeNode(const ArrowSchema* s, int depth) {
  if (depth > 64) return Status::Invalid("Arrow schema nested deeper than 64 levels");
  if (s->format == nullptr) return Status::Invalid("Arrow schema without a format string");
  if (s->dictionary != nullptr) return Status::NotImplemented("dictionary-encoded Arrow arrays are not supported");
  std::string_view f(s->format);
  auto need_children = [&](int64_t n) -> Status {
    if (s->n_children != n) {
      return Status::Invalid(fmt::format("Arrow format '{}' needs {} children, has {}", f, n, s->n_children));
    }
    return Status::OK();
  };
  if (f.size() == 1) {
    switch (f[0]) {
      case 'b': return boolean();
      case 'c': return int8();
      case 'C': return uint8();
      case 's': return int16();
      case 'S': return uint16();
      case 'i': return int32();
      case 'I': return uint32();
      case 'l': return int64();
      case 'L': return uint64();
      case 'e': return float16();
      case 'f': return float32();
      case 'g': return float64();
      case 'u': return utf8();
      case 'z': return binary();
      default: break;
    }
  }
  if (f == "tdD") return date32();
  if (f == "tts") return time32(TimeUnit::kSecond);
  if (f == "ttm") return time32(TimeUnit::kMilli);
  if (f == "ttu") return time64(TimeUnit::kMicro);
  if (f == "ttn") return time64(TimeUnit::kNano);
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':') {
    TimeUnit unit;
    switch (f[2]) {
      case 's': unit = TimeUnit::kSecond; break;
      case 'm': unit = TimeUnit::kMilli; break;
      case 'u': unit = TimeUnit::kMicro; break;
      case 'n': unit = TimeUnit::kNano; break;
      default: return Status::Invalid(fmt::format("Arrow format '{}': unknown timestamp unit", f));
    }
    return timestamp(unit, std::string(f.substr(4)));
  }
  if (f.substr(0, 2) == "w:") {
    QUIVER_ASSIGN_OR_RETURN(int64_t w, ParseInt(f.substr(2), f));
    if (w <= 0 || w > INT32_MAX) return Status::Invalid(fmt::format("Arrow format '{}': bad width", f));
    return fixed_size_binary(static_cast<int32_t>(w));
  }
  if (f.substr(0, 2) == "d:") {
    std::string_view rest = f.substr(2);
    size_t comma = rest.find(',');
    if (comma == std::string_view::npos) return Status::Invalid(fmt::format("Arrow format '{}': bad decimal", f));
    std::string_view ps = rest.substr(0, comma), ss = rest.substr(comma + 1);
    size_t comma2 = ss.find(',');
    if (comma2 != std::string_view::npos) {
      if (ss.substr(comma2 + 1) != "128") {
        return Status::NotImplemented(fmt::format("Arrow format '{}': only 128-bit decimals are supported", f));
      }
      ss = ss.substr(0, comma2);
    }
    QUIVER_ASSIGN_OR_RETURN(int64_t p, ParseInt(ps, f));
    QUIVER_ASSIGN_OR_RETURN(int64_t sc, ParseInt(ss, f));
    if (p < 1 || p > 38 || sc > p || sc < 0) return Status::Invalid(fmt::format("Arrow format '{}': bad precision or scale", f));
    return decimal128(static_cast<int32_t>(p), static_cast<int32_t>(sc));
  }
  if (f == "+l" || f == "+s" || f == "+m") {
    if (f != "+s") QUIVER_RETURN_NOT_OK(need_children(1));
    if (s->n_children < 0 || (s->n_children > 0 && s->children == nullptr)) {
      return Status::Invalid(fmt::format("Arrow format '{}': missing children", f));
    }
    std::vector<Field> fields;
    for (int64_t i = 0; i < s->n_children; ++i) {
      QUIVER_ASSIGN_OR_RETURN(Field child, ImportFieldNode(s->children[i], depth + 1));
      fields.push_back(std::move(child));
    }
    if (f == "+l") return list(std::move(fields[0]));
    if (f == "+s") return struct_(std::move(fields));
    const Field& entries = fields[0];
    if (entries.type->id() != TypeId::kStruct || entries.type->num_fields() != 2) {
      return Status::Invalid("Arrow map child must be a struct of key and value");
    }
    return map(entries.type->field(0).type, entries.type->field(1).type, entries.type->field(1).nullable,
               (s->flags & ARROW_FLAG_MAP_KEYS_SORTED) != 0);
  }
  if (f.substr(0, 4) == "+ud:") {
    std::vector<int8_t> codes;
    for (std::string_view rest = f.substr(4); !rest.empty();) {
      const size_t comma = rest.find(',');
      QUIVER_ASSIGN_OR_RETURN(int64_t c, ParseInt(rest.substr(0, comma), f));
      if (c < 0 || c > 127) return Status::Invalid(fmt::format("Arrow format '{}': type code {} outside 0..127", f, c));
      codes.push_back(static_cast<int8_t>(c));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    QUIVER_RETURN_NOT_OK(need_children(static_cast<int64_t>(codes.size())));
    if (!codes.empty() && s->children == nullptr) return Status::Invalid(fmt::format("Arrow format '{}': missing children", f));
    std::vector<Field> fields;
    for (size_t i = 0; i < codes.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (codes[j] == codes[i]) return Status::Invalid(fmt::format("Arrow format '{}': type code {} twice", f, codes[i]));
      }
      QUIVER_ASSIGN_OR_RETURN(Field child, ImportFieldNode(s->children[i], depth + 1));
      fields.push_back(std::move(child));
    }
    return dense_union(std::move(fields), std::move(codes));
  }
  if (f.substr(0, 4) == "+us:") {
    return Status::NotImplemented(fmt::format("Arrow format '{}': sparse unions are not supported (quiver's unions are dense)", f));
  }
  return Status::NotImplemented(fmt::format("Arrow format '{}' is not supported", f));
}

Result<Field> ImportFieldNode(const ArrowSchema* s, int depth) {
  if (s == nullptr) return Status::Invalid("null Arrow schema");
  QUIVER_ASSIGN_OR_RETURN(TypePtr type, ImportTypeNode(s, depth));
  return Field{s->name ? s->name : "", std::move(type), (s->flags & ARROW_FLAG_NULLABLE) != 0,
               DecodeMetadata(s->metadata)};
}

// Owns the moved ArrowArray; buffers of the whole tree keep it alive.
struct ImportedArray {
  ArrowArray array;
  ~ImportedArray() {
    if (array.release) array.release(&array);
  }
};

Result<std::shared_ptr<ArrayData>> ImportArrayNode(const ArrowArray* a, const TypePtr& type,
                                                   const std::shared_ptr<ImportedArray>& owner, int depth) {
  if (depth > 64) return Status::Invalid("Arrow array nested deeper than 64 levels");
  if (a->length < 0 || a->offset < 0) return Status::Invalid("Arrow array with negative length or offset");
  const TypeId id = type->id();
  // A dense union's two buffers (type codes, offsets) follow quiver's empty validity slot.
  const bool is_union = id == TypeId::kDenseUnion;
  const int64_t expected_buffers = id == TypeId::kStruct ? 1 : type->is_binary_like() ? 3 : 2;
  if (a->n_buffers != expected_buffers) {
    return Status::Invalid(fmt::format("Arrow array of {} has {} buffers, expected {}", type->ToString(),
                                       a->n_buffers, expected_buffers));
  }
  const int64_t expected_children = type->num_fields();
  if (a->n_children != expected_children) {
    return Status::Invalid(fmt::format("Arrow array of {} has {} children, expected {}", type->ToString(),
                                       a->n_children, expected_children));
  }
  if (a->buffers == nullptr) return Status::Invalid("Arrow array without a buffers list");
  auto d = std::make_shared<ArrayData>();
  d->type = type;
  d->length = a->length;
  d->offset = a->offset;
  d->null_count = a->null_count;
  const int64_t end = a->offset + a->length;
  auto wrap = [&](int i, int64_t size) -> std::shared_ptr<Buffer> {
    const void* p = a->buffers[i];
    if (p == nullptr) return nullptr;
    return Buffer::Wrap(static_cast<const uint8_t*>(p), size, owner);
  };
  if (is_union) {
    d->null_count = 0;
    d->buffers = {nullptr, wrap(0, end), wrap(1, end * 4)};
    for (int i = 0; i < 2; ++i) {
      if (a->buffers[i] == nullptr && end > 0) return Status::Invalid(fmt::format("Arrow array of {}: buffer {} is null", type->ToString(), i));
    }
  } else {
    d->buffers.push_back(a->null_count == 0 ? nullptr : wrap(0, bit_util::BytesForBits(end)));
    if (a->null_count != 0 && d->buffers[0] == nullptr) d->null_count = 0;  // no bitmap: all valid
  }
  for (int64_t i = 1; i < (is_union ? 0 : expected_buffers); ++i) {
    if (a->buffers[i] == nullptr && end > 0) {
      return Status::Invalid(fmt::format("Arrow array of {}: buffer {} is null", type->ToString(), i));
    }
  }
  switch (id) {
    case TypeId::kStruct:
    case TypeId::kDenseUnion:
      break;
    case TypeId::kBool:
      d->buffers.push_back(wrap(1, bit_util::BytesForBits(end)));
      break;
    case TypeId::kString:
    case TypeId::kBinary: {
      auto offsets = wrap(1, (end + 1) * 4);
      int64_t data_size = offsets ? offsets->data_as<int32_t>()[end] : 0;
      if (data_size < 0) return Status::Invalid("Arrow string array with a negative last offset");
      d->buffers.push_back(offsets);
      auto bytes = wrap(2, data_size);
      d->buffers.push_back(bytes ? bytes : Buffer::Wrap(nullptr, 0, nullptr));
      break;
    }
    case TypeId::kList:
    case TypeId::kMap:
      d->buffers.push_back(wrap(1, (end + 1) * 4));
      break;
    default:
      d->buffers.push_back(wrap(1, end * type->byte_width()));
      break;
  }
  for (size_t i = 1; i < d->buffers.size(); ++i) {
    if (!d->buffers[i]) d->buffers[i] = Buffer::Wrap(nullptr, 0, nullptr);
  }
  for (int64_t i = 0; i < a->n_children; ++i) {
    if (a->children == nullptr || a->children[i] == nullptr) return Status::Invalid("Arrow array child is null");
    QUIVER_ASSIGN_OR_RETURN(auto child,
                            ImportArrayNode(a->children[i], type->field(static_cast<int>(i)).type, owner, depth + 1));
    d->children.push_back(std::move(child));
  }
  return d;
}

}  // namespace

Status ExportField(const Field& field, ArrowSchema* out) {
  return ExportSchemaNode(field.name, *field.type, field.nullable, field.metadata, out);
}

Status ExportType(const DataType& type, ArrowSchema* out) { return ExportSchemaNode("", type, true, {}, out); }

Status ExportSchema(const Schema& schema, ArrowSchema* out) {
  return ExportSchemaNode("", *struct_(schema.fields()), false, schema.metadata(), out);
}

Status ExportArray(const Array& array, ArrowArray* out) {
  ExportArrayNode(array.data(), out);
  return Status::OK();
}

Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out) { return ExportArray(batch.ToStructArray(), out); }

Result<Field> ImportField(ArrowSchema* schema) {
  SchemaReleaser releaser{schema};
  return ImportFieldNode(schema, 0);
}

Result<TypePtr> ImportType(ArrowSchema* schema) {
  QUIVER_ASSIGN_OR_RETURN(Field f, ImportField(schema));
  return f.type;
}

Result<SchemaPtr> ImportSchema(ArrowSchema* schema) {
  QUIVER_ASSIGN_OR_RETURN(Field f, ImportField(schema));
  if (f.type->id() != TypeId::kStruct) {
    return Status::Invalid(fmt::format("an Arrow schema must be a struct, got {}", f.type->ToString()));
  }
  return std::make_shared<const Schema>(f.type->fields(), f.metadata);
}

Result<Array> ImportArray(ArrowArray* array, const TypePtr& type) {
  if (array == nullptr || array->release == nullptr) return Status::Invalid("Arrow array is null or released");
  auto owner = std::make_shared<ImportedArray>();
  owner->array = *array;
  array->release = nullptr;  // moved: the producer's struct is now ours
  QUIVER_ASSIGN_OR_RETURN(auto data, ImportArrayNode(&owner->array, type, owner, 0));
  Array out(std::move(data));
  QUIVER_RETURN_NOT_OK_CTX(out.Validate(), "imported Arrow array");
  return out;
}

Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema) {
  auto type = ImportType(schema);
  if (!type.ok()) {
    if (array && array->release) array->release(array);
    return type.status();
  }
  return ImportArray(array, *type);
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, SchemaPtr schema) {
  QUIVER_ASSIGN_OR_RETURN(Array s, ImportArray(array, struct_(schema->fields())));
  if (s.null_count() != 0) return Status::Invalid("an imported record batch must have no null rows");
  std::vector<Array> columns;
  for (int i = 0; i < schema->num_fields(); ++i) columns.push_back(StructArray(s).field(i));
  return RecordBatch::Make(std::move(schema), std::move(columns));
}

Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema) {
  auto s = ImportSchema(schema);
  if (!s.ok()) {
    if (array && array->release) array->release(array);
    return s.status();
  }
  return ImportRecordBatch(array, *s);
}

}  // namespace quiver
