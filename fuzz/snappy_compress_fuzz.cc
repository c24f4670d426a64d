// libFuzzer target for the project's snappy compressor, differential against libsnappy: for any
// bytes, the output must equal snappy::RawCompress's byte for byte, stay inside
// SnappyMaxCompressedLength (an exact-size heap buffer, for ASan), and decode back through the
// project's decoder.
#include <snappy.h>

#include <cstdint>
#include <cstring>
#include <memory>

#include "quiver/compress/snappy_compress_internal.h"
#include "quiver/compress/snappy_decompress_internal.h"

namespace {

void Check(bool cond) {
  if (!cond) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
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
  return 0;
}
