// Field tables of the Parquet Thrift structs: each struct's fields (id, name, required or
// optional, member) written down once; the templates in thrift/compact_reader_internal.h and
// compact_writer_internal.h derive decoding, skipping and encoding from these tables, and a
// table that does not name every member of its struct does not compile
// (thrift/field_table_internal.h).
#pragma once

#include <tuple>

#include "quiver/parquet/metadata.h"
#include "quiver/thrift/compact_reader_internal.h"

namespace quiver::parquet {

// Hooks a selective decode acts on (see footer.h DecodeOptions).
enum Hook : uint8_t { kNoHook = 0, kHookRowGroups = 1, kHookColumns = 2, kHookStatistics = 3 };

}  // namespace quiver::parquet

namespace quiver::thrift {

template <>
struct StructInfo<parquet::SizeStatistics> {
  using S = parquet::SizeStatistics;
  static constexpr const char* kName = "SizeStatistics";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "unencoded_byte_array_data_bytes", &S::unencoded_byte_array_data_bytes, kOptional),
      Field(2, "repetition_level_histogram", &S::repetition_level_histogram, kOptional),
      Field(3, "definition_level_histogram", &S::definition_level_histogram, kOptional));
};

template <>
struct StructInfo<parquet::BoundingBox> {
  using S = parquet::BoundingBox;
  static constexpr const char* kName = "BoundingBox";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "xmin", &S::xmin, kRequired),
      Field(2, "xmax", &S::xmax, kRequired),
      Field(3, "ymin", &S::ymin, kRequired),
      Field(4, "ymax", &S::ymax, kRequired),
      Field(5, "zmin", &S::zmin, kOptional),
      Field(6, "zmax", &S::zmax, kOptional),
      Field(7, "mmin", &S::mmin, kOptional),
      Field(8, "mmax", &S::mmax, kOptional));
};

template <>
struct StructInfo<parquet::GeospatialStatistics> {
  using S = parquet::GeospatialStatistics;
  static constexpr const char* kName = "GeospatialStatistics";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "bbox", &S::bbox, kOptional),
      Field(2, "geospatial_types", &S::geospatial_types, kOptional));
};

template <>
struct StructInfo<parquet::Statistics> {
  using S = parquet::Statistics;
  static constexpr const char* kName = "Statistics";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "max", &S::max, kOptional),
      Field(2, "min", &S::min, kOptional),
      Field(3, "null_count", &S::null_count, kOptional),
      Field(4, "distinct_count", &S::distinct_count, kOptional),
      Field(5, "max_value", &S::max_value, kOptional),
      Field(6, "min_value", &S::min_value, kOptional),
      Field(7, "is_max_value_exact", &S::is_max_value_exact, kOptional),
      Field(8, "is_min_value_exact", &S::is_min_value_exact, kOptional),
      Field(9, "nan_count", &S::nan_count, kOptional));
};

template <>
struct StructInfo<parquet::StringType> {
  using S = parquet::StringType;
  static constexpr const char* kName = "StringType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::UUIDType> {
  using S = parquet::UUIDType;
  static constexpr const char* kName = "UUIDType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::MapType> {
  using S = parquet::MapType;
  static constexpr const char* kName = "MapType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::ListType> {
  using S = parquet::ListType;
  static constexpr const char* kName = "ListType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::VectorType> {
  using S = parquet::VectorType;
  static constexpr const char* kName = "VectorType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::EnumType> {
  using S = parquet::EnumType;
  static constexpr const char* kName = "EnumType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::DateType> {
  using S = parquet::DateType;
  static constexpr const char* kName = "DateType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::Float16Type> {
  using S = parquet::Float16Type;
  static constexpr const char* kName = "Float16Type";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::NullType> {
  using S = parquet::NullType;
  static constexpr const char* kName = "NullType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::JsonType> {
  using S = parquet::JsonType;
  static constexpr const char* kName = "JsonType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::BsonType> {
  using S = parquet::BsonType;
  static constexpr const char* kName = "BsonType";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::MilliSeconds> {
  using S = parquet::MilliSeconds;
  static constexpr const char* kName = "MilliSeconds";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::MicroSeconds> {
  using S = parquet::MicroSeconds;
  static constexpr const char* kName = "MicroSeconds";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::NanoSeconds> {
  using S = parquet::NanoSeconds;
  static constexpr const char* kName = "NanoSeconds";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::DecimalType> {
  using S = parquet::DecimalType;
  static constexpr const char* kName = "DecimalType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "scale", &S::scale, kRequired),
      Field(2, "precision", &S::precision, kRequired));
};

template <>
struct StructInfo<parquet::TimeUnit> {
  using S = parquet::TimeUnit;
  static constexpr const char* kName = "TimeUnit";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "MILLIS", &S::MILLIS, kOptional),
      Field(2, "MICROS", &S::MICROS, kOptional),
      Field(3, "NANOS", &S::NANOS, kOptional));
};

template <>
struct StructInfo<parquet::TimestampType> {
  using S = parquet::TimestampType;
  static constexpr const char* kName = "TimestampType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "isAdjustedToUTC", &S::isAdjustedToUTC, kRequired),
      Field(2, "unit", &S::unit, kRequired));
};

template <>
struct StructInfo<parquet::TimeType> {
  using S = parquet::TimeType;
  static constexpr const char* kName = "TimeType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "isAdjustedToUTC", &S::isAdjustedToUTC, kRequired),
      Field(2, "unit", &S::unit, kRequired));
};

template <>
struct StructInfo<parquet::IntType> {
  using S = parquet::IntType;
  static constexpr const char* kName = "IntType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "bitWidth", &S::bitWidth, kRequired),
      Field(2, "isSigned", &S::isSigned, kRequired));
};

template <>
struct StructInfo<parquet::VariantType> {
  using S = parquet::VariantType;
  static constexpr const char* kName = "VariantType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "specification_version", &S::specification_version, kOptional));
};

template <>
struct StructInfo<parquet::GeometryType> {
  using S = parquet::GeometryType;
  static constexpr const char* kName = "GeometryType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "crs", &S::crs, kOptional));
};

template <>
struct StructInfo<parquet::GeographyType> {
  using S = parquet::GeographyType;
  static constexpr const char* kName = "GeographyType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "crs", &S::crs, kOptional),
      Field(2, "algorithm", &S::algorithm, kOptional));
};

template <>
struct StructInfo<parquet::LogicalType> {
  using S = parquet::LogicalType;
  static constexpr const char* kName = "LogicalType";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "STRING", &S::STRING, kOptional),
      Field(2, "MAP", &S::MAP, kOptional),
      Field(3, "LIST", &S::LIST, kOptional),
      Field(4, "ENUM", &S::ENUM, kOptional),
      Field(5, "DECIMAL", &S::DECIMAL, kOptional),
      Field(6, "DATE", &S::DATE, kOptional),
      Field(7, "TIME", &S::TIME, kOptional),
      Field(8, "TIMESTAMP", &S::TIMESTAMP, kOptional),
      Field(10, "INTEGER", &S::INTEGER, kOptional),
      Field(11, "UNKNOWN", &S::UNKNOWN, kOptional),
      Field(12, "JSON", &S::JSON, kOptional),
      Field(13, "BSON", &S::BSON, kOptional),
      Field(14, "UUID", &S::UUID, kOptional),
      Field(15, "FLOAT16", &S::FLOAT16, kOptional),
      Field(16, "VARIANT", &S::VARIANT, kOptional),
      Field(17, "GEOMETRY", &S::GEOMETRY, kOptional),
      Field(18, "GEOGRAPHY", &S::GEOGRAPHY, kOptional),
      Field(19, "VECTOR", &S::VECTOR, kOptional));
};

template <>
struct StructInfo<parquet::SchemaElement> {
  using S = parquet::SchemaElement;
  static constexpr const char* kName = "SchemaElement";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "type", &S::type, kOptional),
      Field(2, "type_length", &S::type_length, kOptional),
      Field(3, "repetition_type", &S::repetition_type, kOptional),
      Field(4, "name", &S::name, kRequired),
      Field(5, "num_children", &S::num_children, kOptional),
      Field(6, "converted_type", &S::converted_type, kOptional),
      Field(7, "scale", &S::scale, kOptional),
      Field(8, "precision", &S::precision, kOptional),
      Field(9, "field_id", &S::field_id, kOptional),
      Field(10, "logicalType", &S::logicalType, kOptional),
      Field(11, "vector_length", &S::vector_length, kOptional));
};

template <>
struct StructInfo<parquet::DataPageHeader> {
  using S = parquet::DataPageHeader;
  static constexpr const char* kName = "DataPageHeader";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "num_values", &S::num_values, kRequired),
      Field(2, "encoding", &S::encoding, kRequired),
      Field(3, "definition_level_encoding", &S::definition_level_encoding, kRequired),
      Field(4, "repetition_level_encoding", &S::repetition_level_encoding, kRequired),
      Field(5, "statistics", &S::statistics, kOptional));
};

template <>
struct StructInfo<parquet::IndexPageHeader> {
  using S = parquet::IndexPageHeader;
  static constexpr const char* kName = "IndexPageHeader";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::DictionaryPageHeader> {
  using S = parquet::DictionaryPageHeader;
  static constexpr const char* kName = "DictionaryPageHeader";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "num_values", &S::num_values, kRequired),
      Field(2, "encoding", &S::encoding, kRequired),
      Field(3, "is_sorted", &S::is_sorted, kOptional));
};

template <>
struct StructInfo<parquet::DataPageHeaderV2> {
  using S = parquet::DataPageHeaderV2;
  static constexpr const char* kName = "DataPageHeaderV2";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "num_values", &S::num_values, kRequired),
      Field(2, "num_nulls", &S::num_nulls, kRequired),
      Field(3, "num_rows", &S::num_rows, kRequired),
      Field(4, "encoding", &S::encoding, kRequired),
      Field(5, "definition_levels_byte_length", &S::definition_levels_byte_length, kRequired),
      Field(6, "repetition_levels_byte_length", &S::repetition_levels_byte_length, kRequired),
      Field(7, "is_compressed", &S::is_compressed, kOptional),
      Field(8, "statistics", &S::statistics, kOptional));
};

template <>
struct StructInfo<parquet::SplitBlockAlgorithm> {
  using S = parquet::SplitBlockAlgorithm;
  static constexpr const char* kName = "SplitBlockAlgorithm";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::XxHash> {
  using S = parquet::XxHash;
  static constexpr const char* kName = "XxHash";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::Uncompressed> {
  using S = parquet::Uncompressed;
  static constexpr const char* kName = "Uncompressed";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::BloomFilterAlgorithm> {
  using S = parquet::BloomFilterAlgorithm;
  static constexpr const char* kName = "BloomFilterAlgorithm";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "BLOCK", &S::BLOCK, kOptional));
};

template <>
struct StructInfo<parquet::BloomFilterHash> {
  using S = parquet::BloomFilterHash;
  static constexpr const char* kName = "BloomFilterHash";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "XXHASH", &S::XXHASH, kOptional));
};

template <>
struct StructInfo<parquet::BloomFilterCompression> {
  using S = parquet::BloomFilterCompression;
  static constexpr const char* kName = "BloomFilterCompression";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "UNCOMPRESSED", &S::UNCOMPRESSED, kOptional));
};

template <>
struct StructInfo<parquet::BloomFilterHeader> {
  using S = parquet::BloomFilterHeader;
  static constexpr const char* kName = "BloomFilterHeader";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "numBytes", &S::numBytes, kRequired),
      Field(2, "algorithm", &S::algorithm, kRequired),
      Field(3, "hash", &S::hash, kRequired),
      Field(4, "compression", &S::compression, kRequired));
};

template <>
struct StructInfo<parquet::PageHeader> {
  using S = parquet::PageHeader;
  static constexpr const char* kName = "PageHeader";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "type", &S::type, kRequired),
      Field(2, "uncompressed_page_size", &S::uncompressed_page_size, kRequired),
      Field(3, "compressed_page_size", &S::compressed_page_size, kRequired),
      Field(4, "crc", &S::crc, kOptional),
      Field(5, "data_page_header", &S::data_page_header, kOptional),
      Field(6, "index_page_header", &S::index_page_header, kOptional),
      Field(7, "dictionary_page_header", &S::dictionary_page_header, kOptional),
      Field(8, "data_page_header_v2", &S::data_page_header_v2, kOptional));
};

template <>
struct StructInfo<parquet::KeyValue> {
  using S = parquet::KeyValue;
  static constexpr const char* kName = "KeyValue";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "key", &S::key, kRequired),
      Field(2, "value", &S::value, kOptional));
};

template <>
struct StructInfo<parquet::SortingColumn> {
  using S = parquet::SortingColumn;
  static constexpr const char* kName = "SortingColumn";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "column_idx", &S::column_idx, kRequired),
      Field(2, "descending", &S::descending, kRequired),
      Field(3, "nulls_first", &S::nulls_first, kRequired));
};

template <>
struct StructInfo<parquet::PageEncodingStats> {
  using S = parquet::PageEncodingStats;
  static constexpr const char* kName = "PageEncodingStats";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "page_type", &S::page_type, kRequired),
      Field(2, "encoding", &S::encoding, kRequired),
      Field(3, "count", &S::count, kRequired));
};

template <>
struct StructInfo<parquet::ColumnMetaData> {
  using S = parquet::ColumnMetaData;
  static constexpr const char* kName = "ColumnMetaData";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "type", &S::type, kRequired),
      Field(2, "encodings", &S::encodings, kRequired),
      Field(3, "path_in_schema", &S::path_in_schema, kRequired),
      Field(4, "codec", &S::codec, kRequired),
      Field(5, "num_values", &S::num_values, kRequired),
      Field(6, "total_uncompressed_size", &S::total_uncompressed_size, kRequired),
      Field(7, "total_compressed_size", &S::total_compressed_size, kRequired),
      Field(8, "key_value_metadata", &S::key_value_metadata, kOptional),
      Field(9, "data_page_offset", &S::data_page_offset, kRequired),
      Field(10, "index_page_offset", &S::index_page_offset, kOptional),
      Field(11, "dictionary_page_offset", &S::dictionary_page_offset, kOptional),
      Field(12, "statistics", &S::statistics, kOptional, parquet::kHookStatistics),
      Field(13, "encoding_stats", &S::encoding_stats, kOptional),
      Field(14, "bloom_filter_offset", &S::bloom_filter_offset, kOptional),
      Field(15, "bloom_filter_length", &S::bloom_filter_length, kOptional),
      Field(16, "size_statistics", &S::size_statistics, kOptional, parquet::kHookStatistics),
      Field(17, "geospatial_statistics", &S::geospatial_statistics, kOptional, parquet::kHookStatistics));
};

template <>
struct StructInfo<parquet::EncryptionWithFooterKey> {
  using S = parquet::EncryptionWithFooterKey;
  static constexpr const char* kName = "EncryptionWithFooterKey";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::EncryptionWithColumnKey> {
  using S = parquet::EncryptionWithColumnKey;
  static constexpr const char* kName = "EncryptionWithColumnKey";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "path_in_schema", &S::path_in_schema, kRequired),
      Field(2, "key_metadata", &S::key_metadata, kOptional));
};

template <>
struct StructInfo<parquet::ColumnCryptoMetaData> {
  using S = parquet::ColumnCryptoMetaData;
  static constexpr const char* kName = "ColumnCryptoMetaData";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "ENCRYPTION_WITH_FOOTER_KEY", &S::ENCRYPTION_WITH_FOOTER_KEY, kOptional),
      Field(2, "ENCRYPTION_WITH_COLUMN_KEY", &S::ENCRYPTION_WITH_COLUMN_KEY, kOptional));
};

template <>
struct StructInfo<parquet::ColumnChunk> {
  using S = parquet::ColumnChunk;
  static constexpr const char* kName = "ColumnChunk";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "file_path", &S::file_path, kOptional),
      Field(2, "file_offset", &S::file_offset, kRequired),
      Field(3, "meta_data", &S::meta_data, kOptional),
      Field(4, "offset_index_offset", &S::offset_index_offset, kOptional),
      Field(5, "offset_index_length", &S::offset_index_length, kOptional),
      Field(6, "column_index_offset", &S::column_index_offset, kOptional),
      Field(7, "column_index_length", &S::column_index_length, kOptional),
      Field(8, "crypto_metadata", &S::crypto_metadata, kOptional),
      Field(9, "encrypted_column_metadata", &S::encrypted_column_metadata, kOptional));
};

template <>
struct StructInfo<parquet::RowGroup> {
  using S = parquet::RowGroup;
  static constexpr const char* kName = "RowGroup";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "columns", &S::columns, kRequired, parquet::kHookColumns),
      Field(2, "total_byte_size", &S::total_byte_size, kRequired),
      Field(3, "num_rows", &S::num_rows, kRequired),
      Field(4, "sorting_columns", &S::sorting_columns, kOptional),
      Field(5, "file_offset", &S::file_offset, kOptional),
      Field(6, "total_compressed_size", &S::total_compressed_size, kOptional),
      Field(7, "ordinal", &S::ordinal, kOptional));
};

template <>
struct StructInfo<parquet::TypeDefinedOrder> {
  using S = parquet::TypeDefinedOrder;
  static constexpr const char* kName = "TypeDefinedOrder";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::IEEE754TotalOrder> {
  using S = parquet::IEEE754TotalOrder;
  static constexpr const char* kName = "IEEE754TotalOrder";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::Int96TimestampOrder> {
  using S = parquet::Int96TimestampOrder;
  static constexpr const char* kName = "Int96TimestampOrder";
  static constexpr std::tuple<> kFields{};
};

template <>
struct StructInfo<parquet::ColumnOrder> {
  using S = parquet::ColumnOrder;
  static constexpr const char* kName = "ColumnOrder";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "TYPE_ORDER", &S::TYPE_ORDER, kOptional),
      Field(2, "IEEE_754_TOTAL_ORDER", &S::IEEE_754_TOTAL_ORDER, kOptional),
      Field(3, "INT96_TIMESTAMP_ORDER", &S::INT96_TIMESTAMP_ORDER, kOptional));
};

template <>
struct StructInfo<parquet::PageLocation> {
  using S = parquet::PageLocation;
  static constexpr const char* kName = "PageLocation";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "offset", &S::offset, kRequired),
      Field(2, "compressed_page_size", &S::compressed_page_size, kRequired),
      Field(3, "first_row_index", &S::first_row_index, kRequired));
};

template <>
struct StructInfo<parquet::OffsetIndex> {
  using S = parquet::OffsetIndex;
  static constexpr const char* kName = "OffsetIndex";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "page_locations", &S::page_locations, kRequired),
      Field(2, "unencoded_byte_array_data_bytes", &S::unencoded_byte_array_data_bytes, kOptional));
};

template <>
struct StructInfo<parquet::ColumnIndex> {
  using S = parquet::ColumnIndex;
  static constexpr const char* kName = "ColumnIndex";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "null_pages", &S::null_pages, kRequired),
      Field(2, "min_values", &S::min_values, kRequired),
      Field(3, "max_values", &S::max_values, kRequired),
      Field(4, "boundary_order", &S::boundary_order, kRequired),
      Field(5, "null_counts", &S::null_counts, kOptional),
      Field(6, "repetition_level_histograms", &S::repetition_level_histograms, kOptional),
      Field(7, "definition_level_histograms", &S::definition_level_histograms, kOptional),
      Field(8, "nan_counts", &S::nan_counts, kOptional));
};

template <>
struct StructInfo<parquet::AesGcmV1> {
  using S = parquet::AesGcmV1;
  static constexpr const char* kName = "AesGcmV1";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "aad_prefix", &S::aad_prefix, kOptional),
      Field(2, "aad_file_unique", &S::aad_file_unique, kOptional),
      Field(3, "supply_aad_prefix", &S::supply_aad_prefix, kOptional));
};

template <>
struct StructInfo<parquet::AesGcmCtrV1> {
  using S = parquet::AesGcmCtrV1;
  static constexpr const char* kName = "AesGcmCtrV1";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "aad_prefix", &S::aad_prefix, kOptional),
      Field(2, "aad_file_unique", &S::aad_file_unique, kOptional),
      Field(3, "supply_aad_prefix", &S::supply_aad_prefix, kOptional));
};

template <>
struct StructInfo<parquet::EncryptionAlgorithm> {
  using S = parquet::EncryptionAlgorithm;
  static constexpr const char* kName = "EncryptionAlgorithm";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "AES_GCM_V1", &S::AES_GCM_V1, kOptional),
      Field(2, "AES_GCM_CTR_V1", &S::AES_GCM_CTR_V1, kOptional));
};

template <>
struct StructInfo<parquet::FileMetaData> {
  using S = parquet::FileMetaData;
  static constexpr const char* kName = "FileMetaData";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "version", &S::version, kRequired),
      Field(2, "schema", &S::schema, kRequired),
      Field(3, "num_rows", &S::num_rows, kRequired),
      Field(4, "row_groups", &S::row_groups, kRequired, parquet::kHookRowGroups),
      Field(5, "key_value_metadata", &S::key_value_metadata, kOptional),
      Field(6, "created_by", &S::created_by, kOptional),
      Field(7, "column_orders", &S::column_orders, kOptional),
      Field(8, "encryption_algorithm", &S::encryption_algorithm, kOptional),
      Field(9, "footer_signing_key_metadata", &S::footer_signing_key_metadata, kOptional));
};

template <>
struct StructInfo<parquet::FileCryptoMetaData> {
  using S = parquet::FileCryptoMetaData;
  static constexpr const char* kName = "FileCryptoMetaData";
  static constexpr auto kFields = std::make_tuple(
      Field(1, "encryption_algorithm", &S::encryption_algorithm, kRequired),
      Field(2, "key_metadata", &S::key_metadata, kOptional));
};

}  // namespace quiver::thrift
