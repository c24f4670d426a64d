#include "quiver/cli/csv_options.h"

#include <fmt/format.h>

#include "quiver/cli/messages.h"
#include "quiver/stream/file_format.h"

namespace quiver::cli {

namespace {
// One byte, with \t and "none" spelled out.
Result<char> OneChar(const std::string& s, const char* what) {
  if (s == "\\t" || s == "tab") return '\t';
  if (s == "none" || s == "") return '\0';
  if (s.size() != 1) return Status::Invalid(fmt::format("--{} must be one byte, got '{}'", what, s));
  return s[0];
}
}  // namespace

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i <= s.size()) {
    size_t j = s.find(',', i);
    if (j == std::string::npos) j = s.size();
    out.push_back(s.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

void AddCsvOptions(CLI::App* app, const std::shared_ptr<CsvCliOptions>& o) {
  auto* g = app;
  g->add_option("--delimiter", o->delimiter,
                "Field delimiter: one byte (or \\t, space), or two: ', ' '; ' '\\t ' '||'; sniffed when absent");
  g->add_option("--quote", o->quote, "Quote character, or 'none'; sniffed when absent");
  g->add_option("--escape", o->escape, "Escape inside quotes: the quote itself (doubled, RFC 4180) or '\\'");
  g->add_option("--header", o->header, "true|false; detected when absent");
  g->add_option("--skip", o->skip, "Physical lines to skip before the header");
  g->add_option("--comment", o->comment, "Skip lines starting with this character");
  g->add_option("--null", o->null_values, "Comma-separated null tokens (default: the empty field)");
  g->add_flag("--trim", o->trim, "Trim spaces and tabs around unquoted values");
  g->add_option("--encoding", o->encoding, "utf8|latin1|utf-16 (UTF-16 is also recognised by its BOM)");
  g->add_flag("--replace-invalid-utf8", o->replace_utf8, "Replace invalid UTF-8 by U+FFFD instead of failing");
  g->add_option("--on-error", o->on_error, "fail|skip|null: what a bad value, or a row of the wrong field count, does (null: the cell null; the row kept, padded with nulls or cut to the columns)");
  g->add_option("--rejects", o->rejects, "With --on-error skip: write rejected lines, line numbers and reasons here");
  g->add_flag("--lenient", o->lenient, "Repair messy files: pad short rows, drop extra fields (unless --on-error skip drops the row), literal stray quotes, skip preambles, join a header spread over lines");
  g->add_option("--types", o->types,
                "Column types, e.g. 'id=int64,price=decimal(12,2),ts=timestamptz,d=date:%d/%m/%Y' "
                "(formats: %Y %y %m %d %H %M %S)");
  g->add_option("--two-digit-years-from", o->two_digit_years_from,
                "Read two-digit years (%y) as the 100 years from this one (1930: 30..99 -> 1930..1999); "
                "without it %y is refused and never inferred");
  g->add_option("--names", o->column_names, "Comma-separated column names (for files without a header)");
  g->add_option("--infer-rows", o->infer_rows, "Rows sampled for type inference")->capture_default_str();
  g->add_flag("--infer-all", o->infer_all, "Infer types from the whole file (reads it twice)");
  g->add_flag("--all-strings", o->all_strings, "Read every column as a string (no type inference)");
  g->add_option("--threads", o->threads, "Worker threads (default: all cores)");
  g->add_option("--block-size", o->block_size, "Bytes of CSV read and split per round and thread")->capture_default_str();
}

Result<csv::CsvOptions> CsvCliOptions::ToOptions() const {
  csv::CsvOptions o;
  if (!delimiter.empty()) QUIVER_RETURN_NOT_OK(csv::SetDelimiterFromName(delimiter, &o, "--delimiter"));
  if (!quote.empty()) {
    QUIVER_ASSIGN_OR_RETURN(char q, OneChar(quote, "quote"));
    o.quote = q;
  }
  if (!escape.empty()) {
    QUIVER_ASSIGN_OR_RETURN(char e, OneChar(escape, "escape"));
    o.escape = e;
  }
  if (!header.empty()) {
    if (header == "true" || header == "yes" || header == "1") o.header = true;
    else if (header == "false" || header == "no" || header == "0") o.header = false;
    else return Status::Invalid(fmt::format("--header must be true or false, got '{}'", header));
  }
  if (skip >= 0) o.skip_lines = skip;
  if (!comment.empty()) {
    QUIVER_ASSIGN_OR_RETURN(o.comment, OneChar(comment, "comment"));
  }
  if (!null_values.empty()) o.null_values = SplitList(null_values);
  o.trim_whitespace = trim;
  if (encoding == "utf8" || encoding == "utf-8") o.encoding = csv::Encoding::kUtf8;
  else if (encoding == "latin1" || encoding == "latin-1" || encoding == "iso-8859-1") o.encoding = csv::Encoding::kLatin1;
  else if (encoding == "utf-16" || encoding == "utf16") o.encoding = csv::Encoding::kUtf16;
  else return Status::Invalid(fmt::format("--encoding must be utf8, latin1 or utf-16, got '{}'", encoding));
  o.replace_invalid_utf8 = replace_utf8;
  if (on_error == "fail") o.on_error = csv::OnError::kFail;
  else if (on_error == "skip") o.on_error = csv::OnError::kSkip;
  else if (on_error == "null") o.on_error = csv::OnError::kNull;
  else return Status::Invalid(fmt::format("--on-error must be fail, skip or null, got '{}'", on_error));
  if (!rejects.empty()) {
    if (o.on_error != csv::OnError::kSkip) return Status::Invalid("--rejects needs --on-error skip");
    QUIVER_ASSIGN_OR_RETURN(rejects_file, stream::RejectsFile::Open(rejects));
    o.on_reject = [file = rejects_file](const csv::RejectedRow& row) { return file->Add(row); };
  }
  o.on_failure = [](const csv::Problem& p) { NoteCsvFailure(p); };
  o.lenient = lenient;
  if (!types.empty()) {
    QUIVER_ASSIGN_OR_RETURN(o.column_types, csv::ParseColumnTypes(types, &o.column_formats, "--types entry"));
  }
  if (two_digit_years_from >= 0) o.two_digit_years_from = two_digit_years_from;
  if (!column_names.empty()) o.column_names = SplitList(column_names);
  o.infer_rows = infer_rows;
  o.infer_all = infer_all;
  o.infer_types = !all_strings;
  o.threads = threads;
  o.block_size = block_size;
  return o;
}

Result<json::JsonReadOptions> CsvCliOptions::ToJsonOptions() const {
  const std::pair<bool, const char*> csv_only[] = {
      {!delimiter.empty(), "--delimiter"}, {!quote.empty(), "--quote"},   {!escape.empty(), "--escape"},
      {!header.empty(), "--header"},       {!comment.empty(), "--comment"}, {skip >= 0, "--skip"},
      {lenient, "--lenient"},              {trim, "--trim"},              {!null_values.empty(), "--null"},
      {!column_names.empty(), "--names"}, {infer_all, "--infer-all"}, {all_strings, "--all-strings"},
      {on_error == "null", "--on-error null"}, {encoding != "utf8", "--encoding"},
      {two_digit_years_from >= 0, "--two-digit-years-from"}, {replace_utf8, "--replace-invalid-utf8"},
      {block_size != csv::CsvOptions{}.block_size, "--block-size"},
  };
  for (const auto& [given, flag] : csv_only) {
    if (given) return Status::Invalid(fmt::format("{} applies to CSV input, not JSON", flag));
  }
  json::JsonReadOptions o;
  if (!types.empty()) {
    QUIVER_ASSIGN_OR_RETURN(o.types, csv::ParseColumnTypes(types, nullptr, "--types entry"));
  }
  if (infer_rows < 1) return Status::Invalid(fmt::format("--infer-rows must be at least 1, got {}", infer_rows));
  o.infer_rows = infer_rows;
  o.threads = threads;
  if (on_error == "skip") o.on_error = json::OnError::kSkip;
  else if (on_error != "fail") return Status::Invalid(fmt::format("--on-error must be fail or skip for JSON input, got '{}'", on_error));
  if (!rejects.empty()) {
    if (o.on_error != json::OnError::kSkip) return Status::Invalid("--rejects needs --on-error skip");
    QUIVER_ASSIGN_OR_RETURN(rejects_file, stream::RejectsFile::Open(rejects));
    o.on_reject = [file = rejects_file](int64_t line, std::string_view reason, std::string_view text) {
      return file->Add(line, reason, text);
    };
  }
  return o;
}

Status CsvCliOptions::ApplyTo(const std::string& format, stream::ReadOptions* ro) const {
  if (format == "csv" || format == "tsv") {
    QUIVER_ASSIGN_OR_RETURN(ro->csv, ToOptions());
  } else if (stream::IsJsonFormat(format)) {
    QUIVER_ASSIGN_OR_RETURN(ro->json, ToJsonOptions());
  }
  return Status::OK();
}

Status CsvCliOptions::CommitRejects() const {
  if (!rejects_file) return Status::OK();
  Status st = rejects_file->Commit();
  rejects_file.reset();
  return st;
}

std::string FooterNote(const csv::CsvReadStats& st) {
  std::string note = st.footer_lines > 0 ? fmt::format(", {} footer lines skipped", st.footer_lines) : std::string();
  if (st.second_table_line > 0) note += fmt::format(" (a second table from line {} not read)", st.second_table_line);
  return note;
}

}  // namespace quiver::cli
