// libFuzzer target for the other Thrift structs a reader decodes from file bytes: page headers,
// column and offset indexes, bloom filter headers. No crash, and decode(encode(x)) == x.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "quiver/parquet/metadata_codec.h"

using namespace quiver;
using namespace quiver::parquet;

template <typename T>
static void RoundTrip(const uint8_t* data, size_t size,
                      Status (*decode)(std::span<const uint8_t>, Arena*, T*, size_t*),
                      Status (*encode)(const T&, BufferBuilder*)) {
  Arena arena;
  T value;
  size_t consumed = 0;
  if (!decode({data, size}, &arena, &value, &consumed).ok()) return;
  if (consumed > size) std::abort();
  BufferBuilder out;
  if (!encode(value, &out).ok()) return;
  T again;
  size_t consumed2 = 0;
  if (!decode({out.data(), static_cast<size_t>(out.size())}, &arena, &again, &consumed2).ok()) std::abort();
  if (consumed2 != static_cast<size_t>(out.size()) || !(again == value)) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  RoundTrip<PageHeader>(data, size, DecodePageHeader, EncodePageHeader);
  RoundTrip<ColumnIndex>(data, size, DecodeColumnIndex, EncodeColumnIndex);
  RoundTrip<OffsetIndex>(data, size, DecodeOffsetIndex, EncodeOffsetIndex);
  RoundTrip<BloomFilterHeader>(data, size, DecodeBloomFilterHeader, EncodeBloomFilterHeader);
  return 0;
}
