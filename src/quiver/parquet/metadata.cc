// Names of the Parquet enums, for messages and the CLI.
#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

namespace {
template <size_t N>
const char* Lookup(const char* const (&names)[N], int32_t v) {
  return v >= 0 && static_cast<size_t>(v) < N ? names[v] : nullptr;
}
}  // namespace

const char* TypeName(Type t) {
  static const char* const kNames[] = {"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                                       "FIXED_LEN_BYTE_ARRAY"};
  return Lookup(kNames, static_cast<int32_t>(t));
}

const char* ConvertedTypeName(ConvertedType t) {
  static const char* const kNames[] = {
      "UTF8",   "MAP",    "MAP_KEY_VALUE", "LIST",   "ENUM",   "DECIMAL", "DATE",  "TIME_MILLIS",
      "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32", "UINT_64",
      "INT_8",  "INT_16", "INT_32",        "INT_64", "JSON",   "BSON",    "INTERVAL"};
  return Lookup(kNames, static_cast<int32_t>(t));
}

const char* RepetitionName(FieldRepetitionType t) {
  static const char* const kNames[] = {"REQUIRED", "OPTIONAL", "REPEATED", "VECTOR"};
  return Lookup(kNames, static_cast<int32_t>(t));
}

const char* EncodingName(Encoding e) {
  static const char* const kNames[] = {"PLAIN", "GROUP_VAR_INT", "PLAIN_DICTIONARY", "RLE", "BIT_PACKED",
                                       "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                                       "RLE_DICTIONARY", "BYTE_STREAM_SPLIT"};
  return Lookup(kNames, static_cast<int32_t>(e));
}

const char* CodecName(CompressionCodec c) {
  static const char* const kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"};
  return Lookup(kNames, static_cast<int32_t>(c));
}

const char* PageTypeName(PageType t) {
  static const char* const kNames[] = {"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"};
  return Lookup(kNames, static_cast<int32_t>(t));
}

const char* LogicalTypeKind(const LogicalType& t) {
  if (t.STRING) return "STRING";
  if (t.MAP) return "MAP";
  if (t.LIST) return "LIST";
  if (t.ENUM) return "ENUM";
  if (t.DECIMAL) return "DECIMAL";
  if (t.DATE) return "DATE";
  if (t.TIME) return "TIME";
  if (t.TIMESTAMP) return "TIMESTAMP";
  if (t.INTEGER) return "INTEGER";
  if (t.UNKNOWN) return "UNKNOWN";
  if (t.JSON) return "JSON";
  if (t.BSON) return "BSON";
  if (t.UUID) return "UUID";
  if (t.FLOAT16) return "FLOAT16";
  if (t.VARIANT) return "VARIANT";
  if (t.GEOMETRY) return "GEOMETRY";
  if (t.GEOGRAPHY) return "GEOGRAPHY";
  if (t.VECTOR) return "VECTOR";
  return "";
}

const char* EncryptionAlgorithmName(const EncryptionAlgorithm& a) {
  if (a.AES_GCM_V1) return "AES_GCM_V1";
  if (a.AES_GCM_CTR_V1) return "AES_GCM_CTR_V1";
  return "an unknown algorithm";
}

}  // namespace quiver::parquet
