#include "quiver/jsonl/writer.h"

#include <fmt/format.h>

#include <cmath>

#include "quiver/columnar/pretty_print.h"

namespace quiver::jsonl {

void AppendJsonString(std::string_view s, std::string* out) { AppendJsonQuoted(s, out); }

void AppendJsonValue(const Array& a, int64_t i, std::string* out) {
  if (a.IsNull(i)) {
    *out += "null";
    return;
  }
  const DataType& t = *a.type();
  switch (t.id()) {
    case TypeId::kBool:
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      FormatValue(a, i, out);
      return;
    case TypeId::kFloat16: case TypeId::kFloat32: case TypeId::kFloat64: {
      std::string v;
      FormatValue(a, i, &v);
      // JSON has no NaN or infinity: those become strings.
      if (v == "NaN" || v == "inf" || v == "-inf") AppendJsonString(v, out);
      else *out += v;
      return;
    }
    case TypeId::kList: {
      ListArray l(a);
      Array values = l.values();
      out->push_back('[');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) out->push_back(',');
        AppendJsonValue(values, l.value_offset(i) + j, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kStruct: {
      out->push_back('{');
      for (int c = 0; c < t.num_fields(); ++c) {
        if (c) out->push_back(',');
        AppendJsonString(t.field(c).name, out);
        out->push_back(':');
        AppendJsonValue(Array(a.data()->children[static_cast<size_t>(c)]), a.offset() + i, out);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kMap: {
      ListArray l(a);
      StructArray entries(l.values());
      Array keys(entries.data()->children[0]), items(entries.data()->children[1]);
      out->push_back('[');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) out->push_back(',');
        int64_t e = entries.offset() + l.value_offset(i) + j;
        *out += "{\"key\":";
        AppendJsonValue(keys, e, out);
        *out += ",\"value\":";
        AppendJsonValue(items, e, out);
        out->push_back('}');
      }
      out->push_back(']');
      return;
    }
    case TypeId::kDenseUnion: {  // the active member's value
      DenseUnionArray u(a);
      AppendJsonValue(u.member(u.child_index(i)), u.value_offset(i), out);
      return;
    }
    default: {
      std::string v;
      FormatValue(a, i, &v);
      AppendJsonString(v, out);
      return;
    }
  }
}

Status JsonlWriter::Write(const RecordBatch& batch) {
  std::string text;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    text.push_back('{');
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c) text.push_back(',');
      AppendJsonString(batch.schema()->field(c).name, &text);
      text.push_back(':');
      AppendJsonValue(batch.column(c), r, &text);
    }
    text += "}\n";
    if (text.size() > (1 << 20)) {
      QUIVER_RETURN_NOT_OK(out_->Write(text));
      text.clear();
    }
  }
  return out_->Write(text);
}

}  // namespace quiver::jsonl
