// Arrays in the Arrow columnar layout: ArrayData holds the buffers, Array and its typed
// views read them. Buffer order per type is Arrow's: [validity, values] for fixed width,
// [validity, int32 offsets, bytes] for string/binary, [validity, offsets] + child for
// list/map, [validity] + children for struct, [validity, int8 type codes, int32 offsets] +
// members for a dense union. A union's validity is quiver's own (Arrow unions have none since
// 1.0): it tells a null union from one whose member is null, as ORC does; each null slot also
// points at a null entry of a member, so exports drop the bitmap and lose nothing else.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"

namespace quiver {

struct ArrayData {
  TypePtr type;
  int64_t length = 0;
  int64_t null_count = 0;  // kUnknownNullCount until computed
  int64_t offset = 0;      // logical start in every buffer (and in struct children)
  std::vector<std::shared_ptr<Buffer>> buffers;  // buffers[0] is validity, may be null
  std::vector<std::shared_ptr<ArrayData>> children;
  // Strings: each value's bytes (null slots' too) are known to be UTF-8, checked by the producer
  // (the CSV reader), so a consumer that needs UTF-8 (the Parquet writer's STRING) need not check
  // them again. False means not known; slices keep it, as a slice's values are the array's, and
  // Concatenate keeps it when every part has it.
  bool utf8_checked = false;

  static constexpr int64_t kUnknownNullCount = -1;

  const uint8_t* validity() const { return buffers.empty() || !buffers[0] ? nullptr : buffers[0]->data(); }
  template <typename T>
  const T* values(int i = 1) const { return buffers[static_cast<size_t>(i)]->data_as<T>() + offset; }
  bool IsValid(int64_t i) const {
    const uint8_t* v = validity();
    return v == nullptr || bit_util::GetBit(v, offset + i);
  }
  int64_t GetNullCount();
};

class Array {
 public:
  Array() = default;
  explicit Array(std::shared_ptr<ArrayData> data) : data_(std::move(data)) {}

  const std::shared_ptr<ArrayData>& data() const { return data_; }
  const TypePtr& type() const { return data_->type; }
  TypeId type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->GetNullCount(); }
  bool IsValid(int64_t i) const { return data_->IsValid(i); }
  bool IsNull(int64_t i) const { return !data_->IsValid(i); }

  // Zero-copy view of [offset, offset + length), sharing buffers.
  Array Slice(int64_t offset, int64_t length) const;
  // Checks buffer sizes, offsets and children against the type (for imported data).
  Status Validate() const;
  bool Equals(const Array& other) const;
  std::string ToString() const;  // see pretty_print.h

 protected:
  std::shared_ptr<ArrayData> data_;
};

// Fixed-width values: T is the C type of the storage (int32_t for date32, int64_t for
// timestamps, uint16_t for float16 bits, ...).
template <typename T>
class PrimitiveArray : public Array {
 public:
  explicit PrimitiveArray(const Array& a) : Array(a.data()) {}
  T Value(int64_t i) const { return data_->values<T>()[i]; }
  const T* raw_values() const { return data_->values<T>(); }
};

class BooleanArray : public Array {
 public:
  explicit BooleanArray(const Array& a) : Array(a.data()) {}
  bool Value(int64_t i) const { return bit_util::GetBit(data_->buffers[1]->data(), data_->offset + i); }
  int64_t true_count() const;  // among valid slots
};

// string and binary.
class BinaryArray : public Array {
 public:
  explicit BinaryArray(const Array& a) : Array(a.data()) {}
  const int32_t* raw_offsets() const { return data_->values<int32_t>(1); }
  std::string_view GetView(int64_t i) const {
    const int32_t* o = raw_offsets();
    return {reinterpret_cast<const char*>(data_->buffers[2]->data()) + o[i], static_cast<size_t>(o[i + 1] - o[i])};
  }
};

// fixed_size_binary and decimal128 (16 bytes little-endian two's complement).
class FixedSizeBinaryArray : public Array {
 public:
  explicit FixedSizeBinaryArray(const Array& a) : Array(a.data()), width_(a.type()->byte_width()) {}
  const uint8_t* GetValue(int64_t i) const { return data_->buffers[1]->data() + (data_->offset + i) * width_; }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(width_)};
  }
  int width() const { return width_; }

 private:
  int width_;
};

// list and map (a map is a list of struct<key, value> entries).
class ListArray : public Array {
 public:
  explicit ListArray(const Array& a) : Array(a.data()) {}
  const int32_t* raw_offsets() const { return data_->values<int32_t>(1); }
  int32_t value_offset(int64_t i) const { return raw_offsets()[i]; }
  int32_t value_length(int64_t i) const { return raw_offsets()[i + 1] - raw_offsets()[i]; }
  // The whole child array (not sliced to this array's range).
  Array values() const { return Array(data_->children[0]); }
};

// dense union: slot i holds entry value_offset(i) of the member whose type code is type_code(i).
class DenseUnionArray : public Array {
 public:
  explicit DenseUnionArray(const Array& a) : Array(a.data()) {}
  int8_t type_code(int64_t i) const { return data_->values<int8_t>(1)[i]; }
  int32_t value_offset(int64_t i) const { return data_->values<int32_t>(2)[i]; }
  int child_index(int64_t i) const { return type()->ChildOfCode(type_code(i)); }
  // The whole member array (not sliced: offsets index it directly).
  Array member(int c) const { return Array(data_->children[static_cast<size_t>(c)]); }
};

// Whether a valid slot of a dense union holds a null member entry (nested unions followed).
bool DenseUnionIsNullMember(const Array& a, int64_t i);

class StructArray : public Array {
 public:
  explicit StructArray(const Array& a) : Array(a.data()) {}
  int num_fields() const { return static_cast<int>(data_->children.size()); }
  // The i-th child, sliced to this array's offset and length.
  Array field(int i) const;
};

}  // namespace quiver
