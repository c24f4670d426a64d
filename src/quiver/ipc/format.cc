#include "quiver/ipc/format.h"

namespace quiver::ipc::format {

const char* TypeTagName(uint8_t tag) {
  static constexpr const char* kNames[] = {
      "NONE", "Null", "Int", "FloatingPoint", "Binary", "Utf8", "Bool", "Decimal", "Date", "Time", "Timestamp",
      "Interval", "List", "Struct", "Union", "FixedSizeBinary", "FixedSizeList", "Map", "Duration", "LargeBinary",
      "LargeUtf8", "LargeList", "RunEndEncoded", "BinaryView", "Utf8View", "ListView", "LargeListView"};
  return tag < sizeof(kNames) / sizeof(kNames[0]) ? kNames[tag] : "unknown";
}

}  // namespace quiver::ipc::format
