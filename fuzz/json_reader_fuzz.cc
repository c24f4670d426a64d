// libFuzzer target for the JSON reader: any bytes, with a block size, thread count, sample size
// and declared types chosen by the first byte, must read to the end or fail with a Status, never
// crash or hang; a read that succeeds gives batches of the schema it announced.
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "quiver/json/reader.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  ++data;
  --size;
  static ThreadPool two(2);
  json::JsonReadOptions o;
  o.block_bytes = 4096 << (flags & 3);
  o.thread_pool = (flags & 4) ? &two : nullptr;
  o.infer_rows = (flags & 8) ? 1 : 1000;
  if (flags & 16) o.types = {{"a", utf8()}};
  if (flags & 32) o.types = {{"a.b", float64()}};
  auto copy = std::make_shared<std::string>(reinterpret_cast<const char*>(data), size);
  auto bytes = Buffer::Wrap(reinterpret_cast<const uint8_t*>(copy->data()), static_cast<int64_t>(copy->size()), copy);
  auto reader = json::JsonReader::OpenBuffer(bytes, "fuzz", o);
  if (!reader.ok()) return 0;
  const SchemaPtr schema = (*reader)->schema();
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || *batch == nullptr) break;
    if (!(*batch)->schema()->Equals(*schema)) __builtin_trap();
  }
  return 0;
}
