#include "quiver/columnar/schema.h"

namespace quiver {

int Schema::GetFieldIndex(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool Schema::Equals(const Schema& other, bool check_metadata) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!fields_[i].Equals(other.fields_[i], check_metadata)) return false;
  }
  return !check_metadata || metadata_ == other.metadata_;
}

std::string Schema::ToString() const {
  std::string out;
  for (const auto& f : fields_) {
    out += f.ToString();
    out += '\n';
  }
  return out;
}

}  // namespace quiver
