#include "quiver/csv/writer.h"

#include "quiver/columnar/pretty_print.h"

namespace quiver::csv {

void CsvWriter::AppendField(std::string_view v, std::string* line) const {
  bool needs = v.empty() ? false : (v.front() == ' ' || v.back() == ' ');
  for (char c : v) {
    if (c == opts_.delimiter || c == '"' || c == '\n' || c == '\r') {
      needs = true;
      break;
    }
  }
  // An empty string must differ from a null written as an empty field.
  if (v.empty() && opts_.null_string.empty()) needs = true;
  if (!needs) {
    line->append(v);
    return;
  }
  line->push_back('"');
  for (char c : v) {
    if (c == '"') line->push_back('"');
    line->push_back(c);
  }
  line->push_back('"');
}

void CsvWriter::AppendHeader(const Schema& schema, std::string* text) {
  if (!header_done_ && opts_.header) {
    for (int c = 0; c < schema.num_fields(); ++c) {
      if (c) text->push_back(opts_.delimiter);
      AppendField(schema.field(c).name, text);
    }
    text->push_back('\n');
  }
  header_done_ = true;
}

Status CsvWriter::Finish(const Schema& schema) {
  std::string text;
  AppendHeader(schema, &text);
  return text.empty() ? Status::OK() : out_->Write(text);
}

Status CsvWriter::Write(const RecordBatch& batch) {
  std::string text;
  AppendHeader(*batch.schema(), &text);
  std::string value;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c) text.push_back(opts_.delimiter);
      const Array& col = batch.column(c);
      if (col.IsNull(r) || (col.type_id() == TypeId::kDenseUnion && DenseUnionIsNullMember(col, r))) {
        text += opts_.null_string;
        continue;
      }
      value.clear();
      FormatValue(col, r, &value);
      AppendField(value, &text);
    }
    text.push_back('\n');
    if (text.size() > (1 << 20)) {
      QUIVER_RETURN_NOT_OK(out_->Write(text));
      text.clear();
    }
  }
  rows_ += batch.num_rows();
  return out_->Write(text);
}

}  // namespace quiver::csv
