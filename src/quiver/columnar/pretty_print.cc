#include "quiver/columnar/pretty_print.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace quiver {

namespace {

void AppendHex(std::string_view s, std::string* out) {
  static const char* digits = "0123456789abcdef";
  *out += "0x";
  for (unsigned char c : s) {
    out->push_back(digits[c >> 4]);
    out->push_back(digits[c & 15]);
  }
}

template <typename F>
void AppendFloat(F v, std::string* out) {
  if (std::isnan(v)) *out += "NaN";
  else if (std::isinf(v)) *out += v > 0 ? "inf" : "-inf";
  else fmt::format_to(std::back_inserter(*out), "{}", v);
}

}  // namespace

void AppendJsonQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) fmt::format_to(std::back_inserter(*out), "\\u{:04x}", static_cast<unsigned>(c));
        else out->push_back(c);
    }
  }
  out->push_back('"');
}

std::string JsonQuoted(std::string_view s) {
  std::string out;
  AppendJsonQuoted(s, &out);
  return out;
}

void FormatValue(const Array& a, int64_t i, std::string* out, bool quote_strings) {
  if (a.IsNull(i)) {
    *out += "null";
    return;
  }
  const ArrayData& d = *a.data();
  const int64_t k = d.offset + i;
  const DataType& t = *a.type();
  auto raw = [&](auto tag) { return d.buffers[1]->data_as<decltype(tag)>()[k]; };
  auto it = std::back_inserter(*out);
  switch (t.id()) {
    case TypeId::kBool: *out += BooleanArray(a).Value(i) ? "true" : "false"; return;
    case TypeId::kInt8: fmt::format_to(it, "{}", raw(int8_t{})); return;
    case TypeId::kInt16: fmt::format_to(it, "{}", raw(int16_t{})); return;
    case TypeId::kInt32: fmt::format_to(it, "{}", raw(int32_t{})); return;
    case TypeId::kInt64: fmt::format_to(it, "{}", raw(int64_t{})); return;
    case TypeId::kUInt8: fmt::format_to(it, "{}", raw(uint8_t{})); return;
    case TypeId::kUInt16: fmt::format_to(it, "{}", raw(uint16_t{})); return;
    case TypeId::kUInt32: fmt::format_to(it, "{}", raw(uint32_t{})); return;
    case TypeId::kUInt64: fmt::format_to(it, "{}", raw(uint64_t{})); return;
    case TypeId::kFloat16: AppendFloat(HalfToFloat(raw(uint16_t{})), out); return;
    case TypeId::kFloat32: AppendFloat(raw(float{}), out); return;
    case TypeId::kFloat64: AppendFloat(raw(double{}), out); return;
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, d.buffers[1]->data() + k * 16, 16);
      FormatDecimal(v, t.scale(), out);
      return;
    }
    case TypeId::kDate32: FormatDate(raw(int32_t{}), out); return;
    case TypeId::kTime32: FormatTimeOfDay(raw(int32_t{}), t.unit(), out); return;
    case TypeId::kTime64: FormatTimeOfDay(raw(int64_t{}), t.unit(), out); return;
    case TypeId::kTimestamp: FormatTimestamp(raw(int64_t{}), t.unit(), t.timezone() == "UTC", out); return;
    case TypeId::kString: {
      auto v = BinaryArray(a).GetView(i);
      if (quote_strings) AppendJsonQuoted(v, out);
      else *out += v;
      return;
    }
    case TypeId::kBinary: AppendHex(BinaryArray(a).GetView(i), out); return;
    case TypeId::kFixedSizeBinary: AppendHex(FixedSizeBinaryArray(a).GetView(i), out); return;
    case TypeId::kList: {
      ListArray l(a);
      Array values = l.values();
      out->push_back('[');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) *out += ", ";
        FormatValue(values, l.value_offset(i) + j, out, true);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      ListArray l(a);
      StructArray entries(l.values());
      Array keys(entries.data()->children[0]), items(entries.data()->children[1]);
      out->push_back('{');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) *out += ", ";
        int64_t e = entries.offset() + l.value_offset(i) + j;
        FormatValue(keys, e, out, true);
        *out += ": ";
        FormatValue(items, e, out, true);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kStruct: {
      StructArray s(a);
      out->push_back('{');
      for (int c = 0; c < s.num_fields(); ++c) {
        if (c) *out += ", ";
        *out += t.field(c).name;
        *out += ": ";
        FormatValue(Array(d.children[static_cast<size_t>(c)]), k, out, true);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kDenseUnion: {  // the active member's value
      DenseUnionArray u(a);
      FormatValue(u.member(u.child_index(i)), u.value_offset(i), out, quote_strings);
      return;
    }
  }
}

std::string FormatValue(const Array& array, int64_t i) {
  std::string s;
  FormatValue(array, i, &s);
  return s;
}

std::string ArrayToString(const Array& array, int64_t max_items) {
  std::string s = "[";
  int64_t n = std::min(array.length(), max_items);
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    FormatValue(array, i, &s, true);
  }
  if (n < array.length()) s += n ? ", ..." : "...";
  s += "]";
  return s;
}

std::string Array::ToString() const { return ArrayToString(*this); }

std::string FormatTable(const RecordBatch& batch, int64_t max_rows) {
  const int ncols = batch.num_columns();
  const int64_t nrows = std::min(batch.num_rows(), max_rows);
  std::vector<std::vector<std::string>> cells(static_cast<size_t>(ncols));
  std::vector<size_t> width(static_cast<size_t>(ncols));
  for (int c = 0; c < ncols; ++c) {
    auto& col = cells[static_cast<size_t>(c)];
    col.push_back(batch.schema()->field(c).name);
    for (int64_t r = 0; r < nrows; ++r) {
      std::string v;
      FormatValue(batch.column(c), r, &v);
      for (char& ch : v) {
        if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
      }
      col.push_back(std::move(v));
    }
    for (const auto& v : col) width[static_cast<size_t>(c)] = std::max(width[static_cast<size_t>(c)], v.size());
  }
  std::string out;
  for (int64_t r = 0; r <= nrows; ++r) {
    for (int c = 0; c < ncols; ++c) {
      const std::string& v = cells[static_cast<size_t>(c)][static_cast<size_t>(r)];
      out += v;
      if (c + 1 < ncols) out.append(width[static_cast<size_t>(c)] - v.size() + 2, ' ');
    }
    out += '\n';
    if (r == 0) {
      for (int c = 0; c < ncols; ++c) {
        out.append(width[static_cast<size_t>(c)], '-');
        if (c + 1 < ncols) out += "  ";
      }
      out += '\n';
    }
  }
  if (nrows < batch.num_rows()) out += fmt::format("... {} more rows\n", batch.num_rows() - nrows);
  return out;
}

}  // namespace quiver
