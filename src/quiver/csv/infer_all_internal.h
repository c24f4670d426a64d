// --infer-all, the CSV reader's two-pass read: a first pass reads every column as text and
// infers each column's type from all of its values; the second pass then reads with those
// types and the same dialect, so no late value can contradict a type guessed from a sample.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/result.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/infer_internal.h"
#include "quiver/csv/options.h"

namespace quiver::csv {

// The options of the second pass, from a first pass through `open(options)` (a function
// returning a reader of the same input with the options it is given). A template, so that the
// reader's Open and OpenBuffer pass themselves without a std::function.
template <typename OpenFn>
Result<CsvOptions> InferOverWholeInput(CsvOptions options, const OpenFn& open) {
  CsvOptions first = options;
  first.infer_all = false;
  first.infer_types = false;
  first.on_error = OnError::kFail;
  first.on_reject = nullptr;
  QUIVER_ASSIGN_OR_RETURN(auto reader, open(first));
  const Dialect d = reader->dialect();
  const SchemaPtr schema = reader->schema();
  FieldSyntax syntax = FieldSyntax::From(options, d);
  TypeInferrer inferrer(schema->num_fields(), syntax);
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    for (int c = 0; c < batch->num_columns(); ++c) {
      BinaryArray col(batch->column(c));
      for (int64_t r = 0; r < batch->num_rows(); ++r) {
        // Empty values are nulls to inference, as they are in the sampled path.
        if (col.IsValid(r) && !col.GetView(r).empty()) inferrer.AddValue(c, col.GetView(r));
      }
    }
  }
  CsvOptions second = options;
  second.infer_all = false;
  second.delimiter = d.delimiter;
  second.delimiter_pad = d.delimiter_pad;
  second.quote = d.quote;
  second.escape = d.escape;
  second.header = d.header;
  second.skip_lines = d.skip_lines;
  if (d.header_lines > 1) {
    // A joined header: its lines are skipped and its names given.
    second.header = false;
    second.skip_lines = d.skip_lines + d.header_lines;
  }
  std::vector<std::pair<std::string, TypePtr>> types;
  for (int c = 0; c < schema->num_fields(); ++c) {
    const std::string& name = schema->field(c).name;
    TypePtr t = inferrer.TypeOf(c);
    const DateFormat* format = inferrer.FormatOf(c);
    for (const auto& [n, explicit_type] : options.column_types) {
      if (n == name) {
        t = explicit_type;
        format = nullptr;
      }
    }
    if (format != nullptr) second.column_formats.emplace_back(name, format->pattern());
    types.emplace_back(name, t);
  }
  second.column_types = std::move(types);
  if (!d.header || d.header_lines > 1) second.column_names = [&] {
    std::vector<std::string> names;
    for (const auto& f : schema->fields()) names.push_back(f.name);
    return names;
  }();
  return second;
}


}  // namespace quiver::csv
