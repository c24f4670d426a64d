// DataType and Field: the logical types of quiver's Arrow-layout columns.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace quiver {

enum class TypeId : uint8_t {
  kBool,
  kInt8, kInt16, kInt32, kInt64,
  kUInt8, kUInt16, kUInt32, kUInt64,
  kFloat16, kFloat32, kFloat64,
  kDecimal128,
  kDate32,
  kTime32,     // seconds or milliseconds since midnight, int32
  kTime64,     // microseconds or nanoseconds since midnight, int64
  kTimestamp,  // int64 since the Unix epoch, with a unit and an optional time zone
  kString,     // UTF-8, int32 offsets
  kBinary,     // bytes, int32 offsets
  kFixedSizeBinary,
  kList,
  kStruct,
  kMap,
  kDenseUnion,  // one member per slot: an int8 type code and an int32 offset into that member
};

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };
const char* TimeUnitName(TimeUnit unit);  // "s", "ms", "us", "ns"

class DataType;
using TypePtr = std::shared_ptr<const DataType>;

// (key, value) pairs attached to a field or schema, in order.
using KeyValueMetadata = std::vector<std::pair<std::string, std::string>>;

struct Field {
  std::string name;
  TypePtr type;
  bool nullable = true;
  KeyValueMetadata metadata = {};

  bool Equals(const Field& other, bool check_metadata = false) const;
  std::string ToString() const;
};

class DataType {
 public:
  TypeId id() const { return id_; }
  // Fixed-width types: bits per value (1 for bool); 0 for variable-width and nested types.
  int bit_width() const;
  int byte_width() const { return bit_width() / 8; }
  bool is_fixed_width() const { return bit_width() > 0; }
  bool is_nested() const {
    return id_ == TypeId::kList || id_ == TypeId::kStruct || id_ == TypeId::kMap || id_ == TypeId::kDenseUnion;
  }
  bool is_binary_like() const { return id_ == TypeId::kString || id_ == TypeId::kBinary; }

  int32_t precision() const { return precision_; }  // decimal
  int32_t scale() const { return scale_; }          // decimal
  TimeUnit unit() const { return unit_; }           // time32/time64/timestamp
  const std::string& timezone() const { return timezone_; }
  int32_t fixed_size() const { return fixed_size_; }  // fixed_size_binary width in bytes
  bool keys_sorted() const { return keys_sorted_; }   // map

  // list: one child ("item"); struct: the fields; map: one child "entries", a non-nullable
  // struct of a non-nullable "key" and a "value"; dense union: its members.
  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  int num_fields() const { return static_cast<int>(fields_.size()); }

  // dense union: the type code of each member (0..127, distinct), and the member of a code
  // (-1 when no member has it).
  const std::vector<int8_t>& type_codes() const { return type_codes_; }
  int ChildOfCode(int8_t code) const {
    for (size_t i = 0; i < type_codes_.size(); ++i) {
      if (type_codes_[i] == code) return static_cast<int>(i);
    }
    return -1;
  }

  bool Equals(const DataType& other) const;
  std::string ToString() const;  // e.g. "timestamp[us, tz=UTC]", "list<item: int32>", "dense_union<a: int32=0>"

  // Construction is through the factories below.
  struct Params {
    int32_t precision = 0, scale = 0, fixed_size = 0;
    TimeUnit unit = TimeUnit::kSecond;
    std::string timezone;
    bool keys_sorted = false;
    std::vector<Field> fields;
    std::vector<int8_t> type_codes;
  };
  DataType(TypeId id, Params p)
      : id_(id), precision_(p.precision), scale_(p.scale), fixed_size_(p.fixed_size), unit_(p.unit),
        keys_sorted_(p.keys_sorted), timezone_(std::move(p.timezone)), fields_(std::move(p.fields)),
        type_codes_(std::move(p.type_codes)) {}

 private:
  TypeId id_;
  int32_t precision_, scale_, fixed_size_;
  TimeUnit unit_;
  bool keys_sorted_;
  std::string timezone_;
  std::vector<Field> fields_;
  std::vector<int8_t> type_codes_;
};

inline bool operator==(const DataType& a, const DataType& b) { return a.Equals(b); }

TypePtr boolean();
TypePtr int8();
TypePtr int16();
TypePtr int32();
TypePtr int64();
TypePtr uint8();
TypePtr uint16();
TypePtr uint32();
TypePtr uint64();
TypePtr float16();
TypePtr float32();
TypePtr float64();
TypePtr decimal128(int32_t precision, int32_t scale);  // 1 <= precision <= 38
TypePtr date32();
TypePtr time32(TimeUnit unit);  // kSecond or kMilli
TypePtr time64(TimeUnit unit);  // kMicro or kNano
TypePtr timestamp(TimeUnit unit, std::string timezone = "");
TypePtr utf8();
TypePtr binary();
TypePtr fixed_size_binary(int32_t width);
TypePtr list(TypePtr value_type, bool value_nullable = true);
TypePtr list(Field value_field);
TypePtr struct_(std::vector<Field> fields);
TypePtr map(TypePtr key_type, TypePtr item_type, bool item_nullable = true, bool keys_sorted = false);
// A dense union of `members`; their type codes are 0, 1, ... unless given (one per member).
TypePtr dense_union(std::vector<Field> members, std::vector<int8_t> type_codes = {});

Field field(std::string name, TypePtr type, bool nullable = true, KeyValueMetadata metadata = {});

}  // namespace quiver
