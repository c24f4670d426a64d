#include "quiver/columnar/builder.h"

#include <fmt/format.h>

namespace quiver {

Status ArrayBuilder::AppendNulls(int64_t n) {
  for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(AppendNull());
  return Status::OK();
}

Status ArrayBuilder::AppendValiditySlow(int64_t n, bool valid) {
  if (!has_bitmap_) {
    // First null: every earlier slot was valid.
    QUIVER_RETURN_NOT_OK(validity_.AppendZeros(bit_util::BytesForBits(length_ + n) + 8));
    bit_util::SetBitsTo(validity_.mutable_data(), 0, length_, true);
    has_bitmap_ = true;
  } else {
    int64_t need = bit_util::BytesForBits(length_ + n);
    if (need > validity_.size()) {
      int64_t grow = std::max(need - validity_.size(), validity_.size());
      QUIVER_RETURN_NOT_OK(validity_.AppendZeros(grow));
    }
  }
  bit_util::SetBitsTo(validity_.mutable_data(), length_, n, valid);
  length_ += n;
  if (!valid) null_count_ += n;
  return Status::OK();
}

Status ArrayBuilder::FinishCommon(ArrayData* data) {
  data->type = type_;
  data->length = length_;
  data->null_count = null_count_;
  data->offset = 0;
  data->buffers.clear();
  if (has_bitmap_) {
    validity_.UnsafeSetSize(bit_util::BytesForBits(length_));
    QUIVER_ASSIGN_OR_RETURN(auto bitmap, validity_.Finish());
    data->buffers.push_back(std::move(bitmap));
  } else {
    data->buffers.push_back(nullptr);
  }
  has_bitmap_ = false;
  length_ = 0;
  null_count_ = 0;
  return Status::OK();
}

template <typename T>
Status NumericBuilder<T>::AppendValues(const T* v, int64_t n, const uint8_t* valid_bytes) {
  QUIVER_RETURN_NOT_OK(values_.Append(v, n * static_cast<int64_t>(sizeof(T))));
  if (valid_bytes == nullptr) return AppendValidityN(n, true);
  for (int64_t i = 0; i < n; ++i) QUIVER_RETURN_NOT_OK(AppendValidity(valid_bytes[i] != 0));
  return Status::OK();
}

template <typename T>
Result<Array> NumericBuilder<T>::Finish() {
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  QUIVER_ASSIGN_OR_RETURN(auto values, values_.Finish());
  data->buffers.push_back(std::move(values));
  return Array(std::move(data));
}

template class NumericBuilder<int8_t>;
template class NumericBuilder<int16_t>;
template class NumericBuilder<int32_t>;
template class NumericBuilder<int64_t>;
template class NumericBuilder<uint8_t>;
template class NumericBuilder<uint16_t>;
template class NumericBuilder<uint32_t>;
template class NumericBuilder<uint64_t>;
template class NumericBuilder<float>;
template class NumericBuilder<double>;

BooleanBuilder::BooleanBuilder(MemoryPool* pool) : ArrayBuilder(boolean(), pool), bits_(pool) {}

Status BooleanBuilder::Append(bool v) {
  if (bit_util::BytesForBits(length_ + 1) > bits_.size()) QUIVER_RETURN_NOT_OK(bits_.AppendZeros(std::max<int64_t>(8, bits_.size())));
  bit_util::SetBitTo(bits_.mutable_data(), length_, v);
  return AppendValidity(true);
}

Status BooleanBuilder::AppendNull() {
  if (bit_util::BytesForBits(length_ + 1) > bits_.size()) QUIVER_RETURN_NOT_OK(bits_.AppendZeros(std::max<int64_t>(8, bits_.size())));
  bit_util::ClearBit(bits_.mutable_data(), length_);
  return AppendValidity(false);
}

Result<Array> BooleanBuilder::Finish() {
  int64_t n = length_;
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  bits_.UnsafeSetSize(std::min(bits_.size(), bit_util::BytesForBits(n)));
  QUIVER_ASSIGN_OR_RETURN(auto bits, bits_.Finish());
  data->buffers.push_back(std::move(bits));
  return Array(std::move(data));
}

BinaryBuilder::BinaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool), data_(pool) {}

Status BinaryBuilder::Overflow() const {
  return Status::Invalid(fmt::format("{} column exceeds 2 GiB of value data in one array", type_->ToString()));
}

Status BinaryBuilder::AppendNull() {
  QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(data_.size())));
  return AppendValidity(false);
}

Result<Array> BinaryBuilder::Finish() {
  auto data = std::make_shared<ArrayData>();
  // Offsets hold length+1 entries; the leading zero is written here rather than in the
  // constructor so that a finished builder starts over cleanly.
  BufferBuilder offsets(pool_);
  QUIVER_RETURN_NOT_OK(offsets.Reserve(offsets_.size() + 4));
  offsets.UnsafeAppendValue(int32_t{0});
  offsets.UnsafeAppend(offsets_.data(), offsets_.size());
  offsets_.Clear();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  QUIVER_ASSIGN_OR_RETURN(auto off, offsets.Finish());
  QUIVER_ASSIGN_OR_RETURN(auto bytes, data_.Finish());
  data->buffers.push_back(std::move(off));
  data->buffers.push_back(std::move(bytes));
  return Array(std::move(data));
}

FixedSizeBinaryBuilder::FixedSizeBinaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), width_(type_->byte_width()), values_(pool) {}

Status FixedSizeBinaryBuilder::Append(std::string_view value) {
  if (static_cast<int64_t>(value.size()) != width_) [[unlikely]] {
    return Status::Invalid(fmt::format("{} value of {} bytes", type_->ToString(), value.size()));
  }
  return Append(reinterpret_cast<const uint8_t*>(value.data()));
}

Status FixedSizeBinaryBuilder::AppendNull() {
  QUIVER_RETURN_NOT_OK(values_.AppendZeros(width_));
  return AppendValidity(false);
}

Result<Array> FixedSizeBinaryBuilder::Finish() {
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  QUIVER_ASSIGN_OR_RETURN(auto values, values_.Finish());
  data->buffers.push_back(std::move(values));
  return Array(std::move(data));
}

namespace {
// Shared by list and map: offsets gathered without the leading zero, as in BinaryBuilder.
Result<std::shared_ptr<Buffer>> FinishOffsets(BufferBuilder* gathered, MemoryPool* pool) {
  BufferBuilder offsets(pool);
  QUIVER_RETURN_NOT_OK(offsets.Reserve(gathered->size() + 4));
  offsets.UnsafeAppendValue(int32_t{0});
  offsets.UnsafeAppend(gathered->data(), gathered->size());
  gathered->Clear();
  return offsets.Finish();
}
}  // namespace

ListBuilder::ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool), values_(std::move(value_builder)) {}

Status ListBuilder::Append(bool valid) {
  // Offsets are recorded lazily: entry i holds the end of list i, so it is written when the
  // next list opens or on Finish. Here we close the previous list.
  if (length_ > 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(values_->length())));
  return AppendValidity(valid);
}

Result<Array> ListBuilder::Finish() {
  if (length_ > 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(values_->length())));
  if (values_->length() > INT32_MAX) return Status::Invalid("list column exceeds 2^31 child values in one array");
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  QUIVER_ASSIGN_OR_RETURN(auto off, FinishOffsets(&offsets_, pool_));
  data->buffers.push_back(std::move(off));
  QUIVER_ASSIGN_OR_RETURN(Array child, values_->Finish());
  data->children.push_back(child.data());
  return Array(std::move(data));
}

StructBuilder::StructBuilder(TypePtr type, std::vector<std::unique_ptr<ArrayBuilder>> fields, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), fields_(std::move(fields)) {}

Status StructBuilder::AppendNull() {
  for (auto& f : fields_) QUIVER_RETURN_NOT_OK(f->AppendNull());
  return AppendValidity(false);
}

Result<Array> StructBuilder::Finish() {
  int64_t n = length_;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i]->length() != n) {
      return Status::Invalid(fmt::format("struct field '{}' has {} values for {} structs",
                                         type_->field(static_cast<int>(i)).name, fields_[i]->length(), n));
    }
  }
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  for (auto& f : fields_) {
    QUIVER_ASSIGN_OR_RETURN(Array child, f->Finish());
    data->children.push_back(child.data());
  }
  return Array(std::move(data));
}

MapBuilder::MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> keys, std::unique_ptr<ArrayBuilder> items,
                       MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(pool), keys_(std::move(keys)), items_(std::move(items)) {}

Status MapBuilder::Append(bool valid) {
  if (length_ > 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(keys_->length())));
  return AppendValidity(valid);
}

Result<Array> MapBuilder::Finish() {
  if (length_ > 0) QUIVER_RETURN_NOT_OK(offsets_.AppendValue(static_cast<int32_t>(keys_->length())));
  if (keys_->length() != items_->length()) {
    return Status::Invalid(fmt::format("map has {} keys but {} values", keys_->length(), items_->length()));
  }
  if (keys_->null_count() != 0) return Status::Invalid("map keys must not be null");
  auto data = std::make_shared<ArrayData>();
  QUIVER_RETURN_NOT_OK(FinishCommon(data.get()));
  QUIVER_ASSIGN_OR_RETURN(auto off, FinishOffsets(&offsets_, pool_));
  data->buffers.push_back(std::move(off));
  auto entries = std::make_shared<ArrayData>();
  entries->type = type_->field(0).type;
  entries->length = keys_->length();
  entries->null_count = 0;
  entries->buffers.push_back(nullptr);
  QUIVER_ASSIGN_OR_RETURN(Array k, keys_->Finish());
  QUIVER_ASSIGN_OR_RETURN(Array v, items_->Finish());
  entries->children = {k.data(), v.data()};
  data->children.push_back(std::move(entries));
  return Array(std::move(data));
}

Result<std::unique_ptr<ArrayBuilder>> MakeBuilder(const TypePtr& type, MemoryPool* pool) {
  switch (type->id()) {
    case TypeId::kBool: return std::unique_ptr<ArrayBuilder>(new BooleanBuilder(pool));
    case TypeId::kInt8: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<int8_t>(type, pool));
    case TypeId::kInt16: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<int16_t>(type, pool));
    case TypeId::kInt32: case TypeId::kDate32: case TypeId::kTime32:
      return std::unique_ptr<ArrayBuilder>(new NumericBuilder<int32_t>(type, pool));
    case TypeId::kInt64: case TypeId::kTime64: case TypeId::kTimestamp:
      return std::unique_ptr<ArrayBuilder>(new NumericBuilder<int64_t>(type, pool));
    case TypeId::kUInt8: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<uint8_t>(type, pool));
    case TypeId::kUInt16: case TypeId::kFloat16:
      return std::unique_ptr<ArrayBuilder>(new NumericBuilder<uint16_t>(type, pool));
    case TypeId::kUInt32: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<uint32_t>(type, pool));
    case TypeId::kUInt64: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<uint64_t>(type, pool));
    case TypeId::kFloat32: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<float>(type, pool));
    case TypeId::kFloat64: return std::unique_ptr<ArrayBuilder>(new NumericBuilder<double>(type, pool));
    case TypeId::kString: case TypeId::kBinary:
      return std::unique_ptr<ArrayBuilder>(new BinaryBuilder(type, pool));
    case TypeId::kFixedSizeBinary: case TypeId::kDecimal128:
      return std::unique_ptr<ArrayBuilder>(new FixedSizeBinaryBuilder(type, pool));
    case TypeId::kList: {
      QUIVER_ASSIGN_OR_RETURN(auto values, MakeBuilder(type->field(0).type, pool));
      return std::unique_ptr<ArrayBuilder>(new ListBuilder(type, std::move(values), pool));
    }
    case TypeId::kStruct: {
      std::vector<std::unique_ptr<ArrayBuilder>> fields;
      for (const auto& f : type->fields()) {
        QUIVER_ASSIGN_OR_RETURN(auto b, MakeBuilder(f.type, pool));
        fields.push_back(std::move(b));
      }
      return std::unique_ptr<ArrayBuilder>(new StructBuilder(type, std::move(fields), pool));
    }
    case TypeId::kMap: {
      const auto& entries = type->field(0).type;
      QUIVER_ASSIGN_OR_RETURN(auto keys, MakeBuilder(entries->field(0).type, pool));
      QUIVER_ASSIGN_OR_RETURN(auto items, MakeBuilder(entries->field(1).type, pool));
      return std::unique_ptr<ArrayBuilder>(new MapBuilder(type, std::move(keys), std::move(items), pool));
    }
    case TypeId::kDenseUnion: break;  // built by the readers that produce unions, not value by value
  }
  return Status::NotImplemented(fmt::format("no builder for {}", type->ToString()));
}

}  // namespace quiver
