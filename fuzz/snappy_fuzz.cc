// libFuzzer target for the project's snappy decoder, differential against libsnappy: arbitrary
// bytes must be accepted by both or refused by both, with the same output when accepted, and
// never read or written outside the input and the exact-size output (ASan). One exception:
// libsnappy adds 1 to a literal's 4-byte length in 32 bits, so it reads 0xffffffff as a literal of
// 0 bytes and may accept the stream; the project's decoder refuses that literal of 2^32 bytes.
#include <snappy.h>

#include <cstdint>
#include <cstring>
#include <memory>

#include "quiver/compress/snappy_decompress_internal.h"

namespace {

void Check(bool cond) {
  if (!cond) __builtin_trap();
}

// Larger declared lengths are refused by neither decoder up front; not worth the allocation.
constexpr size_t kMaxOutput = size_t{1} << 22;

// Whether the bytes hold a literal tag with the 4-byte length 0xffffffff (anywhere: a superset of
// the streams where libsnappy reads one).
bool HasWrappingLiteral(const uint8_t* data, size_t size) {
  static constexpr uint8_t kTag[] = {63 << 2, 0xff, 0xff, 0xff, 0xff};
  for (size_t i = 0; i + sizeof(kTag) <= size; ++i) {
    if (std::memcmp(data + i, kTag, sizeof(kTag)) == 0) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace quiver::compress;
  const char* src = reinterpret_cast<const char*>(data);
  size_t lib_len = 0;
  const bool lib_header = snappy::GetUncompressedLength(src, size, &lib_len);
  uint32_t len = 0;
  size_t header = 0;
  const bool header_ok = SnappyUncompressedLength({data, size}, &len, &header);
  Check(lib_header == header_ok);
  if (!header_ok) {
    Check(SnappyDecompress({data, size}, {}).message() == "SNAPPY data has a malformed length header");
    return 0;
  }
  Check(lib_len == len);
  if (len > kMaxOutput) return 0;
  // Exact-size heap buffers, so that ASan sees a write one byte past either.
  std::unique_ptr<uint8_t[]> ours(new uint8_t[len + (len == 0)]);
  std::unique_ptr<char[]> theirs(new char[len + (len == 0)]);
  const bool lib_ok = snappy::RawUncompress(src, size, theirs.get());
  const quiver::Status st = SnappyDecompress({data, size}, {ours.get(), len});
  Check(st.ok() == lib_ok || (lib_ok && HasWrappingLiteral(data, size)));
  Check(st.ok() || st.IsCorrupt());
  if (lib_ok && st.ok()) Check(len == 0 || std::memcmp(ours.get(), theirs.get(), len) == 0);
  // A buffer one byte short is refused before anything is written.
  if (len > 0) Check(SnappyDecompress({data, size}, {ours.get(), len - 1}).IsCorrupt());
  return 0;
}
