// A small dense union array for tests: members a: int32 (type code 5) and b: string (code 7),
// rows [a=10, b="x", a=20, null, b="y", a=null]: row 3 is a null union (its own validity, and
// a null entry of a), row 5 a union whose member value is null.
#pragma once

#include <cstring>

#include "quiver/columnar/builder.h"

namespace quiver::testing {

inline TypePtr SmallUnionType() { return dense_union({field("a", int32()), field("b", utf8())}, {5, 7}); }

inline Array SmallUnion() {
  NumericBuilder<int32_t> a(int32());
  (void)a.Append(10);
  (void)a.Append(20);
  (void)a.AppendNull();  // row 3's null
  (void)a.AppendNull();  // row 5's null value
  BinaryBuilder b(utf8());
  (void)b.Append("x");
  (void)b.Append("y");
  auto d = std::make_shared<ArrayData>();
  d->type = SmallUnionType();
  d->length = 6;
  d->null_count = 1;
  auto validity = *Buffer::AllocateZeroed(1);
  validity->mutable_data()[0] = 0b110111;
  auto codes = *Buffer::Allocate(6);
  const int8_t c[6] = {5, 7, 5, 5, 7, 5};
  std::memcpy(codes->mutable_data(), c, 6);
  auto offsets = *Buffer::Allocate(24);
  const int32_t o[6] = {0, 0, 1, 2, 1, 3};
  std::memcpy(offsets->mutable_data(), o, 24);
  d->buffers = {std::move(validity), std::move(codes), std::move(offsets)};
  d->children = {(*a.Finish()).data(), (*b.Finish()).data()};
  return Array(std::move(d));
}

}  // namespace quiver::testing
