// Schema: the ordered fields of a record batch or file, with key-value metadata.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/type.h"

namespace quiver {

class Schema {
 public:
  Schema() = default;
  explicit Schema(std::vector<Field> fields, KeyValueMetadata metadata = {})
      : fields_(std::move(fields)), metadata_(std::move(metadata)) {}

  const std::vector<Field>& fields() const { return fields_; }
  const Field& field(int i) const { return fields_[static_cast<size_t>(i)]; }
  int num_fields() const { return static_cast<int>(fields_.size()); }
  const KeyValueMetadata& metadata() const { return metadata_; }
  // Index of the first field with this name, or -1.
  int GetFieldIndex(std::string_view name) const;

  bool Equals(const Schema& other, bool check_metadata = false) const;
  std::string ToString() const;  // one "name: type" per line

 private:
  std::vector<Field> fields_;
  KeyValueMetadata metadata_;
};

using SchemaPtr = std::shared_ptr<const Schema>;

}  // namespace quiver
