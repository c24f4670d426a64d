// Type inference: which of int64, float64, bool, date, timestamp, time every sampled value of
// a column parses as (string otherwise), and whether the first row is a header.
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/csv/convert.h"

namespace quiver::csv {

class TypeInferrer {
 public:
  TypeInferrer(int ncols, const FieldSyntax& syntax) : syntax_(syntax), cols_(static_cast<size_t>(ncols)) {}
  // Rows laid out row-major, `ncols` fields each.
  void Add(const uint8_t* data, const FieldRef* fields, int64_t rows);
  void AddValue(int col, std::string_view text);
  // The narrowest type that holds every value seen (string when nothing was seen).
  TypePtr TypeOf(int col) const;
  // Whether `text` is a non-null value that the type inferred for `col` cannot hold.
  bool Contradicts(int col, std::string_view text) const;

 private:
  struct Candidates {
    bool any = false;
    bool int64 = true, float64 = true, boolean = true, date = true, timestamp = true, time = true;
    bool offset = false;  // a timestamp carried a UTC offset
  };
  const FieldSyntax& syntax_;
  std::vector<Candidates> cols_;
};

}  // namespace quiver::csv
