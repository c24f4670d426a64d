// `quiver convert IN OUT`: CSV or Parquet in, Parquet, CSV or JSON Lines out, formats chosen by
// extension (or --from/--to); streamed batch by batch, written atomically, with a summary.
#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/cli/file_format.h"
#include "quiver/cli/output.h"
#include "quiver/cli/partition.h"
#include "quiver/cli/progress.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/writer.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::cli {
namespace {

struct ConvertArgs {
  std::string in, out, from, to;
  std::string compression = "snappy";
  int compression_level = compress::kDefaultCompressionLevel;
  int64_t row_group_size = 122880;  // as DuckDB: bounds memory; dictionaries of key-like columns still fit
  int64_t row_group_bytes = 0;
  int64_t page_size = 1 << 20;
  bool dictionary = true;
  bool page_index = true;
  int page_version = 1;
  std::vector<std::string> encodings;  // column=encoding
  int32_t statistics_truncate = 64;
  std::string partition_by;
  int64_t max_open_partitions = 0;  // 0: from the open-file limit (set only by the option)
  bool max_open_given = false;
  int64_t partition_buffer_mb = 256;
  std::vector<std::string> bloom_filters;  // columns
  double bloom_filter_fpp = 0.05;
  int64_t bloom_filter_ndv = 0;
  std::shared_ptr<CsvCliOptions> csv = std::make_shared<CsvCliOptions>();
};

// Runs the batch source on its own thread, a bounded number of batches ahead of the writer, so
// that parsing the next batches overlaps encoding the last ones (both hand their parallel work
// to the same pool, whose waiting callers help). The first error ends the stream.
class Prefetcher {
 public:
  using Source = std::function<Result<std::shared_ptr<RecordBatch>>()>;
  // `position` (may be null) is read on the source thread after each batch, for progress.
  Prefetcher(Source source, std::function<int64_t()> position, size_t max_batches)
      : source_(std::move(source)), position_(std::move(position)), max_(max_batches) {
    thread_ = std::thread([this] { Run(); });
  }
  ~Prefetcher() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  // The next batch (nullptr at the end) and the source position after it.
  Result<std::shared_ptr<RecordBatch>> Next(int64_t* position) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return !queue_.empty() || done_; });
    if (queue_.empty()) {
      if (!error_.ok()) return error_;
      return std::shared_ptr<RecordBatch>();
    }
    auto [batch, pos] = std::move(queue_.front());
    queue_.pop_front();
    *position = pos;
    cv_.notify_all();
    return batch;
  }

 private:
  void Run() {
    for (;;) {
      auto b = source_();
      const int64_t pos = b.ok() && position_ ? position_() : 0;
      std::unique_lock<std::mutex> l(mu_);
      if (!b.ok() || !*b) {
        if (!b.ok()) error_ = b.status();
        done_ = true;
        cv_.notify_all();
        return;
      }
      cv_.wait(l, [&] { return queue_.size() < max_ || stop_; });
      if (stop_) return;
      queue_.emplace_back(std::move(*b), pos);
      cv_.notify_all();
    }
  }

  Source source_;
  std::function<int64_t()> position_;
  const size_t max_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<std::shared_ptr<RecordBatch>, int64_t>> queue_;
  Status error_;
  bool done_ = false, stop_ = false;
  std::thread thread_;
};

int64_t FileSize(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

Status RunConvert(const ConvertArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  const std::string from = a.from.empty() ? (InputFormatOf(a.in) == "parquet" ? "parquet" : "csv") : a.from;
  // A partitioned output is a folder of Parquet files, whatever its name.
  const std::string to = !a.to.empty() ? a.to : !a.partition_by.empty() && FormatOf(a.out).empty() ? "parquet" : FormatOf(a.out);
  if (from != "csv" && from != "tsv" && from != "parquet") {
    return Status::Invalid(fmt::format("convert: --from must be csv or parquet, got '{}'", from));
  }
  if (to != "parquet" && to != "csv" && to != "tsv" && to != "jsonl") {
    return Status::Invalid(fmt::format(
        "convert: cannot tell the output format of '{}' (use .parquet, .csv, .tsv or .jsonl, or --to)", a.out));
  }

  // Batches come from the CSV reader or, for Parquet, one row group at a time.
  SchemaPtr schema;
  std::function<Result<std::shared_ptr<RecordBatch>>()> next;
  std::unique_ptr<csv::CsvReader> csv_reader;
  std::unique_ptr<parquet::ParquetFileReader> pq_reader;
  if (from == "parquet") {
    QUIVER_ASSIGN_OR_RETURN(pq_reader, parquet::ParquetFileReader::Open(a.in));
    schema = pq_reader->schema();
    next = [&pq_reader, g = 0]() mutable -> Result<std::shared_ptr<RecordBatch>> {
      if (g >= pq_reader->num_row_groups()) return std::shared_ptr<RecordBatch>();
      return pq_reader->ReadRowGroup(g++);
    };
  } else {
    CsvCliOptions copts = *a.csv;
    if (from == "tsv" && copts.delimiter.empty()) copts.delimiter = "\t";
    QUIVER_ASSIGN_OR_RETURN(csv::CsvOptions opts, copts.ToOptions());
    QUIVER_ASSIGN_OR_RETURN(csv_reader, csv::CsvReader::Open(a.in, opts));
    schema = csv_reader->schema();
    next = [&csv_reader] { return csv_reader->Next(); };
  }

  std::unique_ptr<CommandOutput> out;
  std::unique_ptr<PartitionedParquetWriter> parts;
  std::unique_ptr<parquet::ParquetFileWriter> pq_writer;
  std::unique_ptr<csv::CsvWriter> csv_writer;
  std::unique_ptr<jsonl::JsonlWriter> json_writer;
  if (!a.partition_by.empty() && (to != "parquet" || a.out == "-")) {
    return Status::Invalid("convert: --partition-by writes a folder of Parquet files (not stdout, CSV or JSON Lines)");
  }
  if (to == "parquet") {
    parquet::ParquetWriterOptions wo;
    QUIVER_ASSIGN_OR_RETURN(wo.codec, compress::CodecFromName(a.compression));
    wo.compression_level = a.compression_level;
    wo.row_group_rows = a.row_group_size;
    wo.row_group_bytes = a.row_group_bytes;
    wo.page_size = a.page_size;
    wo.dictionary = a.dictionary;
    wo.page_index = a.page_index;
    wo.page_version = a.page_version;
    for (const std::string& e : a.encodings) {
      const size_t eq = e.rfind('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::Invalid(fmt::format("--column-encoding takes column=encoding, got '{}'", e));
      }
      QUIVER_ASSIGN_OR_RETURN(parquet::Encoding enc, parquet::EncodingFromName(e.substr(eq + 1)));
      wo.column_encodings.emplace_back(e.substr(0, eq), enc);
    }
    wo.statistics_truncate_length = a.statistics_truncate;
    for (const std::string& c : a.bloom_filters) {
      wo.bloom_filters.emplace_back(c, parquet::BloomFilterOptions{a.bloom_filter_fpp, a.bloom_filter_ndv});
    }
    if (!a.partition_by.empty()) {
      std::vector<std::string> cols;
      for (size_t b = 0;;) {
        const size_t e = a.partition_by.find(',', b);
        cols.push_back(a.partition_by.substr(b, e == std::string::npos ? std::string::npos : e - b));
        if (e == std::string::npos) break;
        b = e + 1;
      }
      if (a.max_open_given && a.max_open_partitions < 1) {
        return Status::Invalid(fmt::format("--max-open-partitions must be at least 1, got {}", a.max_open_partitions));
      }
      QUIVER_ASSIGN_OR_RETURN(parts, PartitionedParquetWriter::Open(a.out, schema, cols, wo, a.max_open_partitions,
                                                                   a.partition_buffer_mb << 20));
    } else {
      QUIVER_ASSIGN_OR_RETURN(out, CommandOutput::Open(a.out));
      QUIVER_ASSIGN_OR_RETURN(pq_writer, parquet::ParquetFileWriter::Open(out->stream(), schema, wo));
    }
  } else if (to == "jsonl") {
    QUIVER_ASSIGN_OR_RETURN(out, CommandOutput::Open(a.out));
    json_writer = std::make_unique<jsonl::JsonlWriter>(out->stream());
  } else {
    QUIVER_ASSIGN_OR_RETURN(out, CommandOutput::Open(a.out));
    csv::CsvWriteOptions wo;
    if (to == "tsv") wo.delimiter = '\t';
    csv_writer = std::make_unique<csv::CsvWriter>(out->stream(), wo);
  }

  const int64_t in_size = FileSize(a.in);
  Progress progress("convert", csv_reader ? csv_reader->input_size() : in_size);
  int64_t rows = 0;
  // About one CSV block (16 MiB at 2 threads) of batches ahead, or two Parquet row groups.
  std::function<int64_t()> position;
  if (csv_reader) position = [&csv_reader] { return csv_reader->input_position(); };
  Prefetcher prefetch(next, position, csv_reader ? 16 : 2);
  for (;;) {
    int64_t pos = 0;
    auto batch = prefetch.Next(&pos);
    if (!batch.ok()) return csv_reader ? batch.status() : batch.status().WithContext(a.in);
    if (!*batch) break;
    rows += (*batch)->num_rows();
    if (parts) QUIVER_RETURN_NOT_OK(parts->Write(*batch));
    else if (pq_writer) QUIVER_RETURN_NOT_OK(pq_writer->Write(*batch));
    else if (json_writer) QUIVER_RETURN_NOT_OK(json_writer->Write(**batch));
    else QUIVER_RETURN_NOT_OK(csv_writer->Write(**batch));
    progress.Update(pos, rows);
  }
  if (csv_writer) QUIVER_RETURN_NOT_OK(csv_writer->Finish(*schema));
  int64_t out_size = 0;
  if (parts) {
    QUIVER_RETURN_NOT_OK(parts->Commit());
    out_size = parts->bytes_written();
  } else {
    if (pq_writer) QUIVER_RETURN_NOT_OK(pq_writer->Close());
    out_size = out->stream()->Tell();
    QUIVER_RETURN_NOT_OK(out->Commit());
  }
  progress.Finish();

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t bytes_in = in_size >= 0 ? in_size : (csv_reader ? csv_reader->stats().bytes_read : 0);
  const int64_t rejected = csv_reader ? csv_reader->stats().rows_rejected : 0;
  fmt::print(stderr, "quiver: {} -> {}: {} rows, {} rejected, {:.1f} MB in, {:.1f} MB out, {:.2f} s, {:.1f} MB/s\n", a.in,
             a.out, rows, rejected, bytes_in / 1e6, out_size / 1e6, seconds,
             seconds > 0 ? bytes_in / 1e6 / seconds : 0.0);
  if (csv_reader) {
    const auto& st = csv_reader->stats();
    if (st.cells_nulled || st.rows_repaired || st.blank_lines) {
      fmt::print(stderr, "quiver: {}: {} cells nulled, {} rows repaired ({} extra fields dropped), {} blank lines skipped\n",
                 a.in, st.cells_nulled, st.rows_repaired, st.fields_dropped, st.blank_lines);
    }
  }
  return Status::OK();
}

const bool registered = RegisterCommand({"convert", "Convert CSV or Parquet to Parquet, CSV or JSON Lines", 15,
                                         [](CLI::App* app) {
  auto a = std::make_shared<ConvertArgs>();
  app->add_option("input", a->in, "Input file ('-' for stdin)")->required();
  app->add_option("output", a->out, "Output file, written atomically ('-' for stdout)")->required();
  app->add_option("--from", a->from, "Input format: csv|tsv|parquet (default: by extension)");
  app->add_option("--to", a->to, "Output format: parquet|csv|tsv|jsonl (default: by extension)");
  app->add_option("--compression", a->compression, "Parquet codec: snappy|zstd|lz4_raw|gzip|brotli|none")
      ->capture_default_str();
  app->add_option("--compression-level", a->compression_level, "Codec level (zstd 1..22, gzip 0..12, brotli 0..11)");
  app->add_option("--row-group-size", a->row_group_size, "Rows per Parquet row group")->capture_default_str();
  app->add_option("--row-group-bytes", a->row_group_bytes,
                  "Also end a Parquet row group once its rows hold about this many bytes in memory (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--page-size", a->page_size, "Target bytes of values per Parquet data page")->capture_default_str();
  app->add_option("--partition-by", a->partition_by,
                  "Write a Hive-style folder: col=value/part-00000.parquet per value of these comma-separated "
                  "columns, which leave the files");
  app->add_option("--max-open-partitions", a->max_open_partitions,
                  "With --partition-by: files open at once (default: the open-file limit less 64); past it the least "
                  "recently written is finished and its partition continues in part-00001.parquet, ...")
      ->each([a](const std::string&) { a->max_open_given = true; });
  app->add_option("--partition-buffer-mb", a->partition_buffer_mb,
                  "With --partition-by: MiB of rows all partitions may hold for their next row groups; past it the "
                  "partitions holding the most write theirs early (smaller row groups)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  app->add_flag("--dictionary,!--no-dictionary", a->dictionary, "Dictionary-encode Parquet columns (default on)");
  app->add_flag("--page-index,!--no-page-index", a->page_index,
                "Write the Parquet page index (ColumnIndex, OffsetIndex) (default on)");
  app->add_option("--column-encoding", a->encodings,
                  "Parquet value encoding per column instead of the dictionary, column=encoding[,...]: plain, "
                  "delta_binary_packed (integers), delta_length_byte_array (strings), delta_byte_array (strings), "
                  "byte_stream_split (floats)")
      ->delimiter(',');
  app->add_option("--page-version", a->page_version, "Parquet data page version: 1 or 2")
      ->capture_default_str()
      ->check(CLI::IsMember({1, 2}));
  app->add_option("--statistics-truncate", a->statistics_truncate,
                  "Truncate string/binary min/max statistics to this many bytes (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--bloom-filter", a->bloom_filters,
                  "Write a split-block bloom filter per row group for these comma-separated columns (dotted "
                  "paths for nested leaves)")
      ->delimiter(',');
  app->add_option("--bloom-filter-fpp", a->bloom_filter_fpp,
                  "False-positive probability each bloom filter is sized for")
      ->capture_default_str();
  app->add_option("--bloom-filter-ndv", a->bloom_filter_ndv,
                  "Distinct values each bloom filter is sized for (0: the chunk's dictionary size, or its value "
                  "count when it has no dictionary)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  AddCsvOptions(app, a->csv);
  return std::function<Status()>([a] { return RunConvert(*a); });
}});

}  // namespace
}  // namespace quiver::cli
