// The ORC metadata model (orc_proto.proto): PostScript, Footer, Metadata, StripeFooter, row index
// and bloom filters as plain structs, and their decoders (metadata.cc). Enums keep the raw wire
// value (names in format.h), so a newer value stays representable; readers check what they use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/result.h"

namespace quiver::orc {

struct IntegerStatistics {
  std::optional<int64_t> minimum, maximum, sum;  // sum absent when it overflowed
};
struct DoubleStatistics {
  std::optional<double> minimum, maximum, sum;
};
struct StringStatistics {
  std::optional<std::string> minimum, maximum;
  std::optional<int64_t> sum;  // total length in bytes
  // Set instead of minimum/maximum when those were too long to keep whole (truncated bounds).
  std::optional<std::string> lower_bound, upper_bound;
};
struct BucketStatistics {
  std::vector<uint64_t> count;  // boolean columns: count[0] is the number of true values
};
struct DecimalStatistics {
  std::optional<std::string> minimum, maximum, sum;  // decimal text
};
struct DateStatistics {
  std::optional<int32_t> minimum, maximum;  // days since 1970-01-01
};
struct TimestampStatistics {
  // Milliseconds since the epoch: minimum/maximum in the writer's local time (older files),
  // minimum_utc/maximum_utc in UTC; the nanos fields carry the sub-millisecond part + 1.
  std::optional<int64_t> minimum, maximum, minimum_utc, maximum_utc;
  std::optional<int32_t> minimum_nanos, maximum_nanos;
};
struct BinaryStatistics {
  std::optional<int64_t> sum;  // total length in bytes
};
struct CollectionStatistics {
  std::optional<uint64_t> min_children, max_children, total_children;
};

struct ColumnStatistics {
  std::optional<uint64_t> number_of_values;  // non-null values
  std::optional<bool> has_null;
  std::optional<uint64_t> bytes_on_disk;
  // At most one of these is set, by the column's type.
  std::optional<IntegerStatistics> int_statistics;
  std::optional<DoubleStatistics> double_statistics;
  std::optional<StringStatistics> string_statistics;
  std::optional<BucketStatistics> bucket_statistics;
  std::optional<DecimalStatistics> decimal_statistics;
  std::optional<DateStatistics> date_statistics;
  std::optional<BinaryStatistics> binary_statistics;
  std::optional<TimestampStatistics> timestamp_statistics;
  std::optional<CollectionStatistics> collection_statistics;
};

struct RowIndexEntry {
  std::vector<uint64_t> positions;  // per stream of the column: byte/chunk offsets, values to skip
  std::optional<ColumnStatistics> statistics;
};
struct RowIndex {
  std::vector<RowIndexEntry> entry;
};

struct BloomFilter {
  uint32_t num_hash_functions = 0;  // 0: not known, and the filter excludes nothing
  std::vector<uint64_t> bitset;     // the original encoding's words
  std::string utf8bitset;           // the UTF-8 encoding: the same bits, little-endian bytes
  // An earlier layout of the Java writer (over1k_bloom.orc, writer version 1): field 1 the
  // expected entries, field 2 the false-positive probability (a double), field 3 the words as
  // varints. Its bits are kept, but its hashing is not the specification's (no probe of the
  // values it holds finds their bits), so num_hash_functions stays 0.
  bool early_layout = false;
  uint32_t expected_entries = 0;  // early layout only
  double fpp = 0;                 // early layout only
};
struct BloomFilterIndex {
  std::vector<BloomFilter> bloom_filter;  // one per row group
};

struct Stream {
  uint32_t kind = 0;  // format::stream_kind
  uint32_t column = 0;
  uint64_t length = 0;
};
struct ColumnEncoding {
  uint32_t kind = 0;  // format::encoding_kind
  uint32_t dictionary_size = 0;
  uint32_t bloom_encoding = 0;  // format::BloomEncoding
};
struct StripeEncryptionVariant {
  std::vector<Stream> streams;
  std::vector<ColumnEncoding> encoding;
};
struct StripeFooter {
  std::vector<Stream> streams;
  std::vector<ColumnEncoding> columns;
  std::optional<std::string> writer_timezone;
  std::vector<StripeEncryptionVariant> encryption;
};

struct StringPair {
  std::string key, value;
};
struct Type {
  uint32_t kind = 0;               // format::type_kind
  std::vector<uint32_t> subtypes;  // column ids of the children
  std::vector<std::string> field_names;
  std::optional<uint32_t> maximum_length;  // varchar, char
  std::optional<uint32_t> precision, scale;
  std::vector<StringPair> attributes;
};

struct StripeInformation {
  uint64_t offset = 0, index_length = 0, data_length = 0, footer_length = 0, number_of_rows = 0;
  std::optional<uint64_t> encrypt_stripe_id;
  std::vector<std::string> encrypted_local_keys;
};

struct UserMetadataItem {
  std::string name;
  std::string value;
};

struct StripeStatistics {
  std::vector<ColumnStatistics> col_stats;  // one per column id
};
struct Metadata {
  std::vector<StripeStatistics> stripe_stats;  // one per stripe
};

struct DataMask {
  std::string name;
  std::vector<std::string> mask_parameters;
  std::vector<uint32_t> columns;
};
struct EncryptionKey {
  std::string key_name;
  uint32_t key_version = 0;
  uint32_t algorithm = 0;  // format::EncryptionAlgorithm
};
struct EncryptionVariant {
  uint32_t root = 0, key = 0;
  std::string encrypted_key;
  std::vector<Stream> stripe_statistics;
  std::string file_statistics;
};
struct Encryption {
  std::vector<DataMask> mask;
  std::vector<EncryptionKey> key;
  std::vector<EncryptionVariant> variants;
  uint32_t key_provider = 0;  // format::KeyProviderKind
};

struct Footer {
  uint64_t header_length = 0, content_length = 0;
  std::vector<StripeInformation> stripes;
  std::vector<Type> types;  // column ids in pre-order; types[0] is the root struct
  std::vector<UserMetadataItem> metadata;
  std::optional<uint64_t> number_of_rows;
  std::vector<ColumnStatistics> statistics;  // one per column id
  uint32_t row_index_stride = 0;             // 0: no row index
  std::optional<uint32_t> writer;            // format::WriterId
  std::optional<Encryption> encryption;
  uint32_t calendar = 0;  // format::CalendarKind
  std::optional<std::string> software_version;
};

struct PostScript {
  uint64_t footer_length = 0;
  uint32_t compression = 0;  // format::CompressionKind
  std::optional<uint64_t> compression_block_size;
  std::vector<uint32_t> version;  // [major, minor]; empty in files of Hive 0.11 (read as 0.11)
  uint64_t metadata_length = 0;
  std::optional<uint32_t> writer_version;
  std::optional<uint64_t> stripe_statistics_length;
  std::optional<std::string> magic;  // "ORC", absent in Hive 0.11 files
};

// Decoders over one serialized message (already decompressed); errors are Corrupt with the
// message's name and what was wrong.
Result<PostScript> DecodePostScript(std::string_view bytes);
Result<Footer> DecodeFooter(std::string_view bytes);
Result<Metadata> DecodeMetadata(std::string_view bytes);
Result<StripeFooter> DecodeStripeFooter(std::string_view bytes);
Result<RowIndex> DecodeRowIndex(std::string_view bytes);
Result<BloomFilterIndex> DecodeBloomFilterIndex(std::string_view bytes);
Result<ColumnStatistics> DecodeColumnStatistics(std::string_view bytes);

}  // namespace quiver::orc
