// Arrow IPC schema decoding: the Schema flatbuffer's fields into quiver fields, with what
// decoding their buffers needs beyond the quiver type (the Arrow type, large offsets, views,
// fixed-size lists, dictionary ids and index widths); types quiver lacks are refused by name.
#pragma once

#include <map>
#include <vector>

#include "quiver/columnar/schema.h"
#include "quiver/core/result.h"
#include "quiver/ipc/flatbuffers.h"

namespace quiver::ipc {

// One field of the schema as read: the quiver field (for a dictionary-encoded field, its value
// type) and what decoding its buffers needs beyond it.
struct FieldInfo {
  Field field;
  uint8_t tag = 0;       // the Arrow type of the values
  bool large = false;    // 64-bit offsets, narrowed on reading
  int32_t list_size = 0; // FixedSizeList: read as a list of this many entries per slot
  bool view = false;     // Utf8View/BinaryView: views and variadic buffers, read into offsets
  bool sparse = false;   // a sparse Union: read as a dense one whose offsets are the slot numbers
  int64_t dict_id = -1;  // dictionary-encoded when >= 0
  int index_bits = 32;
  bool index_signed = true;
  std::vector<FieldInfo> children;
};

// The fields and schema of a Schema table; NotImplemented for big-endian data.
Status ReadSchema(const fb::Table& s, std::vector<FieldInfo>* fields, SchemaPtr* schema);

// The dictionary-encoded fields, nested ones included, by dictionary id.
void CollectDictionaries(const std::vector<FieldInfo>& fields, std::map<int64_t, const FieldInfo*>* out);

}  // namespace quiver::ipc
