// libFuzzer target for the CSV reader: any bytes, under options chosen by the first byte, must
// read or fail with a Status; and where the SIMD splitter sees no anomaly, every SIMD level
// must agree with the state machine.
#include <cstdint>
#include <cstring>
#include <vector>

#include "quiver/csv/reader.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/csv/state_machine_internal.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  ++data;
  --size;

  csv::SplitConfig cfg;
  cfg.delimiter = ",;|\t"[flags & 3];
  if (flags & 4) cfg.escape = '\\';
  csv::MachineConfig mc;
  mc.split = cfg;
  std::vector<uint32_t> ref(size + 1), got(size + csv::kSplitOutputSlack);
  csv::MachineState ms;
  csv::MachineResult mr = csv::SplitWithStateMachine(data, size, -1, true, mc, &ms, ref.data());
  for (SimdLevel level : SupportedSimdLevels()) {
    csv::SplitCarry carry;
    csv::SplitResult r = csv::GetSplitKernels(level).split(data, size, -1, cfg, &carry, got.data());
    if (!r.anomaly && carry.in_quote == 0 && mr.error == csv::MachineError::kNone) {
      if (r.count != mr.count || std::memcmp(got.data(), ref.data(), r.count * 4) != 0) __builtin_trap();
      if (r.line_breaks != mr.line_breaks) __builtin_trap();
    }
  }

  csv::CsvOptions o;
  o.threads = (flags & 8) ? 2 : 1;
  o.block_size = 64 + (flags >> 4) * 97;
  o.lenient = (flags & 16) != 0;
  if (flags & 32) o.on_error = csv::OnError::kNull;
  if (flags & 64) o.comment = '#';
  auto bytes = Buffer::CopyOf(std::span<const uint8_t>(data, size));
  if (!bytes.ok()) return 0;
  auto reader = csv::CsvReader::OpenBuffer(*bytes, o, "fuzz.csv");
  if (!reader.ok()) return 0;
  for (int i = 0; i < 100000; ++i) {
    auto b = (*reader)->Next();
    if (!b.ok() || !*b) break;
    if (!(*b)->schema()->Equals(*(*reader)->schema())) __builtin_trap();
  }
  return 0;
}
