#include "quiver/columnar/type.h"

#include <fmt/format.h>

namespace quiver {

const char* TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}

int DataType::bit_width() const {
  switch (id_) {
    case TypeId::kBool: return 1;
    case TypeId::kInt8: case TypeId::kUInt8: return 8;
    case TypeId::kInt16: case TypeId::kUInt16: case TypeId::kFloat16: return 16;
    case TypeId::kInt32: case TypeId::kUInt32: case TypeId::kFloat32:
    case TypeId::kDate32: case TypeId::kTime32: return 32;
    case TypeId::kInt64: case TypeId::kUInt64: case TypeId::kFloat64:
    case TypeId::kTime64: case TypeId::kTimestamp: return 64;
    case TypeId::kDecimal128: return 128;
    case TypeId::kFixedSizeBinary: return fixed_size_ * 8;
    default: return 0;
  }
}

bool Field::Equals(const Field& other, bool check_metadata) const {
  if (name != other.name || nullable != other.nullable) return false;
  if ((type == nullptr) != (other.type == nullptr)) return false;
  if (type && !type->Equals(*other.type)) return false;
  return !check_metadata || metadata == other.metadata;
}

std::string Field::ToString() const {
  return fmt::format("{}: {}{}", name, type ? type->ToString() : "?", nullable ? "" : " not null");
}

bool DataType::Equals(const DataType& o) const {
  if (this == &o) return true;
  if (id_ != o.id_) return false;
  switch (id_) {
    case TypeId::kDecimal128: return precision_ == o.precision_ && scale_ == o.scale_;
    case TypeId::kTime32: case TypeId::kTime64: return unit_ == o.unit_;
    case TypeId::kTimestamp: return unit_ == o.unit_ && timezone_ == o.timezone_;
    case TypeId::kFixedSizeBinary: return fixed_size_ == o.fixed_size_;
    case TypeId::kMap: if (keys_sorted_ != o.keys_sorted_) return false; [[fallthrough]];
    case TypeId::kDenseUnion: if (type_codes_ != o.type_codes_) return false; [[fallthrough]];
    case TypeId::kList: case TypeId::kStruct: {
      if (fields_.size() != o.fields_.size()) return false;
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (!fields_[i].Equals(o.fields_[i])) return false;
      }
      return true;
    }
    default: return true;
  }
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kBool: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "float16";
    case TypeId::kFloat32: return "float";
    case TypeId::kFloat64: return "double";
    case TypeId::kDecimal128: return fmt::format("decimal128({}, {})", precision_, scale_);
    case TypeId::kDate32: return "date32";
    case TypeId::kTime32: return fmt::format("time32[{}]", TimeUnitName(unit_));
    case TypeId::kTime64: return fmt::format("time64[{}]", TimeUnitName(unit_));
    case TypeId::kTimestamp:
      return timezone_.empty() ? fmt::format("timestamp[{}]", TimeUnitName(unit_))
                               : fmt::format("timestamp[{}, tz={}]", TimeUnitName(unit_), timezone_);
    case TypeId::kString: return "string";
    case TypeId::kBinary: return "binary";
    case TypeId::kFixedSizeBinary: return fmt::format("fixed_size_binary[{}]", fixed_size_);
    case TypeId::kList: return fmt::format("list<{}>", fields_[0].ToString());
    case TypeId::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) s += ", ";
        s += fields_[i].ToString();
      }
      return s + ">";
    }
    case TypeId::kMap: {
      const auto& entries = fields_[0].type->fields();
      return fmt::format("map<{}, {}{}>", entries[0].type->ToString(), entries[1].type->ToString(),
                         keys_sorted_ ? ", keys_sorted" : "");
    }
    case TypeId::kDenseUnion: {
      std::string s = "dense_union<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        if (i) s += ", ";
        s += fmt::format("{}={}", fields_[i].ToString(), type_codes_[i]);
      }
      return s + ">";
    }
  }
  return "?";
}

namespace {
TypePtr Simple(TypeId id) { return std::make_shared<DataType>(id, DataType::Params{}); }
}  // namespace

#define QUIVER_SIMPLE_TYPE(fn, id)            \
  TypePtr fn() {                              \
    static const TypePtr t = Simple(TypeId::id); \
    return t;                                 \
  }
QUIVER_SIMPLE_TYPE(boolean, kBool)
QUIVER_SIMPLE_TYPE(int8, kInt8)
QUIVER_SIMPLE_TYPE(int16, kInt16)
QUIVER_SIMPLE_TYPE(int32, kInt32)
QUIVER_SIMPLE_TYPE(int64, kInt64)
QUIVER_SIMPLE_TYPE(uint8, kUInt8)
QUIVER_SIMPLE_TYPE(uint16, kUInt16)
QUIVER_SIMPLE_TYPE(uint32, kUInt32)
QUIVER_SIMPLE_TYPE(uint64, kUInt64)
QUIVER_SIMPLE_TYPE(float16, kFloat16)
QUIVER_SIMPLE_TYPE(float32, kFloat32)
QUIVER_SIMPLE_TYPE(float64, kFloat64)
QUIVER_SIMPLE_TYPE(date32, kDate32)
QUIVER_SIMPLE_TYPE(utf8, kString)
QUIVER_SIMPLE_TYPE(binary, kBinary)
#undef QUIVER_SIMPLE_TYPE

TypePtr decimal128(int32_t precision, int32_t scale) {
  DataType::Params p;
  p.precision = precision;
  p.scale = scale;
  return std::make_shared<DataType>(TypeId::kDecimal128, std::move(p));
}

TypePtr time32(TimeUnit unit) {
  DataType::Params p;
  p.unit = unit;
  return std::make_shared<DataType>(TypeId::kTime32, std::move(p));
}

TypePtr time64(TimeUnit unit) {
  DataType::Params p;
  p.unit = unit;
  return std::make_shared<DataType>(TypeId::kTime64, std::move(p));
}

TypePtr timestamp(TimeUnit unit, std::string timezone) {
  DataType::Params p;
  p.unit = unit;
  p.timezone = std::move(timezone);
  return std::make_shared<DataType>(TypeId::kTimestamp, std::move(p));
}

TypePtr fixed_size_binary(int32_t width) {
  DataType::Params p;
  p.fixed_size = width;
  return std::make_shared<DataType>(TypeId::kFixedSizeBinary, std::move(p));
}

TypePtr list(Field value_field) {
  DataType::Params p;
  p.fields.push_back(std::move(value_field));
  return std::make_shared<DataType>(TypeId::kList, std::move(p));
}

TypePtr list(TypePtr value_type, bool value_nullable) {
  return list(Field{"item", std::move(value_type), value_nullable, {}});
}

TypePtr struct_(std::vector<Field> fields) {
  DataType::Params p;
  p.fields = std::move(fields);
  return std::make_shared<DataType>(TypeId::kStruct, std::move(p));
}

TypePtr map(TypePtr key_type, TypePtr item_type, bool item_nullable, bool keys_sorted) {
  TypePtr entries = struct_({Field{"key", std::move(key_type), false, {}},
                             Field{"value", std::move(item_type), item_nullable, {}}});
  DataType::Params p;
  p.keys_sorted = keys_sorted;
  p.fields.push_back(Field{"entries", std::move(entries), false, {}});
  return std::make_shared<DataType>(TypeId::kMap, std::move(p));
}

TypePtr dense_union(std::vector<Field> members, std::vector<int8_t> type_codes) {
  if (type_codes.empty()) {
    for (size_t i = 0; i < members.size(); ++i) type_codes.push_back(static_cast<int8_t>(i));
  }
  DataType::Params p;
  p.fields = std::move(members);
  p.type_codes = std::move(type_codes);
  return std::make_shared<DataType>(TypeId::kDenseUnion, std::move(p));
}

Field field(std::string name, TypePtr type, bool nullable, KeyValueMetadata metadata) {
  return Field{std::move(name), std::move(type), nullable, std::move(metadata)};
}

}  // namespace quiver
