#include "quiver/columnar/array.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace quiver {

int64_t ArrayData::GetNullCount() {
  if (null_count == kUnknownNullCount) {
    const uint8_t* v = validity();
    null_count = v == nullptr ? 0 : length - bit_util::CountSetBits(v, offset, length);
  }
  return null_count;
}

Array Array::Slice(int64_t offset, int64_t length) const {
  auto d = std::make_shared<ArrayData>(*data_);
  d->offset += offset;
  d->length = length;
  d->null_count = d->validity() == nullptr ? 0 : ArrayData::kUnknownNullCount;
  return Array(std::move(d));
}

int64_t BooleanArray::true_count() const {
  int64_t n = 0;
  for (int64_t i = 0; i < length(); ++i) n += IsValid(i) && Value(i);
  return n;
}

bool DenseUnionIsNullMember(const Array& a, int64_t i) {
  DenseUnionArray u(a);
  Array m = u.member(u.child_index(i));
  const int64_t j = u.value_offset(i);
  if (m.IsNull(j)) return true;
  return m.type_id() == TypeId::kDenseUnion && DenseUnionIsNullMember(m, j);
}

Array StructArray::field(int i) const {
  Array child(data_->children[static_cast<size_t>(i)]);
  return child.Slice(data_->offset, data_->length);
}

namespace {

int ExpectedBuffers(TypeId id) {
  switch (id) {
    case TypeId::kStruct: return 1;
    case TypeId::kString: case TypeId::kBinary: case TypeId::kDenseUnion: return 3;
    default: return 2;
  }
}

Status ValidateData(const ArrayData& d, int depth) {
  if (depth > 64) return Status::Invalid("array nesting deeper than 64 levels");
  if (!d.type) return Status::Invalid("array without a type");
  const TypeId id = d.type->id();
  const std::string tname = d.type->ToString();
  if (d.length < 0 || d.offset < 0) {
    return Status::Invalid(fmt::format("{} array: negative length {} or offset {}", tname, d.length, d.offset));
  }
  if (static_cast<int>(d.buffers.size()) != ExpectedBuffers(id)) {
    return Status::Invalid(fmt::format("{} array: expected {} buffers, got {}", tname, ExpectedBuffers(id), d.buffers.size()));
  }
  const int64_t end = d.offset + d.length;
  if (d.buffers[0] && d.buffers[0]->size() < bit_util::BytesForBits(end)) {
    return Status::Invalid(fmt::format("{} array: validity bitmap of {} bytes is too small for {} slots", tname,
                                       d.buffers[0]->size(), end));
  }
  for (size_t i = 1; i < d.buffers.size(); ++i) {
    if (!d.buffers[i]) return Status::Invalid(fmt::format("{} array: buffer {} is missing", tname, i));
  }
  auto need = [&](int i, int64_t bytes, const char* what) -> Status {
    if (d.buffers[static_cast<size_t>(i)]->size() < bytes) {
      return Status::Invalid(fmt::format("{} array: {} buffer holds {} bytes, needs {}", tname, what,
                                         d.buffers[static_cast<size_t>(i)]->size(), bytes));
    }
    return Status::OK();
  };
  auto check_offsets = [&](int64_t limit, const char* what) -> Status {
    QUIVER_RETURN_NOT_OK(need(1, (end + 1) * 4, "offsets"));
    const int32_t* o = d.buffers[1]->data_as<int32_t>();
    // An empty array still has one offset, which a writer copies from: it too must lie within.
    if (o[d.offset] < 0 || o[d.offset] > limit) {
      return Status::Invalid(fmt::format("{} array: offset {} at slot 0 lies outside the {} size {}", tname, o[d.offset],
                                         what, limit));
    }
    if (d.length == 0) return Status::OK();
    for (int64_t i = d.offset; i < end; ++i) {
      if (o[i] < 0 || o[i + 1] < o[i]) {
        return Status::Invalid(fmt::format("{} array: offsets decrease or are negative at slot {}", tname, i - d.offset));
      }
    }
    if (o[end] > limit) {
      return Status::Invalid(fmt::format("{} array: last offset {} exceeds the {} size {}", tname, o[end], what, limit));
    }
    return Status::OK();
  };
  switch (id) {
    case TypeId::kBool:
      return need(1, bit_util::BytesForBits(end), "values");
    case TypeId::kString:
    case TypeId::kBinary:
      return check_offsets(d.buffers[2]->size(), "data");
    case TypeId::kList:
    case TypeId::kMap: {
      if (d.children.size() != 1) return Status::Invalid(fmt::format("{} array: needs one child", tname));
      QUIVER_RETURN_NOT_OK(check_offsets(d.children[0]->length, "child length"));
      return ValidateData(*d.children[0], depth + 1);
    }
    case TypeId::kStruct: {
      if (static_cast<int>(d.children.size()) != d.type->num_fields()) {
        return Status::Invalid(fmt::format("{} array: {} children for {} fields", tname, d.children.size(), d.type->num_fields()));
      }
      for (const auto& c : d.children) {
        if (c->length < end) {
          return Status::Invalid(fmt::format("{} array: child of length {} shorter than {}", tname, c->length, end));
        }
        QUIVER_RETURN_NOT_OK(ValidateData(*c, depth + 1));
      }
      return Status::OK();
    }
    case TypeId::kDenseUnion: {
      if (static_cast<int>(d.children.size()) != d.type->num_fields()) {
        return Status::Invalid(fmt::format("{} array: {} children for {} members", tname, d.children.size(), d.type->num_fields()));
      }
      QUIVER_RETURN_NOT_OK(need(1, end, "type codes"));
      QUIVER_RETURN_NOT_OK(need(2, end * 4, "offsets"));
      const int8_t* codes = d.buffers[1]->data_as<int8_t>();
      const int32_t* o = d.buffers[2]->data_as<int32_t>();
      for (int64_t i = d.offset; i < end; ++i) {
        const int c = d.type->ChildOfCode(codes[i]);
        if (c < 0) return Status::Invalid(fmt::format("{} array: slot {} has type code {}, no member's", tname, i - d.offset, codes[i]));
        const ArrayData& m = *d.children[static_cast<size_t>(c)];
        if (o[i] < 0 || o[i] >= m.length) {
          return Status::Invalid(fmt::format("{} array: slot {} has offset {} outside its member's {} entries", tname,
                                             i - d.offset, o[i], m.length));
        }
        if (!d.IsValid(i - d.offset) && m.IsValid(o[i])) {
          return Status::Invalid(fmt::format("{} array: null slot {} points at a value of its member", tname, i - d.offset));
        }
      }
      for (const auto& c : d.children) QUIVER_RETURN_NOT_OK(ValidateData(*c, depth + 1));
      return Status::OK();
    }
    default:
      return need(1, end * d.type->byte_width(), "values");
  }
}

bool FloatEq(double a, double b) { return a == b ? std::signbit(a) == std::signbit(b) : (std::isnan(a) && std::isnan(b)); }

bool SlotEquals(const ArrayData& a, int64_t i, const ArrayData& b, int64_t j);

bool SlotEquals(const ArrayData& a, int64_t i, const ArrayData& b, int64_t j) {
  bool va = a.IsValid(i), vb = b.IsValid(j);
  if (va != vb) return false;
  if (!va) return true;
  const int64_t ai = a.offset + i, bj = b.offset + j;
  switch (a.type->id()) {
    case TypeId::kBool:
      return bit_util::GetBit(a.buffers[1]->data(), ai) == bit_util::GetBit(b.buffers[1]->data(), bj);
    case TypeId::kFloat32:
      return FloatEq(a.buffers[1]->data_as<float>()[ai], b.buffers[1]->data_as<float>()[bj]);
    case TypeId::kFloat64:
      return FloatEq(a.buffers[1]->data_as<double>()[ai], b.buffers[1]->data_as<double>()[bj]);
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* oa = a.buffers[1]->data_as<int32_t>();
      const int32_t* ob = b.buffers[1]->data_as<int32_t>();
      int32_t la = oa[ai + 1] - oa[ai], lb = ob[bj + 1] - ob[bj];
      return la == lb && (la == 0 || std::memcmp(a.buffers[2]->data() + oa[ai], b.buffers[2]->data() + ob[bj], la) == 0);
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int32_t* oa = a.buffers[1]->data_as<int32_t>();
      const int32_t* ob = b.buffers[1]->data_as<int32_t>();
      int32_t la = oa[ai + 1] - oa[ai], lb = ob[bj + 1] - ob[bj];
      if (la != lb) return false;
      for (int32_t k = 0; k < la; ++k) {
        if (!SlotEquals(*a.children[0], oa[ai] + k, *b.children[0], ob[bj] + k)) return false;
      }
      return true;
    }
    case TypeId::kStruct:
      for (size_t c = 0; c < a.children.size(); ++c) {
        if (!SlotEquals(*a.children[c], ai, *b.children[c], bj)) return false;
      }
      return true;
    case TypeId::kDenseUnion: {
      const int8_t ca = a.buffers[1]->data_as<int8_t>()[ai], cb = b.buffers[1]->data_as<int8_t>()[bj];
      if (ca != cb) return false;
      const int c = a.type->ChildOfCode(ca);
      return SlotEquals(*a.children[static_cast<size_t>(c)], a.buffers[2]->data_as<int32_t>()[ai],
                        *b.children[static_cast<size_t>(c)], b.buffers[2]->data_as<int32_t>()[bj]);
    }
    default: {
      int w = a.type->byte_width();
      return std::memcmp(a.buffers[1]->data() + ai * w, b.buffers[1]->data() + bj * w, static_cast<size_t>(w)) == 0;
    }
  }
}

}  // namespace

Status Array::Validate() const { return ValidateData(*data_, 0); }

bool Array::Equals(const Array& other) const {
  if (!data_ || !other.data_) return data_ == other.data_;
  if (!type()->Equals(*other.type()) || length() != other.length()) return false;
  for (int64_t i = 0; i < length(); ++i) {
    if (!SlotEquals(*data_, i, *other.data_, i)) return false;
  }
  return true;
}

}  // namespace quiver
