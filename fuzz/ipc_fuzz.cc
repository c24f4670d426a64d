// libFuzzer target for the Arrow IPC reader: the input is an IPC file or stream (seeds: the
// Arrow integration files, fuzz/corpus/make_seeds.py). Reading must never crash; every batch
// that decodes must validate, and writing it back must read back equal.
#include <cstdint>
#include <cstring>

#include "quiver/io/output_stream.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto bytes = Buffer::CopyOf(std::span<const uint8_t>(data, size));
  if (!bytes.ok()) return 0;
  auto reader = ipc::IpcReader::OpenBuffer(*bytes, "fuzz");
  if (!reader.ok()) return 0;
  io::BufferOutputStream out;
  // The batches as read (batch_rows 0), so that each reads back equal to its own.
  auto writer = ipc::IpcWriter::Make(&out, (*reader)->schema(), {.file_format = false, .batch_rows = 0});
  if (!writer.ok()) __builtin_trap();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < 64; ++i) {
    auto b = (*reader)->Next();
    if (!b.ok() || *b == nullptr) break;
    for (const Array& c : (*b)->columns()) {
      if (!c.Validate().ok()) __builtin_trap();
    }
    if (!(*writer)->Write(*b).ok()) __builtin_trap();
    batches.push_back(*b);
  }
  if (!(*writer)->Finish().ok()) __builtin_trap();
  auto written = out.Finish();
  if (!written.ok()) return 0;
  auto back = ipc::IpcReader::OpenBuffer(*written, "written");
  if (!back.ok()) __builtin_trap();
  for (const auto& b : batches) {
    auto got = (*back)->Next();
    if (!got.ok() || *got == nullptr || !(*got)->Equals(*b)) __builtin_trap();
  }
  return 0;
}
