// `quiver convert IN OUT`: CSV, JSON, Parquet, ORC or Arrow IPC in, Parquet, ORC, CSV, JSON Lines or Arrow IPC out, formats chosen by
// extension (or --from/--to); streamed batch by batch, written atomically, with a summary.
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/cli/encryption_options.h"
#include "quiver/cli/progress.h"
#include "quiver/dataset/partitioned_writer.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/copy.h"
#include "quiver/ipc/writer.h"
#include "quiver/orc/writer/file_writer.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/open.h"
#include "quiver/stream/read_ahead.h"

namespace quiver::cli {
namespace {

std::string LowerCodecName(compress::Codec codec) {
  std::string name(compress::CodecName(codec));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name;
}

// The flags bind to the library's option structs, so their defaults are the library's.
struct ConvertArgs {
  std::string in, out, from, to;
  parquet::ParquetWriterOptions parquet;
  std::string compression = LowerCodecName(parquet.codec);
  std::vector<std::string> encodings;  // column=encoding
  std::vector<std::string> bloom_filters;  // columns
  parquet::BloomFilterOptions bloom;
  std::string partition_by;
  dataset::PartitionedWriteOptions partitioned;  // max_open_files, memory_budget
  bool max_open_given = false;
  bool compression_given = false;  // Arrow IPC bodies are uncompressed unless asked
  int64_t partition_buffer_mb = partitioned.memory_budget >> 20;
  orc::OrcWriterOptions orc;
  int64_t stripe_mb = orc.stripe_bytes >> 20;
  std::shared_ptr<CsvCliOptions> csv = std::make_shared<CsvCliOptions>();
  std::shared_ptr<EncryptionCliOptions> crypt = std::make_shared<EncryptionCliOptions>();
};

int64_t FileSize(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

Status RunConvert(const ConvertArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  // The reader refuses a format it does not know (--from), naming those it does.
  QUIVER_ASSIGN_OR_RETURN(const std::string from, stream::ResolveInputFormat(a.in, a.from));
  // A partitioned output is a folder of Parquet files, whatever its name.
  const std::string to = stream::OutputFormatOf(a.out, a.to, !a.partition_by.empty());
  if (to.empty()) {
    return Status::Invalid(fmt::format(
        "convert: cannot tell the output format of '{}' (use .parquet, .orc, .csv, .tsv, .jsonl, .arrow or .arrows, or --to)",
        a.out));
  }
  const bool to_arrow = stream::IsArrowIpcFormat(to);

  stream::ReadOptions ro;
  ro.format = from;
  CsvCliOptions copts = *a.csv;
  QUIVER_RETURN_NOT_OK(copts.ApplyTo(from, &ro));
  // The same key flags decrypt a Parquet input and encrypt a Parquet output.
  EncryptionCliOptions write_keys = *a.crypt;
  {
    auto keys = a.crypt->ToDecryption();  // also wipes the key texts of a.crypt
    if (!keys.ok()) return keys.status();
    if (from == "parquet") ro.parquet.decryption = std::move(*keys);
  }
  QUIVER_ASSIGN_OR_RETURN(std::unique_ptr<stream::BatchReader> reader, stream::OpenReader(a.in, std::move(ro)));
  const SchemaPtr schema = reader->schema();
  const csv::CsvReader* csv_reader = stream::CsvReaderOf(*reader);  // also under a --columns projection

  if (!a.partition_by.empty() && (to != "parquet" || a.out == "-")) {
    return Status::Invalid("convert: --partition-by writes a folder of Parquet files (not stdout, CSV or JSON Lines)");
  }
  stream::WriteOptions wo;
  wo.format = to;
  std::unique_ptr<stream::BatchWriter> writer;
  if (to_arrow && a.compression_given) {
    QUIVER_ASSIGN_OR_RETURN(wo.ipc.compression, ipc::BodyCompressionFromName(a.compression));
  }
  if (to == "orc") {
    orc::OrcWriterOptions& oo = wo.orc;
    oo = a.orc;
    if (a.compression_given) {
      QUIVER_ASSIGN_OR_RETURN(oo.compression, orc::OrcCompressionFromName(a.compression));
    }
    oo.compression_level = a.parquet.compression_level;
    oo.stripe_bytes = a.stripe_mb << 20;
    if (!a.parquet.dictionary) oo.dictionary_key_ratio = 0;
    oo.bloom_filter_columns = a.bloom_filters;
    oo.bloom_filter_fpp = a.bloom.fpp;
  }
  if (to == "parquet") {
    parquet::ParquetWriterOptions& po = wo.parquet;
    po = a.parquet;
    QUIVER_ASSIGN_OR_RETURN(po.codec, compress::CodecFromName(a.compression));
    QUIVER_ASSIGN_OR_RETURN(po.encryption, write_keys.ToEncryption());
    for (const std::string& e : a.encodings) {
      const size_t eq = e.rfind('=');
      if (eq == std::string::npos || eq == 0) {
        return Status::Invalid(fmt::format("--column-encoding takes column=encoding, got '{}'", e));
      }
      QUIVER_ASSIGN_OR_RETURN(parquet::Encoding enc, parquet::EncodingFromName(e.substr(eq + 1)));
      po.column_encodings.emplace_back(e.substr(0, eq), enc);
    }
    for (const std::string& c : a.bloom_filters) {
      po.bloom_filters.emplace_back(c, a.bloom);
    }
    if (!a.partition_by.empty()) {
      dataset::PartitionedWriteOptions pw = a.partitioned;
      pw.partition_by = SplitList(a.partition_by);
      if (a.max_open_given && pw.max_open_files < 1) {
        return Status::Invalid(fmt::format("--max-open-partitions must be at least 1, got {}", pw.max_open_files));
      }
      for (const std::string& c : a.bloom_filters) {
        if (std::find(pw.partition_by.begin(), pw.partition_by.end(), c) != pw.partition_by.end()) {
          return Status::Invalid(
              fmt::format("--bloom-filter: '{}' is a partition column, whose value is in the folder name", c));
        }
      }
      pw.parquet = std::move(po);
      pw.memory_budget = a.partition_buffer_mb << 20;
      QUIVER_ASSIGN_OR_RETURN(writer, dataset::PartitionedParquetWriter::Open(a.out, schema, std::move(pw)));
    }
  }
  if (!writer) {
    QUIVER_ASSIGN_OR_RETURN(writer, stream::OpenWriter(a.out, schema, std::move(wo)));
  }

  const int64_t in_size = FileSize(a.in);
  Progress progress("convert", csv_reader ? reader->stats().input_size : in_size);
  // The input is read on its own thread while the writer encodes.
  stream::ReadAhead read_ahead(std::move(reader));
  stream::CopyOptions co;
  co.progress = [&progress](const stream::ReadStats& s) { progress.Update(s.input_position, s.rows_read); };
  QUIVER_ASSIGN_OR_RETURN(const int64_t rows, stream::Copy(read_ahead, *writer, co));
  QUIVER_RETURN_NOT_OK(copts.CommitRejects());
  const int64_t out_size = writer->bytes_written();
  progress.Finish();

  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t bytes_in = in_size >= 0 ? in_size : read_ahead.stats().bytes_read;
  const int64_t rejected = read_ahead.stats().rows_rejected;
  fmt::print(stderr, "quiver: {} -> {}: {} rows, {} rejected, {:.1f} MB in, {:.1f} MB out, {:.2f} s, {:.1f} MB/s\n", a.in,
             a.out, rows, rejected, bytes_in / 1e6, out_size / 1e6, seconds,
             seconds > 0 ? bytes_in / 1e6 / seconds : 0.0);
  if (csv_reader) {
    const auto& st = csv_reader->stats();
    if (st.cells_nulled || st.rows_repaired || st.blank_lines || st.footer_lines) {
      fmt::print(stderr, "quiver: {}: {} cells nulled, {} rows repaired ({} extra fields dropped), {} blank lines skipped{}\n",
                 a.in, st.cells_nulled, st.rows_repaired, st.fields_dropped, st.blank_lines, FooterNote(st));
    }
  }
  return Status::OK();
}

const bool registered = RegisterCommand({"convert", "Convert CSV, Parquet, ORC or Arrow IPC to Parquet, ORC, CSV, JSON Lines or Arrow IPC", 15,
                                         [](CLI::App* app) {
  auto a = std::make_shared<ConvertArgs>();
  app->add_option("input", a->in, "Input file ('-' for stdin)")->required();
  app->add_option("output", a->out, "Output file, written atomically ('-' for stdout)")->required();
  app->add_option("--from", a->from, "Input format: csv|tsv|parquet|orc|arrow (default: by extension, else by content)");
  app->add_option("--to", a->to,
                  "Output format: parquet|orc|csv|tsv|jsonl|arrow (Arrow IPC file, also .feather)|arrows (Arrow IPC "
                  "stream) (default: by extension)");
  app->add_option("--compression", a->compression,
                  "Parquet codec: snappy|zstd|lz4_raw|gzip|brotli|none; ORC: snappy|zstd|zlib|lz4|none; "
                  "Arrow IPC: none (default)|lz4|zstd")
      ->capture_default_str()
      ->each([a](const std::string&) { a->compression_given = true; });
  app->add_option("--compression-level", a->parquet.compression_level, "Codec level (zstd 1..22, gzip 0..12, brotli 0..11)");
  app->add_option("--row-group-size", a->parquet.row_group_rows, "Rows per Parquet row group")->capture_default_str();
  app->add_option("--row-group-bytes", a->parquet.row_group_bytes,
                  "Also end a Parquet row group once its rows hold about this many bytes in memory (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--stripe-size-mb", a->stripe_mb,
                  "ORC: end a stripe once its rows hold about this many MiB in memory")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  app->add_option("--row-index-stride", a->orc.row_index_stride,
                  "ORC: rows per row-index entry, each with its statistics (0: no row index)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--dictionary-key-ratio", a->orc.dictionary_key_ratio,
                  "ORC: a string column keeps its stripe dictionary while distinct values are at most this share "
                  "of its values")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  app->add_option("--page-size", a->parquet.page_size, "Target bytes of values per Parquet data page")->capture_default_str();
  app->add_option("--partition-by", a->partition_by,
                  "Write a Hive-style folder: col=value/part-00000.parquet per value of these comma-separated "
                  "columns, which leave the files");
  app->add_option("--max-open-partitions", a->partitioned.max_open_files,
                  "With --partition-by: files open at once (default: the open-file limit less 64); past it the least "
                  "recently written is finished and its partition continues in part-00001.parquet, ...")
      ->each([a](const std::string&) { a->max_open_given = true; });
  app->add_option("--partition-buffer-mb", a->partition_buffer_mb,
                  "With --partition-by: MiB of rows all partitions may hold for their next row groups; past it the "
                  "partitions holding the most write theirs early (smaller row groups)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 20));
  app->add_flag("--dictionary,!--no-dictionary", a->parquet.dictionary, "Dictionary-encode Parquet columns (default on)");
  app->add_flag("--page-index,!--no-page-index", a->parquet.page_index,
                "Write the Parquet page index (ColumnIndex, OffsetIndex) (default on)");
  app->add_option("--column-encoding", a->encodings,
                  "Parquet value encoding per column instead of the dictionary, column=encoding[,...]: plain, "
                  "delta_binary_packed (integers), delta_length_byte_array (strings), delta_byte_array (strings), "
                  "byte_stream_split (floats)")
      ->delimiter(',');
  app->add_option("--page-version", a->parquet.page_version, "Parquet data page version: 1 or 2")
      ->capture_default_str()
      ->check(CLI::IsMember({1, 2}));
  app->add_option("--statistics-truncate", a->parquet.statistics_truncate_length,
                  "Truncate string/binary min/max statistics to this many bytes (0: never)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_option("--bloom-filter", a->bloom_filters,
                  "Write a split-block bloom filter per row group for these comma-separated columns (dotted "
                  "paths for nested leaves)")
      ->delimiter(',');
  app->add_option("--bloom-filter-fpp", a->bloom.fpp,
                  "False-positive probability each bloom filter is sized for")
      ->capture_default_str();
  app->add_option("--bloom-filter-ndv", a->bloom.ndv,
                  "Distinct values each bloom filter is sized for (0: the chunk's dictionary size, or its value "
                  "count when it has no dictionary)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  AddCsvOptions(app, a->csv);
  AddEncryptionOptions(app, a->crypt, true);
  return std::function<Status()>([a] { return RunConvert(*a); });
}});

}  // namespace
}  // namespace quiver::cli
