// libFuzzer target for the project's snappy compressor, differential against libsnappy: for any
// bytes, the output must equal snappy::RawCompress's byte for byte, stay inside
// SnappyMaxCompressedLength (an exact-size heap buffer, for ASan), and decode back through the
// project's decoder; and the same for the input spread over two whole fragments and more, which
// go through the two-fragment loop.
#include <snappy.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "quiver/compress/snappy_compress_internal.h"
#include "quiver/compress/snappy_decompress_internal.h"

namespace {

void Check(bool cond) {
  if (!cond) __builtin_trap();
}

// Compares one input's compression with libsnappy's and decodes it back.
void CompressAndCheck(const uint8_t* data, size_t size) {
  using namespace quiver::compress;
  const size_t bound = SnappyMaxCompressedLength(size);
  Check(bound == snappy::MaxCompressedLength(size));
  std::unique_ptr<uint8_t[]> ours(new uint8_t[bound]);
  std::unique_ptr<char[]> theirs(new char[bound]);
  const size_t n = SnappyCompress({data, size}, ours.get());
  size_t lib_n = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(data), size, theirs.get(), &lib_n);
  Check(n == lib_n);
  Check(std::memcmp(ours.get(), theirs.get(), n) == 0);
  std::unique_ptr<uint8_t[]> back(new uint8_t[size + (size == 0)]);
  Check(SnappyDecompress({ours.get(), n}, {back.get(), size}).ok());
  Check(size == 0 || std::memcmp(back.get(), data, size) == 0);
}

// Fragments are compressed two at a time from 128 KiB on, more than fuzzers' inputs usually
// hold: the input also goes through spread over 2-3 fragments. Its first 3 bytes pick the length
// (128 KiB plus up to 64 KiB) and how the rest is repeated to fill it: each copy changed by its
// number times a factor (0: plain repeats, long matches; odd: few matches across copies), and
// the second fragment from a later copy onwards than the first, so the two lanes differ.
void CheckSpread(const uint8_t* data, size_t size) {
  if (size < 4) return;
  const size_t length = (size_t{2} << 16) + ((size_t{data[0]} | size_t{data[1]} << 8) & 0xffff);
  const uint8_t factor = data[2];
  data += 3;
  size -= 3;
  std::vector<uint8_t> in(length);
  for (size_t i = 0; i < length; ++i) {
    const size_t copy = i / size + (i >= (size_t{1} << 16) ? factor % 7 : 0);
    in[i] = static_cast<uint8_t>(data[i % size] + copy * factor);
  }
  CompressAndCheck(in.data(), in.size());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CompressAndCheck(data, size);
  CheckSpread(data, size);
  return 0;
}
