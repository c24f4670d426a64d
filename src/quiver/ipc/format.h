// The Arrow IPC message schema in one place: each table's field slots, the enums and union tags
// (facts of the Arrow format: Schema.fbs, Message.fbs, File.fbs), and the structs stored inline.
// Both the reader and the writer go through these names, never through bare numbers.
#pragma once

#include <cstdint>

namespace quiver::ipc::format {

// union MessageHeader
enum MessageHeader : uint8_t { kHeaderNone = 0, kSchema = 1, kDictionaryBatch = 2, kRecordBatch = 3, kTensor = 4, kSparseTensor = 5 };
// enum MetadataVersion (short)
enum MetadataVersion : int16_t { kV1 = 0, kV2 = 1, kV3 = 2, kV4 = 3, kV5 = 4 };

// union Type
enum TypeTag : uint8_t {
  kTypeNone = 0, kNull = 1, kInt = 2, kFloatingPoint = 3, kBinary = 4, kUtf8 = 5, kBool = 6, kDecimal = 7,
  kDate = 8, kTime = 9, kTimestamp = 10, kInterval = 11, kList = 12, kStruct = 13, kUnion = 14,
  kFixedSizeBinary = 15, kFixedSizeList = 16, kMap = 17, kDuration = 18, kLargeBinary = 19, kLargeUtf8 = 20,
  kLargeList = 21, kRunEndEncoded = 22, kBinaryView = 23, kUtf8View = 24, kListView = 25, kLargeListView = 26,
};
const char* TypeTagName(uint8_t tag);

enum Precision : int16_t { kHalf = 0, kSingle = 1, kDouble = 2 };
enum DateUnit : int16_t { kDay = 0, kDateMillisecond = 1 };
enum TimeUnit : int16_t { kSecond = 0, kMillisecond = 1, kMicrosecond = 2, kNanosecond = 3 };
enum Endianness : int16_t { kLittle = 0, kBig = 1 };
enum CompressionType : int8_t { kLz4Frame = 0, kZstd = 1 };
enum UnionMode : int16_t { kSparse = 0, kDense = 1 };

// Table slots (field ids).
namespace message { enum { version = 0, header_type = 1, header = 2, body_length = 3, custom_metadata = 4 }; }
namespace schema { enum { endianness = 0, fields = 1, custom_metadata = 2, features = 3 }; }
namespace field { enum { name = 0, nullable = 1, type_type = 2, type = 3, dictionary = 4, children = 5, custom_metadata = 6 }; }
namespace key_value { enum { key = 0, value = 1 }; }
namespace dictionary_encoding { enum { id = 0, index_type = 1, is_ordered = 2, kind = 3 }; }
namespace int_type { enum { bit_width = 0, is_signed = 1 }; }
namespace floating_point { enum { precision = 0 }; }
namespace decimal { enum { precision = 0, scale = 1, bit_width = 2 }; }
namespace date { enum { unit = 0 }; }
namespace time { enum { unit = 0, bit_width = 1 }; }
namespace timestamp { enum { unit = 0, timezone = 1 }; }
namespace fixed_size_binary { enum { byte_width = 0 }; }
namespace map { enum { keys_sorted = 0 }; }
namespace union_type { enum { mode = 0, type_ids = 1 }; }
namespace fixed_size_list { enum { list_size = 0 }; }
namespace record_batch { enum { length = 0, nodes = 1, buffers = 2, compression = 3, variadic_buffer_counts = 4 }; }
namespace body_compression { enum { codec = 0, method = 1 }; }
namespace dictionary_batch { enum { id = 0, data = 1, is_delta = 2 }; }
namespace footer { enum { version = 0, schema = 1, dictionaries = 2, record_batches = 3, custom_metadata = 4 }; }

// Structs stored inline in vectors, little-endian, laid out as the format says.
struct FieldNode {
  int64_t length;
  int64_t null_count;
};
struct BufferRef {
  int64_t offset;
  int64_t length;
};
struct Block {
  int64_t offset;
  int32_t meta_data_length;
  int32_t padding;
  int64_t body_length;
};
static_assert(sizeof(FieldNode) == 16 && sizeof(BufferRef) == 16 && sizeof(Block) == 24);

// Framing: a message is [0xFFFFFFFF][int32 metadata length][Message flatbuffer, padded to 8][body];
// a length of 0 ends the stream. Streams before format 0.15 have no continuation marker.
inline constexpr uint32_t kContinuation = 0xFFFFFFFFu;
// The file format: "ARROW1" and two bytes of padding, the stream, the Footer flatbuffer, its
// int32 length, "ARROW1".
inline constexpr char kFileMagic[6] = {'A', 'R', 'R', 'O', 'W', '1'};

}  // namespace quiver::ipc::format
