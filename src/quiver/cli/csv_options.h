// The CSV reading options shared by every command that reads CSV (cat, sniff, convert).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "quiver/stream/rejects_file.h"
#include "quiver/csv/options.h"
#include "quiver/json/options.h"
#include "quiver/csv/reader.h"
#include "quiver/stream/open.h"

namespace quiver::cli {

// A flag's comma-separated list, every item kept as written (empty ones too): --columns,
// --null-values, --names, --partition-by.
std::vector<std::string> SplitList(const std::string& s);

struct CsvCliOptions {
  std::string delimiter, quote, escape, header, comment, encoding = "utf8", on_error = "fail", rejects, types;
  std::string null_values, column_names;
  int64_t skip = -1;
  int two_digit_years_from = -1;  // -1: not given
  bool lenient = false, trim = false, replace_utf8 = false, infer_all = false, all_strings = false;
  int64_t infer_rows = csv::CsvOptions{}.infer_rows;
  int64_t block_size = csv::CsvOptions{}.block_size;
  int threads = 0;

  // Also opens the --rejects file, which the reader's reject handler fills.
  Result<csv::CsvOptions> ToOptions() const;
  // The flags that apply to JSON input (--types, --infer-rows, --threads, --on-error fail|skip,
  // --rejects) as the JSON reader's options; a CSV-only flag given is refused by name. Also opens
  // the --rejects file.
  Result<json::JsonReadOptions> ToJsonOptions() const;
  // These flags into `ro` for an input of `format` (stream::ResolveInputFormat's name): the CSV
  // reader's options for csv and tsv, the JSON reader's for json and jsonl, none for the others.
  Status ApplyTo(const std::string& format, stream::ReadOptions* ro) const;
  // After a read that succeeded: the --rejects file renamed into place (no-op without one).
  Status CommitRejects() const;

  mutable std::shared_ptr<stream::RejectsFile> rejects_file;
};

void AddCsvOptions(CLI::App* app, const std::shared_ptr<CsvCliOptions>& o);

// ", N footer lines skipped" after a read that dropped a footer (--lenient), else empty: the
// end of the repair summary cat and convert print.
std::string FooterNote(const csv::CsvReadStats& st);

}  // namespace quiver::cli
