// The Parquet metadata model (parquet-format's parquet.thrift): footer, page headers, page
// index, bloom filter header, encryption markers. Field ids and wire types live in metadata_fields.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "quiver/thrift/views.h"

namespace quiver::parquet {

// Every struct here is trivially destructible: lists are arena arrays and strings are views
// into the footer bytes (or an arena), so a decoded footer is freed by dropping its arena.
// Optional strings and lists use the 12-byte OptionalBinary/OptionalList, optional integers
// and enums the byte-aligned OptionalScalar (9 bytes for an int64), and optional structs that
// are large or rare are Boxed (a pointer into the arena; set with Emplace(arena)). Members are
// ordered for size, not by field id (the field tables in metadata_fields.h give the wire
// order): a wide footer's decoded column chunks are most of its memory, and in a fresh process
// every byte of it is a first touch (docs/parquet-footer.md).
using thrift::Boxed;
using thrift::List;
using thrift::OptionalBinary;
using thrift::OptionalList;
using thrift::OptionalScalar;
using Binary = std::string_view;

// Enums keep the raw wire value: a value newer than this code stays representable (and
// round-trips) instead of failing the whole footer; validation happens where it matters.
enum class Type : int32_t {
  BOOLEAN = 0, INT32 = 1, INT64 = 2, INT96 = 3, FLOAT = 4, DOUBLE = 5, BYTE_ARRAY = 6, FIXED_LEN_BYTE_ARRAY = 7,
};
enum class ConvertedType : int32_t {
  UTF8 = 0, MAP = 1, MAP_KEY_VALUE = 2, LIST = 3, ENUM = 4, DECIMAL = 5, DATE = 6, TIME_MILLIS = 7,
  TIME_MICROS = 8, TIMESTAMP_MILLIS = 9, TIMESTAMP_MICROS = 10, UINT_8 = 11, UINT_16 = 12, UINT_32 = 13,
  UINT_64 = 14, INT_8 = 15, INT_16 = 16, INT_32 = 17, INT_64 = 18, JSON = 19, BSON = 20, INTERVAL = 21,
};
enum class FieldRepetitionType : int32_t { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2, VECTOR = 3 };
enum class Encoding : int32_t {
  PLAIN = 0, GROUP_VAR_INT = 1, PLAIN_DICTIONARY = 2, RLE = 3, BIT_PACKED = 4, DELTA_BINARY_PACKED = 5,
  DELTA_LENGTH_BYTE_ARRAY = 6, DELTA_BYTE_ARRAY = 7, RLE_DICTIONARY = 8, BYTE_STREAM_SPLIT = 9,
};
enum class CompressionCodec : int32_t {
  UNCOMPRESSED = 0, SNAPPY = 1, GZIP = 2, LZO = 3, BROTLI = 4, LZ4 = 5, ZSTD = 6, LZ4_RAW = 7,
};
enum class PageType : int32_t { DATA_PAGE = 0, INDEX_PAGE = 1, DICTIONARY_PAGE = 2, DATA_PAGE_V2 = 3 };
enum class BoundaryOrder : int32_t { UNORDERED = 0, ASCENDING = 1, DESCENDING = 2 };
enum class EdgeInterpolationAlgorithm : int32_t { SPHERICAL = 0, VINCENTY = 1, THOMAS = 2, ANDOYER = 3, KARNEY = 4 };

const char* TypeName(Type t);                      // "INT32", or nullptr when unknown
const char* ConvertedTypeName(ConvertedType t);
const char* RepetitionName(FieldRepetitionType t);
const char* EncodingName(Encoding e);
const char* CodecName(CompressionCodec c);
const char* PageTypeName(PageType t);

#define QUIVER_PARQUET_EMPTY_STRUCT(Name) \
  struct Name {                           \
    bool operator==(const Name&) const = default; \
  }

struct SizeStatistics {
  OptionalList<int64_t> repetition_level_histogram;
  OptionalList<int64_t> definition_level_histogram;
  OptionalScalar<int64_t> unencoded_byte_array_data_bytes;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  std::optional<double> zmin, zmax, mmin, mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  OptionalList<int32_t> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

// Values are PLAIN-encoded bytes of the column's physical type (no length prefix for BYTE_ARRAY).
struct Statistics {
  OptionalBinary max;  // legacy, signed order
  OptionalBinary min;  // legacy, signed order
  OptionalBinary max_value;
  OptionalBinary min_value;
  OptionalScalar<int64_t> null_count;
  OptionalScalar<int64_t> distinct_count;
  OptionalScalar<int64_t> nan_count;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  bool operator==(const Statistics&) const = default;
};

QUIVER_PARQUET_EMPTY_STRUCT(StringType);
QUIVER_PARQUET_EMPTY_STRUCT(UUIDType);
QUIVER_PARQUET_EMPTY_STRUCT(MapType);
QUIVER_PARQUET_EMPTY_STRUCT(ListType);
QUIVER_PARQUET_EMPTY_STRUCT(VectorType);
QUIVER_PARQUET_EMPTY_STRUCT(EnumType);
QUIVER_PARQUET_EMPTY_STRUCT(DateType);
QUIVER_PARQUET_EMPTY_STRUCT(Float16Type);
QUIVER_PARQUET_EMPTY_STRUCT(NullType);
QUIVER_PARQUET_EMPTY_STRUCT(JsonType);
QUIVER_PARQUET_EMPTY_STRUCT(BsonType);
QUIVER_PARQUET_EMPTY_STRUCT(MilliSeconds);
QUIVER_PARQUET_EMPTY_STRUCT(MicroSeconds);
QUIVER_PARQUET_EMPTY_STRUCT(NanoSeconds);

struct DecimalType {
  int32_t scale = 0;
  int32_t precision = 0;
  bool operator==(const DecimalType&) const = default;
};

// Thrift union: exactly one member is set in a valid file.
struct TimeUnit {
  std::optional<MilliSeconds> MILLIS;
  std::optional<MicroSeconds> MICROS;
  std::optional<NanoSeconds> NANOS;
  bool operator==(const TimeUnit&) const = default;
};

struct TimestampType {
  bool isAdjustedToUTC = false;
  TimeUnit unit;
  bool operator==(const TimestampType&) const = default;
};

struct TimeType {
  bool isAdjustedToUTC = false;
  TimeUnit unit;
  bool operator==(const TimeType&) const = default;
};

struct IntType {
  int8_t bitWidth = 0;
  bool isSigned = false;
  bool operator==(const IntType&) const = default;
};

struct VariantType {
  OptionalScalar<int8_t> specification_version;
  bool operator==(const VariantType&) const = default;
};

// GEOMETRY and GEOGRAPHY are kept as the spec describes them; quiver does not interpret them.
struct GeometryType {
  OptionalBinary crs;
  bool operator==(const GeometryType&) const = default;
};

struct GeographyType {
  OptionalBinary crs;
  OptionalScalar<EdgeInterpolationAlgorithm> algorithm;
  bool operator==(const GeographyType&) const = default;
};

// Thrift union (id 9 is reserved for INTERVAL).
struct LogicalType {
  std::optional<StringType> STRING;
  std::optional<MapType> MAP;
  std::optional<ListType> LIST;
  std::optional<EnumType> ENUM;
  std::optional<DecimalType> DECIMAL;
  std::optional<DateType> DATE;
  std::optional<TimeType> TIME;
  std::optional<TimestampType> TIMESTAMP;
  std::optional<IntType> INTEGER;
  std::optional<NullType> UNKNOWN;
  std::optional<JsonType> JSON;
  std::optional<BsonType> BSON;
  std::optional<UUIDType> UUID;
  std::optional<Float16Type> FLOAT16;
  std::optional<VariantType> VARIANT;
  std::optional<GeometryType> GEOMETRY;
  std::optional<GeographyType> GEOGRAPHY;
  std::optional<VectorType> VECTOR;
  bool operator==(const LogicalType&) const = default;
};

struct SchemaElement {
  Binary name;
  Boxed<LogicalType> logicalType;
  OptionalScalar<Type> type;
  OptionalScalar<int32_t> type_length;
  OptionalScalar<FieldRepetitionType> repetition_type;
  OptionalScalar<int32_t> num_children;
  OptionalScalar<ConvertedType> converted_type;
  OptionalScalar<int32_t> scale;
  OptionalScalar<int32_t> precision;
  OptionalScalar<int32_t> field_id;
  OptionalScalar<int32_t> vector_length;
  bool operator==(const SchemaElement&) const = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  Encoding definition_level_encoding = Encoding::PLAIN;
  Encoding repetition_level_encoding = Encoding::PLAIN;
  Boxed<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

QUIVER_PARQUET_EMPTY_STRUCT(IndexPageHeader);

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::PLAIN;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::PLAIN;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  std::optional<bool> is_compressed;  // absent means compressed
  Boxed<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

QUIVER_PARQUET_EMPTY_STRUCT(SplitBlockAlgorithm);
QUIVER_PARQUET_EMPTY_STRUCT(XxHash);
QUIVER_PARQUET_EMPTY_STRUCT(Uncompressed);
struct BloomFilterAlgorithm {
  std::optional<SplitBlockAlgorithm> BLOCK;
  bool operator==(const BloomFilterAlgorithm&) const = default;
};
struct BloomFilterHash {
  std::optional<XxHash> XXHASH;
  bool operator==(const BloomFilterHash&) const = default;
};
struct BloomFilterCompression {
  std::optional<Uncompressed> UNCOMPRESSED;
  bool operator==(const BloomFilterCompression&) const = default;
};

struct BloomFilterHeader {
  int32_t numBytes = 0;
  BloomFilterAlgorithm algorithm;
  BloomFilterHash hash;
  BloomFilterCompression compression;
  bool operator==(const BloomFilterHeader&) const = default;
};

struct PageHeader {
  PageType type = PageType::DATA_PAGE;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  OptionalScalar<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

struct KeyValue {
  Binary key;
  OptionalBinary value;
  bool operator==(const KeyValue&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::DATA_PAGE;
  Encoding encoding = Encoding::PLAIN;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

struct ColumnMetaData {
  Type type = Type::BOOLEAN;
  CompressionCodec codec = CompressionCodec::UNCOMPRESSED;
  List<Encoding> encodings;
  List<Binary> path_in_schema;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  OptionalList<KeyValue> key_value_metadata;
  OptionalList<PageEncodingStats> encoding_stats;
  Boxed<Statistics> statistics;
  Boxed<SizeStatistics> size_statistics;
  Boxed<GeospatialStatistics> geospatial_statistics;
  OptionalScalar<int64_t> index_page_offset;
  OptionalScalar<int64_t> dictionary_page_offset;
  OptionalScalar<int64_t> bloom_filter_offset;
  OptionalScalar<int32_t> bloom_filter_length;
  bool operator==(const ColumnMetaData&) const = default;
};

QUIVER_PARQUET_EMPTY_STRUCT(EncryptionWithFooterKey);
struct EncryptionWithColumnKey {
  List<Binary> path_in_schema;
  OptionalBinary key_metadata;
  bool operator==(const EncryptionWithColumnKey&) const = default;
};
struct ColumnCryptoMetaData {
  std::optional<EncryptionWithFooterKey> ENCRYPTION_WITH_FOOTER_KEY;
  std::optional<EncryptionWithColumnKey> ENCRYPTION_WITH_COLUMN_KEY;
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<ColumnMetaData> meta_data;
  OptionalBinary file_path;
  OptionalBinary encrypted_column_metadata;
  int64_t file_offset = 0;
  Boxed<ColumnCryptoMetaData> crypto_metadata;
  OptionalScalar<int64_t> offset_index_offset;
  OptionalScalar<int64_t> column_index_offset;
  OptionalScalar<int32_t> offset_index_length;
  OptionalScalar<int32_t> column_index_length;
  bool operator==(const ColumnChunk&) const = default;
};

struct RowGroup {
  List<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  OptionalList<SortingColumn> sorting_columns;
  OptionalScalar<int64_t> file_offset;
  OptionalScalar<int64_t> total_compressed_size;
  OptionalScalar<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

QUIVER_PARQUET_EMPTY_STRUCT(TypeDefinedOrder);
QUIVER_PARQUET_EMPTY_STRUCT(IEEE754TotalOrder);
QUIVER_PARQUET_EMPTY_STRUCT(Int96TimestampOrder);
struct ColumnOrder {
  std::optional<TypeDefinedOrder> TYPE_ORDER;
  std::optional<IEEE754TotalOrder> IEEE_754_TOTAL_ORDER;
  std::optional<Int96TimestampOrder> INT96_TIMESTAMP_ORDER;
  bool operator==(const ColumnOrder&) const = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  List<PageLocation> page_locations;
  OptionalList<int64_t> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  List<bool> null_pages;
  List<Binary> min_values;
  List<Binary> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;
  OptionalList<int64_t> null_counts;
  OptionalList<int64_t> repetition_level_histograms;
  OptionalList<int64_t> definition_level_histograms;
  OptionalList<int64_t> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

struct AesGcmV1 {
  OptionalBinary aad_prefix;
  OptionalBinary aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmV1&) const = default;
};
struct AesGcmCtrV1 {
  OptionalBinary aad_prefix;
  OptionalBinary aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const AesGcmCtrV1&) const = default;
};
struct EncryptionAlgorithm {
  std::optional<AesGcmV1> AES_GCM_V1;
  std::optional<AesGcmCtrV1> AES_GCM_CTR_V1;
  bool operator==(const EncryptionAlgorithm&) const = default;
};

struct FileMetaData {
  int32_t version = 0;
  List<SchemaElement> schema;
  int64_t num_rows = 0;
  List<RowGroup> row_groups;
  OptionalList<KeyValue> key_value_metadata;
  OptionalBinary created_by;
  OptionalList<ColumnOrder> column_orders;
  Boxed<EncryptionAlgorithm> encryption_algorithm;
  OptionalBinary footer_signing_key_metadata;
  bool operator==(const FileMetaData&) const = default;
};

// The footer of a file whose footer is itself encrypted ("PARE" magic).
struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  OptionalBinary key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

#undef QUIVER_PARQUET_EMPTY_STRUCT

// The name of the set member of a union-like struct ("TIMESTAMP", "AES_GCM_V1"), or "" if none.
const char* LogicalTypeKind(const LogicalType& t);
const char* EncryptionAlgorithmName(const EncryptionAlgorithm& a);

}  // namespace quiver::parquet
