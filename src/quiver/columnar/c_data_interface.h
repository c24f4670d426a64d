// Arrow C Data Interface: hand arrays and schemas to other engines (and take theirs)
// without copying buffers. Structs and flags are exactly as the Arrow specification defines.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/columnar/array.h"
#include "quiver/columnar/record_batch.h"
#include "quiver/columnar/schema.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

extern "C" {
struct ArrowSchema {
  const char* format;
  const char* name;
  const char* metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};
}
#endif  // ARROW_C_DATA_INTERFACE

namespace quiver {

// The Arrow format string of a type ("i", "tsu:UTC", "d:12,2", "+l", ...).
Result<std::string> ArrowFormatString(const DataType& type);

// Exports fill `out`; the consumer calls out->release when done. The exported array keeps
// quiver's buffers alive until then.
Status ExportField(const Field& field, ArrowSchema* out);
Status ExportType(const DataType& type, ArrowSchema* out);
Status ExportSchema(const Schema& schema, ArrowSchema* out);  // a non-nullable struct "+s"
Status ExportArray(const Array& array, ArrowArray* out);
Status ExportRecordBatch(const RecordBatch& batch, ArrowArray* out);

// Imports take ownership: on return (success or failure) the source struct is released or
// moved (its release set to null), and the imported buffers keep the producer's memory
// alive until the last quiver Buffer referring to it is gone.
Result<Field> ImportField(ArrowSchema* schema);
Result<TypePtr> ImportType(ArrowSchema* schema);
Result<SchemaPtr> ImportSchema(ArrowSchema* schema);
Result<Array> ImportArray(ArrowArray* array, const TypePtr& type);
Result<Array> ImportArray(ArrowArray* array, ArrowSchema* schema);
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, SchemaPtr schema);
Result<std::shared_ptr<RecordBatch>> ImportRecordBatch(ArrowArray* array, ArrowSchema* schema);

}  // namespace quiver
