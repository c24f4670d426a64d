// The ORC file format's facts in one place (orc_proto.proto of ORC spec 1.1): each protobuf
// message's field numbers and the enums. The decoder and the encoder both go through these names,
// never through bare numbers.
#pragma once

#include <cstdint>

namespace quiver::orc::format {

// Enums keep the raw wire value in the metadata structs; these name the values quiver knows.
enum CompressionKind : uint32_t { kNone = 0, kZlib = 1, kSnappy = 2, kLzo = 3, kLz4 = 4, kZstd = 5, kBrotli = 6 };

namespace type_kind {
enum Kind : uint32_t {
  kBoolean = 0, kByte = 1, kShort = 2, kInt = 3, kLong = 4, kFloat = 5, kDouble = 6, kString = 7,
  kBinary = 8, kTimestamp = 9, kList = 10, kMap = 11, kStruct = 12, kUnion = 13, kDecimal = 14,
  kDate = 15, kVarchar = 16, kChar = 17, kTimestampInstant = 18, kGeometry = 19, kGeography = 20,
};
}  // namespace type_kind

namespace stream_kind {
enum Kind : uint32_t {
  kPresent = 0, kData = 1, kLength = 2, kDictionaryData = 3, kDictionaryCount = 4, kSecondary = 5,
  kRowIndex = 6, kBloomFilter = 7, kBloomFilterUtf8 = 8, kEncryptedIndex = 9, kEncryptedData = 10,
  kStripeStatistics = 100, kFileStatistics = 101,
};
}  // namespace stream_kind

namespace encoding_kind {
enum Kind : uint32_t { kDirect = 0, kDictionary = 1, kDirectV2 = 2, kDictionaryV2 = 3 };
}  // namespace encoding_kind

// ColumnEncoding.bloomEncoding: 0 the original (Java String.hashCode-era) filters, 1 UTF-8 bytes.
enum BloomEncoding : uint32_t { kBloomOriginal = 0, kBloomUtf8 = 1 };

enum CalendarKind : uint32_t { kUnknownCalendar = 0, kJulianGregorian = 1, kProlepticGregorian = 2 };
enum EncryptionAlgorithm : uint32_t { kUnknownEncryption = 0, kAesCtr128 = 1, kAesCtr256 = 2 };
enum KeyProviderKind : uint32_t { kUnknownProvider = 0, kHadoop = 1, kAws = 2, kGcp = 3, kAzure = 4 };

// Writer ids (Footer.writer) and writer versions (PostScript.writerVersion) that readers act on.
// The specification registers ids 0..5 (5 is CUDF); a writer without one, as quiver is, writes
// kUnknownWriter, the id Apache ORC C++ gives every unregistered writer (UNKNOWN_WRITER), so that
// no reader takes its files for another writer's.
enum WriterId : uint32_t {
  kJavaWriter = 0, kCppWriter = 1, kPrestoWriter = 2, kScritchleyGo = 3, kTrinoWriter = 4, kUnknownWriter = 2147483647
};
// The C++ writer's int64 bloom filters used an inconsistent hash before ORC-1024 (writerVersion 9).
inline constexpr uint32_t kWriterVersionOrc135 = 5;   // bloom filters of UTF-8 bytes (ORC-135)
inline constexpr uint32_t kWriterVersionOrc1024 = 9;  // (C++ writer) a consistent int64 bloom hash

// Field numbers, one namespace per message.
namespace integer_statistics { enum { minimum = 1, maximum = 2, sum = 3 }; }
namespace double_statistics { enum { minimum = 1, maximum = 2, sum = 3 }; }
namespace string_statistics { enum { minimum = 1, maximum = 2, sum = 3, lower_bound = 4, upper_bound = 5 }; }
namespace bucket_statistics { enum { count = 1 }; }
namespace decimal_statistics { enum { minimum = 1, maximum = 2, sum = 3 }; }
namespace date_statistics { enum { minimum = 1, maximum = 2 }; }
namespace timestamp_statistics {
enum { minimum = 1, maximum = 2, minimum_utc = 3, maximum_utc = 4, minimum_nanos = 5, maximum_nanos = 6 };
}
namespace binary_statistics { enum { sum = 1 }; }
namespace collection_statistics { enum { min_children = 1, max_children = 2, total_children = 3 }; }
namespace column_statistics {
enum {
  number_of_values = 1, int_statistics = 2, double_statistics = 3, string_statistics = 4, bucket_statistics = 5,
  decimal_statistics = 6, date_statistics = 7, binary_statistics = 8, timestamp_statistics = 9, has_null = 10,
  bytes_on_disk = 11, collection_statistics = 12,
};
}
namespace row_index_entry { enum { positions = 1, statistics = 2 }; }
namespace row_index { enum { entry = 1 }; }
namespace bloom_filter { enum { num_hash_functions = 1, bitset = 2, utf8bitset = 3 }; }
namespace bloom_filter_index { enum { bloom_filter = 1 }; }
namespace stream { enum { kind = 1, column = 2, length = 3 }; }
namespace column_encoding { enum { kind = 1, dictionary_size = 2, bloom_encoding = 3 }; }
namespace stripe_encryption_variant { enum { streams = 1, encoding = 2 }; }
namespace stripe_footer { enum { streams = 1, columns = 2, writer_timezone = 3, encryption = 4 }; }
namespace string_pair { enum { key = 1, value = 2 }; }
namespace type {
enum { kind = 1, subtypes = 2, field_names = 3, maximum_length = 4, precision = 5, scale = 6, attributes = 7 };
}
namespace stripe_information {
enum {
  offset = 1, index_length = 2, data_length = 3, footer_length = 4, number_of_rows = 5, encrypt_stripe_id = 6,
  encrypted_local_keys = 7,
};
}
namespace user_metadata_item { enum { name = 1, value = 2 }; }
namespace stripe_statistics { enum { col_stats = 1 }; }
namespace metadata { enum { stripe_stats = 1 }; }
namespace data_mask { enum { name = 1, mask_parameters = 2, columns = 3 }; }
namespace encryption_key { enum { key_name = 1, key_version = 2, algorithm = 3 }; }
namespace encryption_variant { enum { root = 1, key = 2, encrypted_key = 3, stripe_statistics = 4, file_statistics = 5 }; }
namespace encryption { enum { mask = 1, key = 2, variants = 3, key_provider = 4 }; }
namespace footer {
enum {
  header_length = 1, content_length = 2, stripes = 3, types = 4, metadata = 5, number_of_rows = 6,
  statistics = 7, row_index_stride = 8, writer = 9, encryption = 10, calendar = 11, software_version = 12,
};
}
namespace post_script {
enum {
  footer_length = 1, compression = 2, compression_block_size = 3, version = 4, metadata_length = 5,
  writer_version = 6, stripe_statistics_length = 7, magic = 8000,
};
}

// The file: "ORC" (absent in files of Hive 0.11), stripes, Metadata, Footer, PostScript, then one
// byte giving the PostScript's length. Only the PostScript is never compressed.
inline constexpr char kMagic[3] = {'O', 'R', 'C'};
inline constexpr uint64_t kDefaultCompressionBlockSize = 256 * 1024;
// A compressed stream is chunks, each a 3-byte little-endian header: length << 1 | is_original.
inline constexpr int kChunkHeaderSize = 3;
inline constexpr uint32_t kMaxChunkLength = (1u << 23) - 1;
inline constexpr uint32_t kDefaultRowIndexStride = 10000;

const char* CompressionName(uint32_t kind);   // "ZLIB", or nullptr when unknown
const char* TypeKindName(uint32_t kind);      // "BOOLEAN"
const char* StreamKindName(uint32_t kind);    // "PRESENT"
const char* EncodingKindName(uint32_t kind);  // "DIRECT_V2"

}  // namespace quiver::orc::format
