// The typed column writers behind ColumnWriter::Make, one file per family: scalar_writers.cc
// (boolean, integers, dates, floats, decimals, timestamps), string_writer.cc (strings and
// binary, with stripe dictionaries), nested_writers.cc (struct, list, map, union); and the
// helpers they share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quiver/core/bit_util.h"
#include "quiver/orc/writer/column_writer_internal.h"

namespace quiver::orc::writer {

// Calls f(start, length) for each run of valid rows among [offset, offset + length) of a
// bitmap (positions relative to offset).
template <typename F>
void ForEachValidRun(const uint8_t* validity, int64_t bit_offset, int64_t length, F&& f) {
  int64_t i = 0;
  while (i < length) {
    while (i < length && !bit_util::GetBit(validity, bit_offset + i)) ++i;
    const int64_t start = i;
    while (i < length && bit_util::GetBit(validity, bit_offset + i)) ++i;
    if (i > start) f(start, i - start);
  }
}

// Visits each valid row index in [0, length): all of them when `validity` is null.
template <typename F>
inline void ForEachValid(const uint8_t* validity, int64_t bit_offset, int64_t length, F&& f) {
  if (validity == nullptr) {
    for (int64_t i = 0; i < length; ++i) f(i);
  } else {
    for (int64_t i = 0; i < length; ++i) {
      if (bit_util::GetBit(validity, bit_offset + i)) f(i);
    }
  }
}

inline ColumnEncoding Encoding(uint32_t kind, uint32_t dictionary_size = 0) {
  ColumnEncoding e;
  e.kind = kind;
  e.dictionary_size = dictionary_size;
  return e;
}

// The writer of a scalar type (boolean, integers, dates, floats, decimals, timestamps), or null
// for another type.
std::unique_ptr<ColumnWriter> MakeScalarWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                               const DataType& type);
// Strings (`is_string`), binary and fixed-size binary (`fixed_width` > 0).
std::unique_ptr<ColumnWriter> MakeStringWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                               bool is_string, int32_t fixed_width);
// Nested writers; ColumnWriter::Make gives them their children.
std::unique_ptr<ColumnWriter> MakeStructWriter(const ColumnContext& ctx, const std::string& name, uint32_t id);
std::unique_ptr<ColumnWriter> MakeListWriter(const ColumnContext& ctx, const std::string& name, uint32_t id, bool is_map);
std::unique_ptr<ColumnWriter> MakeUnionWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                              const DataType& type);

}  // namespace quiver::orc::writer
