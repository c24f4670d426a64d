// Names of ORC's enum values for schema, meta and error messages.
#include "quiver/orc/format.h"

namespace quiver::orc::format {

const char* CompressionName(uint32_t kind) {
  static const char* const kNames[] = {"NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI"};
  return kind < 7 ? kNames[kind] : nullptr;
}

const char* TypeKindName(uint32_t kind) {
  static const char* const kNames[] = {"BOOLEAN", "BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE",
                                       "STRING", "BINARY", "TIMESTAMP", "LIST", "MAP", "STRUCT", "UNION",
                                       "DECIMAL", "DATE", "VARCHAR", "CHAR", "TIMESTAMP_INSTANT",
                                       "GEOMETRY", "GEOGRAPHY"};
  return kind < 21 ? kNames[kind] : nullptr;
}

const char* StreamKindName(uint32_t kind) {
  static const char* const kNames[] = {"PRESENT", "DATA", "LENGTH", "DICTIONARY_DATA", "DICTIONARY_COUNT",
                                       "SECONDARY", "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8",
                                       "ENCRYPTED_INDEX", "ENCRYPTED_DATA"};
  if (kind < 11) return kNames[kind];
  if (kind == stream_kind::kStripeStatistics) return "STRIPE_STATISTICS";
  if (kind == stream_kind::kFileStatistics) return "FILE_STATISTICS";
  return nullptr;
}

const char* EncodingKindName(uint32_t kind) {
  static const char* const kNames[] = {"DIRECT", "DICTIONARY", "DIRECT_V2", "DICTIONARY_V2"};
  return kind < 4 ? kNames[kind] : nullptr;
}

}  // namespace quiver::orc::format
