// libFuzzer target for the ORC reader: the input is an ORC file (seeds: the Apache ORC example
// files under ../shared/testdata/orc-examples/examples), read as orc_fuzz_read.h says (the
// tail, index streams, and the rows as `quiver cat` reads them, in small batches and with column
// selection) under a 512 MiB memory limit (FuzzPool); reading must never crash, and every batch that
// decodes must validate.
#include <cstdint>

#include "orc_fuzz_read.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (orc::fuzzing::ReadInput(std::span<const uint8_t>(data, size)) != nullptr) __builtin_trap();
  return 0;
}
