// Rows printed exactly as Apache ORC's column printer does (the upstream expected/*.jsn.gz
// files and the peers' orc_dump_default): so the tests compare quiver's values with the oracle.
#pragma once

#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <string>

#include "quiver/columnar/array.h"
#include "quiver/columnar/record_batch.h"

namespace quiver::testing {

inline void OrcDumpValue(const ArrayData& a, int64_t i, std::string* out) {
  if (!a.IsValid(i)) {
    *out += "null";
    return;
  }
  const int64_t k = a.offset + i;
  char buf[128];
  switch (a.type->id()) {
    case TypeId::kBool: *out += bit_util::GetBit(a.buffers[1]->data(), k) ? "true" : "false"; return;
    case TypeId::kInt8: *out += std::to_string(a.buffers[1]->data_as<int8_t>()[k]); return;
    case TypeId::kInt16: *out += std::to_string(a.buffers[1]->data_as<int16_t>()[k]); return;
    case TypeId::kInt32: *out += std::to_string(a.buffers[1]->data_as<int32_t>()[k]); return;
    case TypeId::kInt64: *out += std::to_string(a.buffers[1]->data_as<int64_t>()[k]); return;
    case TypeId::kFloat32: std::snprintf(buf, sizeof(buf), "%.7g", static_cast<double>(a.buffers[1]->data_as<float>()[k])); *out += buf; return;
    case TypeId::kFloat64: std::snprintf(buf, sizeof(buf), "%.14g", a.buffers[1]->data_as<double>()[k]); *out += buf; return;
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* o = a.buffers[1]->data_as<int32_t>();
      const uint8_t* b = a.buffers[2]->data() + o[k];
      const int32_t len = o[k + 1] - o[k];
      if (a.type->id() == TypeId::kBinary) {
        *out += '[';
        for (int32_t j = 0; j < len; ++j) *out += (j ? ", " : "") + std::to_string(b[j]);
        *out += ']';
        return;
      }
      *out += '"';
      for (int32_t j = 0; j < len; ++j) {
        char ch = static_cast<char>(b[j]);
        switch (ch) {
          case '\\': *out += "\\\\"; break;
          case '\b': *out += "\\b"; break;
          case '\f': *out += "\\f"; break;
          case '\n': *out += "\\n"; break;
          case '\r': *out += "\\r"; break;
          case '\t': *out += "\\t"; break;
          case '"': *out += "\\\""; break;
          default: *out += ch;
        }
      }
      *out += '"';
      return;
    }
    case TypeId::kDate32: {
      time_t secs = static_cast<time_t>(a.buffers[1]->data_as<int32_t>()[k]) * 86400;
      struct tm tm;
      gmtime_r(&secs, &tm);
      strftime(buf, sizeof(buf), "\"%Y-%m-%d\"", &tm);
      *out += buf;
      return;
    }
    case TypeId::kTimestamp: {
      int64_t ns = a.buffers[1]->data_as<int64_t>()[k];
      int64_t secs = ns / 1000000000, nanos = ns % 1000000000;
      if (nanos < 0) {
        nanos += 1000000000;
        --secs;
      }
      time_t t = static_cast<time_t>(secs);
      struct tm tm;
      gmtime_r(&t, &tm);
      strftime(buf, sizeof(buf), "\"%Y-%m-%d %H:%M:%S.", &tm);
      *out += buf;
      // Nine digits, then trailing zeros dropped down to one digit.
      std::snprintf(buf, sizeof(buf), "%09" PRId64, nanos);
      std::string digits(buf);
      const size_t last = digits.find_last_not_of('0');
      digits.resize(last == std::string::npos ? 1 : last + 1);
      *out += digits;
      *out += '"';
      return;
    }
    case TypeId::kDecimal128: {
      __int128 v = a.buffers[1]->data_as<__int128>()[k];
      bool neg = v < 0;
      unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
      std::string digits;
      do {
        digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
        u /= 10;
      } while (u != 0);
      const int scale = a.type->scale();
      if (scale > 0) {
        if (static_cast<int>(digits.size()) <= scale) digits.insert(0, static_cast<size_t>(scale + 1) - digits.size(), '0');
        digits.insert(digits.size() - static_cast<size_t>(scale), ".");
      }
      *out += (neg ? "-" : "") + digits;
      return;
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int32_t* o = a.buffers[1]->data_as<int32_t>();
      const ArrayData& child = *a.children[0];
      *out += '[';
      for (int32_t j = o[k]; j < o[k + 1]; ++j) {
        if (j != o[k]) *out += ", ";
        if (a.type->id() == TypeId::kMap) {
          *out += "{\"key\": ";
          OrcDumpValue(*child.children[0], child.offset + j, out);
          *out += ", \"value\": ";
          OrcDumpValue(*child.children[1], child.offset + j, out);
          *out += '}';
        } else {
          OrcDumpValue(child, j, out);
        }
      }
      *out += ']';
      return;
    }
    case TypeId::kStruct: {
      *out += '{';
      for (int f = 0; f < a.type->num_fields(); ++f) {
        if (f) *out += ", ";
        *out += "\"" + a.type->field(f).name + "\": ";
        OrcDumpValue(*a.children[static_cast<size_t>(f)], k, out);
      }
      *out += '}';
      return;
    }
    case TypeId::kDenseUnion: {  // the ORC tag (quiver's type code) and the member's value
      const int8_t code = a.buffers[1]->data_as<int8_t>()[k];
      *out += "{\"tag\": " + std::to_string(code) + ", \"value\": ";
      OrcDumpValue(*a.children[static_cast<size_t>(a.type->ChildOfCode(code))], a.buffers[2]->data_as<int32_t>()[k], out);
      *out += '}';
      return;
    }
    default: *out += "?"; return;
  }
}

// One line per row: the row as a struct, or its single value when the file's root is not a
// struct (`root_is_struct` false).
inline std::string OrcDumpRow(const RecordBatch& b, int64_t row, bool root_is_struct) {
  std::string s;
  if (!root_is_struct) {
    OrcDumpValue(*b.column(0).data(), row, &s);
    return s;
  }
  s += '{';
  for (int c = 0; c < b.num_columns(); ++c) {
    if (c) s += ", ";
    s += "\"" + b.schema()->field(c).name + "\": ";
    OrcDumpValue(*b.column(c).data(), row, &s);
  }
  s += '}';
  return s;
}

}  // namespace quiver::testing
