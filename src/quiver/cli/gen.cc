// `quiver gen lineitem|logs`: writes a deterministic lineitem-shaped CSV (or JSON Lines) sample, or
// log-shaped nested JSON Lines.
#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/progress.h"
#include "quiver/csv/generate.h"
#include "quiver/io/output_target.h"
#include "quiver/json/generate.h"

namespace quiver::cli {
namespace {

struct GenArgs {
  std::string what;
  std::string output = "-";
  int64_t rows = 1000;
  std::string delimiter = ",";
  bool messy = false;
  bool no_header = false;
  uint64_t seed = 42;
  std::string format;  // csv for lineitem, jsonl for logs
};

Status RunGen(const GenArgs& a) {
  if (a.what != "lineitem" && a.what != "logs") {
    return Status::Invalid(fmt::format("gen: unknown dataset '{}' (known: lineitem, logs)", a.what));
  }
  const std::string format = !a.format.empty() ? a.format : a.what == "logs" ? "jsonl" : "csv";
  if (format != "csv" && format != "jsonl") {
    return Status::Invalid(fmt::format("gen: --format must be csv or jsonl, got '{}'", a.format));
  }
  if (a.what == "logs" && format != "jsonl") return Status::Invalid("gen: logs are JSON Lines only (--format jsonl)");
  if (a.delimiter.size() != 1) return Status::Invalid(fmt::format("gen: --delimiter must be one byte, got '{}'", a.delimiter));
  if (a.rows < 0) return Status::Invalid(fmt::format("gen: --rows must be >= 0, got {}", a.rows));
  csv::LineitemOptions o;
  o.rows = a.rows;
  o.delimiter = a.delimiter[0];
  o.messy = a.messy;
  o.header = !a.no_header;
  o.seed = a.seed;
  o.jsonl = format == "jsonl";
  QUIVER_ASSIGN_OR_RETURN(auto out, io::OutputTarget::Open(a.output));
  auto start = std::chrono::steady_clock::now();
  Progress progress("gen " + a.output, 0);
  auto on_progress = [&](int64_t bytes, int64_t rows) { progress.Update(bytes, rows); };
  if (a.what == "logs") {
    QUIVER_RETURN_NOT_OK(json::GenerateLogs({a.rows, a.seed}, out->stream(), on_progress));
  } else {
    QUIVER_RETURN_NOT_OK(csv::GenerateLineitem(o, out->stream(), on_progress));
  }
  int64_t bytes = out->stream()->Tell();
  QUIVER_RETURN_NOT_OK(out->Commit());
  progress.Finish();
  if (a.output != "-") {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    fmt::print(stderr, "wrote {}: {} rows, {} bytes in {:.2f} s ({:.0f} MB/s)\n", a.output, a.rows, bytes, secs,
               secs > 0 ? bytes / secs / 1e6 : 0.0);
  }
  return Status::OK();
}

const bool registered = RegisterCommand({"gen", "Generate a sample dataset (lineitem-shaped CSV or JSON Lines, nested JSON logs)", 90, [](CLI::App* app) {
  auto a = std::make_shared<GenArgs>();
  app->add_option("dataset", a->what, "Dataset to generate: lineitem, logs (nested JSON Lines)")->required();
  app->add_option("--format", a->format, "csv or jsonl (default: csv for lineitem, jsonl for logs)");
  app->add_option("-o,--output", a->output, "Output file ('-' for stdout)");
  app->add_option("-n,--rows", a->rows, "Number of rows")->capture_default_str();
  app->add_option("-d,--delimiter", a->delimiter, "Field delimiter (one byte)")->capture_default_str();
  app->add_flag("--messy", a->messy, "Quote some comments and put quotes, delimiters and newlines inside");
  app->add_flag("--no-header", a->no_header, "Omit the header row");
  app->add_option("--seed", a->seed, "Random seed")->capture_default_str();
  return std::function<Status()>([a] { return RunGen(*a); });
}});

}  // namespace
}  // namespace quiver::cli
