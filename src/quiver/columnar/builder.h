// Builders: append values one by one or in batches, Finish into an Arrow-layout Array.
// Typed Append calls are non-virtual (use the concrete builder in hot loops); the virtual
// interface is for generic and nested code.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"

namespace quiver {

class ArrayBuilder {
 public:
  ArrayBuilder(TypePtr type, MemoryPool* pool) : type_(std::move(type)), pool_(pool), validity_(pool) {}
  virtual ~ArrayBuilder() = default;

  virtual Status AppendNull() = 0;
  virtual Status AppendNulls(int64_t n);
  virtual Result<Array> Finish() = 0;

  const TypePtr& type() const { return type_; }
  int64_t length() const { return length_; }
  int64_t null_count() const { return null_count_; }

 protected:
  // The validity bitmap is materialised on the first null, so all-valid columns carry none.
  Status AppendValidity(bool valid) {
    if (valid && !has_bitmap_) [[likely]] {
      ++length_;
      return Status::OK();
    }
    return AppendValiditySlow(1, valid);
  }
  Status AppendValidityN(int64_t n, bool valid) {
    if (valid && !has_bitmap_) {
      length_ += n;
      return Status::OK();
    }
    return AppendValiditySlow(n, valid);
  }
  // Fills `data` with validity, null_count, length, type; resets the validity state.
  Status FinishCommon(ArrayData* data);

  TypePtr type_;
  MemoryPool* pool_;
  int64_t length_ = 0;
  int64_t null_count_ = 0;

 private:
  Status AppendValiditySlow(int64_t n, bool valid);
  BufferBuilder validity_;
  bool has_bitmap_ = false;
};

template <typename T>
class NumericBuilder final : public ArrayBuilder {
 public:
  NumericBuilder(TypePtr type, MemoryPool* pool = default_memory_pool()) : ArrayBuilder(std::move(type), pool), values_(pool) {}

  Status Append(T v) {
    QUIVER_RETURN_NOT_OK(values_.AppendValue(v));
    return AppendValidity(true);
  }
  // valid_bytes: one byte per value, nonzero for valid; nullptr for all valid.
  Status AppendValues(const T* v, int64_t n, const uint8_t* valid_bytes = nullptr);
  Status AppendNull() override {
    QUIVER_RETURN_NOT_OK(values_.AppendValue(T{}));
    return AppendValidity(false);
  }
  Result<Array> Finish() override;

 private:
  BufferBuilder values_;
};

class BooleanBuilder final : public ArrayBuilder {
 public:
  explicit BooleanBuilder(MemoryPool* pool = default_memory_pool());
  Status Append(bool v);
  Status AppendNull() override;
  Result<Array> Finish() override;

 private:
  BufferBuilder bits_;
};

// string and binary.
class BinaryBuilder final : public ArrayBuilder {
 public:
  BinaryBuilder(TypePtr type, MemoryPool* pool = default_memory_pool());
  Status Append(std::string_view v) {
    if (static_cast<int64_t>(data_.size()) + static_cast<int64_t>(v.size()) > INT32_MAX) [[unlikely]] return Overflow();
    QUIVER_RETURN_NOT_OK(data_.Append(v));
    QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(data_.size())));
    return AppendValidity(true);
  }
  Status AppendNull() override;
  Result<Array> Finish() override;
  int64_t value_data_length() const { return data_.size(); }

 private:
  Status Overflow() const;
  BufferBuilder offsets_;
  BufferBuilder data_;
};

// fixed_size_binary and decimal128.
class FixedSizeBinaryBuilder final : public ArrayBuilder {
 public:
  FixedSizeBinaryBuilder(TypePtr type, MemoryPool* pool = default_memory_pool());
  Status Append(const uint8_t* value) {
    QUIVER_RETURN_NOT_OK(values_.Append(value, width_));
    return AppendValidity(true);
  }
  Status Append(std::string_view value);  // must be exactly the type's width
  Status AppendDecimal(__int128 value) {  // decimal128: little-endian two's complement
    return Append(reinterpret_cast<const uint8_t*>(&value));
  }
  Status AppendNull() override;
  Result<Array> Finish() override;

 private:
  int width_;
  BufferBuilder values_;
};

// list<T>: call Append() to open a list, then append its elements to value_builder().
class ListBuilder final : public ArrayBuilder {
 public:
  ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool = default_memory_pool());
  Status Append(bool valid = true);
  Status AppendNull() override { return Append(false); }
  Result<Array> Finish() override;
  ArrayBuilder* value_builder() const { return values_.get(); }

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> values_;
};

// struct: Append() then append one value (or null) to every field builder.
class StructBuilder final : public ArrayBuilder {
 public:
  StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> fields, MemoryPool* pool = default_memory_pool());
  Status Append(bool valid = true) { return AppendValidity(valid); }
  // Appends a null struct and a null to every field, keeping the children aligned.
  Status AppendNull() override;
  Result<Array> Finish() override;
  ArrayBuilder* field_builder(int i) const { return fields_[static_cast<size_t>(i)].get(); }
  int num_fields() const { return static_cast<int>(fields_.size()); }

 private:
  std::vector<std::unique_ptr<ArrayBuilder>> fields_;
};

// map<K, V>: Append() opens a map, then append each entry's key to key_builder() and its
// value to item_builder() (the entries struct is filled on Finish).
class MapBuilder final : public ArrayBuilder {
 public:
  MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> keys, std::unique_ptr<ArrayBuilder> items,
             MemoryPool* pool = default_memory_pool());
  Status Append(bool valid = true);
  Status AppendNull() override { return Append(false); }
  Result<Array> Finish() override;
  ArrayBuilder* key_builder() const { return keys_.get(); }
  ArrayBuilder* item_builder() const { return items_.get(); }

 private:
  BufferBuilder offsets_;
  std::unique_ptr<ArrayBuilder> keys_;
  std::unique_ptr<ArrayBuilder> items_;
};

// A builder for any type, nested builders included.
Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool = default_memory_pool());

// The C type that stores one value of a fixed-width, non-boolean type.
template <TypeId id> struct StorageOf;
#define QUIVER_STORAGE(id, T) template <> struct StorageOf<TypeId::id> { using type = T; };
QUIVER_STORAGE(kInt8, int8_t) QUIVER_STORAGE(kInt16, int16_t) QUIVER_STORAGE(kInt32, int32_t)
QUIVER_STORAGE(kInt64, int64_t) QUIVER_STORAGE(kUInt8, uint8_t) QUIVER_STORAGE(kUInt16, uint16_t)
QUIVER_STORAGE(kUInt32, uint32_t) QUIVER_STORAGE(kUInt64, uint64_t) QUIVER_STORAGE(kFloat16, uint16_t)
QUIVER_STORAGE(kFloat32, float) QUIVER_STORAGE(kFloat64, double) QUIVER_STORAGE(kDate32, int32_t)
QUIVER_STORAGE(kTime32, int32_t) QUIVER_STORAGE(kTime64, int64_t) QUIVER_STORAGE(kTimestamp, int64_t)
#undef QUIVER_STORAGE

}  // namespace quiver
