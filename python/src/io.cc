// Reading and writing from Python: keyword options onto the library's option structs, CSV and
// Parquet readers as batch iterators, whole-table reads, conversion, sniffing, and the byte-range
// helpers quiver.dask builds its partitions on. C++ work runs with the GIL released; Ctrl-C is
// checked between batches.
#include <pybind11/stl.h>

#include <set>

#include "quiver/csv/generate.h"
#include "quiver/csv/options.h"
#include "quiver/parquet/encryption.h"
#include "quiver/postgres/writer.h"
#include "quiver/stream/read_ahead.h"
#include "quiver/stream/where.h"

#include "binding.h"

namespace quiver::python {
namespace {

// Keyword options, each taken once; Done() refuses any the caller gave that nobody took.
class Options {
 public:
  Options(const py::dict& d, std::string what) : what_(std::move(what)) {
    for (auto [k, v] : d) {
      if (!v.is_none()) values_[k.cast<std::string>()] = py::reinterpret_borrow<py::object>(v);
    }
  }
  template <typename T>
  bool Take(const char* name, T* out) {
    auto it = values_.find(name);
    if (it == values_.end()) return false;
    try {
      *out = it->second.cast<T>();
    } catch (const py::cast_error&) {
      RaiseInvalid(what_ + ": option " + name + "=" + py::repr(it->second).cast<std::string>() + " has the wrong type");
    }
    values_.erase(it);
    return true;
  }
  // A one-character option; None-as-"none" spelt "" or "none" means '\0'.
  bool TakeChar(const char* name, std::optional<char>* out) {
    std::string s;
    if (!Take(name, &s)) return false;
    if (s == "none" || s.empty()) {
      *out = '\0';
    } else if (s == "\\t") {
      *out = '\t';
    } else if (s.size() == 1) {
      *out = s[0];
    } else {
      RaiseInvalid(what_ + ": " + name + " must be one character, got '" + EscapeForMessage(s) + "'");
    }
    return true;
  }
  void Done() const {
    if (values_.empty()) return;
    std::string names;
    for (const auto& [k, v] : values_) names += (names.empty() ? "" : ", ") + k;
    RaiseInvalid(what_ + ": unknown option(s) " + names + " (see help(quiver." + what_ + "))");
  }
  const std::string& what() const { return what_; }

 private:
  std::string what_;
  std::map<std::string, py::object> values_;
};

std::vector<std::string> NamesOf(Options& o, const char* name) {
  py::object v;
  std::vector<std::string> out;
  if (!o.Take(name, &v)) return out;
  if (py::isinstance<py::str>(v)) {
    const std::string s = v.cast<std::string>();
    for (size_t b = 0;;) {
      const size_t e = s.find(',', b);
      out.push_back(s.substr(b, e == std::string::npos ? std::string::npos : e - b));
      if (e == std::string::npos) break;
      b = e + 1;
    }
    return out;
  }
  try {
    return v.cast<std::vector<std::string>>();
  } catch (const py::cast_error&) {
    RaiseInvalid(o.what() + ": " + name + " must be a list of strings or one comma-separated string");
  }
}

// Keys to read an encrypted Parquet file, as the CLI's --footer-key, --column-key, --aad-prefix
// and --keys-file take them: {"footer": KEY, "column.path": KEY, ..., "aad_prefix": TEXT,
// "keys_file": PATH}, a KEY as parquet::ParseKey reads it (hex:, base64:, or the raw bytes).
parquet::DecryptionOptions DecryptionFrom(const py::object& keys, const std::string& what) {
  parquet::DecryptionOptions d;
  if (keys.is_none()) return d;
  if (!py::isinstance<py::dict>(keys)) RaiseInvalid(what + ": decryption_keys must be a dict of names to keys");
  for (const auto& [k, v] : py::cast<py::dict>(keys)) {
    const std::string name = py::str(k).cast<std::string>();
    if (!py::isinstance<py::str>(v) && !py::isinstance<py::bytes>(v)) {
      RaiseInvalid(what + ": decryption_keys['" + EscapeForMessage(name) + "'] must be a str or bytes");
    }
    const std::string text = v.cast<std::string>();
    if (name == "aad_prefix") {
      d.aad_prefix = text;
    } else if (name == "keys_file") {
      Check(parquet::ReadKeysFile(text, &d.footer_key, &d.column_keys, &d.aad_prefix));
    } else if (name == "footer") {
      d.footer_key = Check(parquet::ParseKey(text, what + ": footer key"));
    } else {
      d.column_keys[name] = Check(parquet::ParseKey(text, what + ": key of column '" + EscapeForMessage(name) + "'"));
    }
  }
  return d;
}

// What convert's encryption= names, as the CLI's writing flags do: {"footer_key": KEY,
// "column_keys": {path: KEY}, "plaintext_footer": bool, "aad_prefix": TEXT,
// "store_aad_prefix": bool, "algorithm": "gcm" | "gcm-ctr"}.
parquet::EncryptionOptions EncryptionFrom(const py::dict& spec, const std::string& what) {
  Options o(spec, what + ": encryption");
  parquet::EncryptionOptions e;
  std::string text;
  if (!o.Take("footer_key", &text)) RaiseInvalid(what + ": encryption needs a footer_key");
  e.footer_key = Check(parquet::ParseKey(text, what + ": footer key"));
  std::map<std::string, std::string> columns;
  if (o.Take("column_keys", &columns)) {
    for (const auto& [path, key] : columns) {
      e.column_keys[path] = Check(parquet::ParseKey(key, what + ": key of column '" + EscapeForMessage(path) + "'"));
    }
  }
  o.Take("plaintext_footer", &e.plaintext_footer);
  std::string aad;
  if (o.Take("aad_prefix", &aad)) e.aad_prefix = aad;
  o.Take("store_aad_prefix", &e.store_aad_prefix);
  std::string algorithm = "gcm";
  o.Take("algorithm", &algorithm);
  e.algorithm = Check(parquet::EncryptionAlgorithmFromName(algorithm, what + ": encryption algorithm"));
  o.Done();  // store_aad_prefix=False without an aad_prefix: the writer refuses it

  return e;
}

// read_json's options (and sniff's for JSON): threads, infer_rows, types ("a.b=int64,ts=timestamp"
// or {path: type name}).
// `rejects`, where the caller can commit one: a rejects= path opened and wired to the reader.
std::shared_ptr<stream::RejectsFile> RejectsFrom(Options& o, bool skip) {
  std::string path;
  if (!o.Take("rejects", &path)) return nullptr;
  if (!skip) RaiseInvalid(o.what() + ": rejects needs on_error='skip'");
  return Check(stream::RejectsFile::Open(path));
}

json::JsonReadOptions JsonOptionsFrom(Options& o, std::shared_ptr<stream::RejectsFile>* rejects = nullptr) {
  json::JsonReadOptions jo;
  o.Take("threads", &jo.threads);
  o.Take("infer_rows", &jo.infer_rows);
  std::string on_error;
  if (o.Take("on_error", &on_error)) {
    if (on_error == "skip") jo.on_error = json::OnError::kSkip;
    else if (on_error != "fail") RaiseInvalid(o.what() + ": on_error must be 'fail' or 'skip' for JSON, got '" + EscapeForMessage(on_error) + "'");
  }
  if (rejects) {
    *rejects = RejectsFrom(o, jo.on_error == json::OnError::kSkip);
    if (*rejects) {
      jo.on_reject = [file = *rejects](int64_t line, std::string_view reason, std::string_view text) {
        return file->Add(line, reason, text);
      };
    }
  }
  py::object types;
  if (o.Take("types", &types)) {
    if (py::isinstance<py::dict>(types)) {
      for (auto [k, v] : types.cast<py::dict>()) {
        jo.types.emplace_back(k.cast<std::string>(), Check(csv::ParseTypeName(v.cast<std::string>())));
      }
    } else {
      jo.types = Check(csv::ParseColumnTypes(types.cast<std::string>(), nullptr, "types entry"));
    }
  }
  return jo;
}

csv::CsvOptions CsvOptionsFrom(Options& o, std::shared_ptr<stream::RejectsFile>* rejects = nullptr) {
  csv::CsvOptions c;
  std::string delimiter;
  if (o.Take("delimiter", &delimiter)) Check(csv::SetDelimiterFromName(delimiter, &c, o.what() + ": delimiter"));
  o.TakeChar("quote", &c.quote);
  o.TakeChar("escape", &c.escape);
  bool b;
  if (o.Take("header", &b)) c.header = b;
  int64_t n;
  if (o.Take("skip_rows", &n)) c.skip_lines = n;
  std::optional<char> comment;
  if (o.TakeChar("comment", &comment)) c.comment = *comment;
  o.Take("null_values", &c.null_values);
  o.Take("true_values", &c.true_values);
  o.Take("false_values", &c.false_values);
  o.Take("trim_whitespace", &c.trim_whitespace);
  std::string s;
  if (o.Take("encoding", &s)) {
    if (s == "utf8" || s == "utf-8") c.encoding = csv::Encoding::kUtf8;
    else if (s == "latin1" || s == "latin-1" || s == "iso-8859-1") c.encoding = csv::Encoding::kLatin1;
    else if (s == "utf16" || s == "utf-16") c.encoding = csv::Encoding::kUtf16;
    else RaiseInvalid(o.what() + ": encoding must be 'utf8', 'latin1' or 'utf16', got '" + EscapeForMessage(s) + "'");
  }
  o.Take("replace_invalid_utf8", &c.replace_invalid_utf8);
  if (o.Take("on_error", &s)) {
    if (s == "fail") c.on_error = csv::OnError::kFail;
    else if (s == "skip") c.on_error = csv::OnError::kSkip;
    else if (s == "null") c.on_error = csv::OnError::kNull;
    else RaiseInvalid(o.what() + ": on_error must be 'fail', 'skip' or 'null', got '" + EscapeForMessage(s) + "'");
  }
  o.Take("lenient", &c.lenient);
  o.Take("infer_types", &c.infer_types);
  o.Take("infer_rows", &c.infer_rows);
  o.Take("infer_all", &c.infer_all);
  std::map<std::string, std::string> types;
  py::object tv;
  if (o.Take("column_types", &tv)) {
    try {
      if (!py::isinstance<py::dict>(tv)) throw py::cast_error();
      for (auto [k, v] : tv.cast<py::dict>()) types[k.cast<std::string>()] = v.cast<std::string>();
    } catch (const py::cast_error&) {
      RaiseInvalid(o.what() + ": column_types must be a dict of column name to type name ('int64', 'date:%d/%m/%Y', ...)");
    }
    for (const auto& [name, spec] : types) {
      // A date or timestamp may name its format after a colon, as ParseColumnTypes reads it.
      const size_t colon = spec.find(':');
      TypePtr type = Check(csv::ParseTypeName(spec.substr(0, colon)));
      if (colon != std::string::npos) c.column_formats.emplace_back(name, spec.substr(colon + 1));
      c.column_types.emplace_back(name, std::move(type));
    }
  }
  int years;
  if (o.Take("two_digit_years_from", &years)) c.two_digit_years_from = years;
  o.Take("column_names", &c.column_names);
  o.Take("batch_rows", &c.batch_rows);
  o.Take("threads", &c.threads);
  o.Take("block_size", &c.block_size);
  if (c.batch_rows < 1) RaiseInvalid(o.what() + ": batch_rows must be at least 1");
  if (c.threads < 0) RaiseInvalid(o.what() + ": threads must be 0 (all cores) or more");
  if (rejects) {
    *rejects = RejectsFrom(o, c.on_error == csv::OnError::kSkip);
    if (*rejects) c.on_reject = [file = *rejects](const csv::RejectedRow& row) { return file->Add(row); };
  }
  return c;
}

// Writer options: the format, Parquet's settings, or a Hive-partitioned folder.
struct WriteChoice {
  stream::WriteOptions write;
  std::optional<dataset::PartitionedWriteOptions> partitioned;
  int threads = 0;
};

WriteChoice WriteOptionsFrom(Options& o, const std::string& path) {
  WriteChoice w;
  o.Take("format", &w.write.format);
  o.Take("threads", &w.threads);
  std::vector<std::string> partition_by = NamesOf(o, "partition_by");
  // The library's one choice of an output format, as `quiver convert` makes it.
  w.write.format = stream::OutputFormatOf(path, w.write.format, !partition_by.empty());
  const std::string& f = w.write.format;
  const bool arrow = stream::IsArrowIpcFormat(f);
  if (f.empty()) {
    RaiseInvalid(o.what() + ": cannot tell the output format of '" + EscapeForMessage(path) +
                 "' (use .parquet, .orc, .csv, .tsv, .jsonl, .arrow or .arrows, or format=)");
  }
  parquet::ParquetWriterOptions& p = w.write.parquet;
  std::string compression;
  if (o.Take("compression", &compression)) {
    if (f == "parquet") p.codec = Check(compress::CodecFromName(compression));
    else if (f == "orc") w.write.orc.compression = Check(orc::OrcCompressionFromName(compression));
    else if (arrow) w.write.ipc.compression = Check(ipc::BodyCompressionFromName(compression));
    else RaiseInvalid(o.what() + ": compression applies to Parquet, ORC and Arrow IPC output");
  }
  o.Take("compression_level", &p.compression_level);
  o.Take("row_group_size", &p.row_group_rows);
  o.Take("row_group_bytes", &p.row_group_bytes);
  o.Take("page_size", &p.page_size);
  o.Take("dictionary", &p.dictionary);
  o.Take("page_index", &p.page_index);
  o.Take("page_version", &p.page_version);
  o.Take("statistics_truncate", &p.statistics_truncate_length);
  std::map<std::string, std::string> encodings;
  if (o.Take("column_encodings", &encodings)) {
    for (const auto& [col, enc] : encodings) p.column_encodings.emplace_back(col, Check(parquet::EncodingFromName(enc)));
  }
  parquet::BloomFilterOptions bloom;
  o.Take("bloom_filter_fpp", &bloom.fpp);
  o.Take("bloom_filter_ndv", &bloom.ndv);
  for (const std::string& c : NamesOf(o, "bloom_filter")) p.bloom_filters.emplace_back(c, bloom);
  py::dict encryption;
  if (o.Take("encryption", &encryption)) {
    if (f != "parquet") RaiseInvalid(o.what() + ": encryption applies to Parquet output");
    p.encryption = EncryptionFrom(encryption, o.what());
  }
  if (p.row_group_rows < 1) RaiseInvalid(o.what() + ": row_group_size must be at least 1");
  if (p.page_version != 1 && p.page_version != 2) RaiseInvalid(o.what() + ": page_version must be 1 or 2");
  int64_t max_open = -1, buffer_mb = -1;
  o.Take("max_open_partitions", &max_open);
  o.Take("partition_buffer_mb", &buffer_mb);
  if (!partition_by.empty()) {
    if (f != "parquet") RaiseInvalid(o.what() + ": partition_by writes a folder of Parquet files (format='parquet')");
    dataset::PartitionedWriteOptions pw;
    pw.partition_by = std::move(partition_by);
    if (max_open != -1) {
      if (max_open < 1) RaiseInvalid(o.what() + ": max_open_partitions must be at least 1");
      pw.max_open_files = max_open;
    }
    if (buffer_mb != -1) {
      if (buffer_mb < 1) RaiseInvalid(o.what() + ": partition_buffer_mb must be at least 1");
      pw.memory_budget = buffer_mb << 20;
    }
    w.partitioned = std::move(pw);
  } else if (max_open != -1 || buffer_mb != -1) {
    RaiseInvalid(o.what() + ": max_open_partitions and partition_buffer_mb apply with partition_by only");
  }
  if (f == "tsv") w.write.csv.delimiter = '\t';
  return w;
}

void CheckSignals() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// Copies every batch into the writer; the writer is aborted on an error or Ctrl-C.
int64_t CopyAll(stream::BatchReader& reader, stream::BatchWriter& writer) {
  int64_t rows = 0;
  try {
    for (;;) {
      std::shared_ptr<RecordBatch> batch;
      Status st;
      {
        py::gil_scoped_release release;
        auto next = reader.Next();
        if (!next.ok()) {
          st = next.status();
        } else if (*next != nullptr) {
          batch = std::move(*next);
          rows += batch->num_rows();
          st = writer.Write(batch);
        } else {
          st = writer.Finish();
        }
      }
      Check(st);
      if (batch == nullptr) return rows;
      CheckSignals();
    }
  } catch (...) {
    writer.Abort();
    throw;
  }
}

py::dict StatsOf(const PyReader& r) {
  py::dict d;
  const stream::ReadStats s = r.reader->stats();
  d["rows_read"] = s.rows_read;
  d["bytes_read"] = s.bytes_read;
  if (r.csv != nullptr) {
    const csv::CsvReadStats& c = r.csv->stats();
    d["rows_rejected"] = c.rows_rejected;
    d["cells_nulled"] = c.cells_nulled;
    d["rows_repaired"] = c.rows_repaired;
    d["fields_dropped"] = c.fields_dropped;
    d["blank_lines"] = c.blank_lines;
    d["footer_lines"] = c.footer_lines;
  }
  return d;
}

PyReader OpenCsv(const py::object& source, const py::dict& kwargs) {
  Options o(kwargs, "read_csv");
  PyReader r;
  csv::CsvOptions c = CsvOptionsFrom(o, &r.rejects);
  o.Done();
  std::unique_ptr<csv::CsvReader> reader;
  if (py::isinstance<py::bytes>(source)) {
    std::string_view bytes = source.cast<std::string_view>();
    auto buffer = Check(Buffer::Allocate(static_cast<int64_t>(bytes.size())));
    std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
    reader = WithoutGil([&] { return csv::CsvReader::OpenBuffer(std::move(buffer), std::move(c), "<bytes>"); });
  } else {
    const std::string path = py::str(source).cast<std::string>();
    reader = WithoutGil([&] { return csv::CsvReader::Open(path, std::move(c)); });
  }
  auto s = std::make_unique<stream::CsvStreamReader>(std::move(reader));
  r.csv = &s->reader();
  r.reader = std::move(s);
  return r;
}

// One `column op value` predicate from Python: (column, op, value), the value as its text.
stream::ScanPredicate PredicateOf(const py::tuple& f, const Schema& schema, const std::string& path) {
  if (f.size() != 3) RaiseInvalid("filter must be (column, op, value) with op one of = == != <> < <= > >=");
  stream::WhereClause w;
  w.label = "filter";
  w.column = f[0].cast<std::string>();
  const std::string op = f[1].cast<std::string>();
  const std::optional<parquet::CompareOp> compare = stream::CompareOpFromName(op);
  if (!compare) RaiseInvalid("filter: unknown operator '" + EscapeForMessage(op) + "'; use one of = == != <> < <= > >=");
  w.op = *compare;
  py::object v = f[2];
  if (py::isinstance<py::bool_>(v)) w.literal = v.cast<bool>() ? "true" : "false";
  else if (py::hasattr(v, "isoformat")) w.literal = v.attr("isoformat")().cast<std::string>();
  else w.literal = py::str(v).cast<std::string>();
  return Check(stream::BindWhere(schema, w, path));
}

PyReader ScanParquet(const std::string& path, const std::optional<std::vector<std::string>>& columns,
                     const py::object& filter, int threads, const std::vector<int>& row_groups,
                     const py::object& decryption_keys) {
  PyReader r;
  r.pool = MakePool(threads);
  parquet::ParquetReaderOptions po;
  if (r.pool) po.thread_pool = r.pool.get();
  po.decryption = DecryptionFrom(decryption_keys, "read_parquet");
  std::shared_ptr<parquet::ParquetFileReader> file =
      WithoutGil([&] { return parquet::ParquetFileReader::Open(path, po); });
  stream::ScanOptions so;
  if (columns) so.columns = *columns;
  so.row_groups = row_groups;
  for (int g : row_groups) {
    if (g < 0 || g >= file->num_row_groups()) {
      RaiseInvalid(path + ": row group " + std::to_string(g) + " out of range (" + std::to_string(file->num_row_groups()) +
                   " row groups)");
    }
  }
  if (!filter.is_none()) {
    if (!py::isinstance<py::tuple>(filter) && !py::isinstance<py::list>(filter)) {
      RaiseInvalid("filter must be (column, op, value) with op one of = == != <> < <= > >=");
    }
    so.where = PredicateOf(py::tuple(filter), *file->schema(), path);
  }
  r.reader = WithoutGil([&] { return stream::ParquetScan::Make(std::move(file), std::move(so)); });
  return r;
}

PyReader OpenAny(const std::string& path, const py::dict& kwargs) {
  std::string format;
  if (kwargs.contains("format") && !kwargs["format"].is_none()) format = kwargs["format"].cast<std::string>();
  if (format.empty()) format = Check(stream::ResolveInputFormat(path));
  if (stream::IsJsonFormat(format)) {
    Options o(kwargs, "read_json");
    std::string ignored;
    o.Take("format", &ignored);
    stream::ReadOptions ro;
    ro.format = format;
    PyReader r;
    ro.json = JsonOptionsFrom(o, &r.rejects);
    ro.columns = NamesOf(o, "columns");
    o.Done();
    r.reader = WithoutGil([&] { return stream::OpenReader(path, std::move(ro)); });
    return r;
  }
  if (format == "csv" || format == "tsv") {
    py::dict csv_options = kwargs;
    if (csv_options.contains("format")) {
      csv_options = py::dict(kwargs);
      csv_options.attr("pop")("format");
    }
    if (format == "tsv" && !csv_options.contains("delimiter")) csv_options["delimiter"] = "\t";
    return OpenCsv(py::str(path), csv_options);
  }
  // Parquet, ORC, Arrow IPC; the library's reader refuses a format it does not know, naming those it does.
  Options o(kwargs, "convert");
  int threads = 0;
  std::string ignored;
  o.Take("format", &ignored);
  o.Take("threads", &threads);
  std::vector<std::string> columns = NamesOf(o, "columns");
  py::object keys = py::none();
  o.Take("decryption_keys", &keys);
  o.Done();
  PyReader r;
  r.pool = MakePool(threads);
  stream::ReadOptions ro;
  ro.format = format;
  ro.columns = std::move(columns);
  if (r.pool) ro.parquet.thread_pool = ro.orc.thread_pool = r.pool.get();
  ro.parquet.decryption = DecryptionFrom(keys, "convert");
  r.reader = WithoutGil([&] { return stream::OpenReader(path, std::move(ro)); });
  return r;
}

int64_t WriteTo(PyReader& r, const std::string& dst, const py::dict& kwargs) {
  Options o(kwargs, "convert");
  WriteChoice w = WriteOptionsFrom(o, dst);
  o.Done();
  std::shared_ptr<ThreadPool> pool = MakePool(w.threads);
  if (pool) w.write.parquet.thread_pool = pool.get();
  std::unique_ptr<stream::BatchWriter> writer;
  const SchemaPtr schema = r.reader->schema();
  if (w.partitioned) {
    w.partitioned->parquet = std::move(w.write.parquet);
    writer = WithoutGil([&] { return dataset::PartitionedParquetWriter::Open(dst, schema, std::move(*w.partitioned)); });
  } else {
    writer = WithoutGil([&] { return stream::OpenWriter(dst, schema, std::move(w.write)); });
  }
  // The input is read on its own thread while the writer encodes, as `quiver convert` does.
  stream::ReadAhead ahead(std::move(r.reader));
  r.done = true;
  const int64_t rows = CopyAll(ahead, *writer);
  r.CommitRejects();
  return rows;
}

// quiver.load: the reader's batches into a PostgreSQL table (postgres/load.h), all or nothing;
// Ctrl-C aborts the writer, which drops its staging table.
int64_t LoadInto(PyReader& r, const std::string& conninfo, const py::dict& kwargs) {
  Options o(kwargs, "load");
  postgres::LoadOptions lo;
  std::string mode = "create";
  o.Take("table", &lo.table);
  o.Take("mode", &mode);
  o.Take("connections", &lo.connections);
  o.Done();
  lo.mode = Check(postgres::LoadModeFromName(mode, "load: mode"));
  if (!r.reader) RaiseInvalid("the reader was handed to a writer");
  const SchemaPtr schema = r.reader->schema();
  std::unique_ptr<postgres::PostgresWriter> writer =
      WithoutGil([&] { return postgres::PostgresWriter::Open(conninfo, schema, lo); });
  stream::ReadAhead ahead(std::move(r.reader));
  r.done = true;
  const int64_t rows = CopyAll(ahead, *writer);
  r.CommitRejects();
  return rows;
}

py::dict Sniff(const std::string& path, const py::dict& kwargs) {
  // The format as every reader chooses it; JSON's shape and schema, or CSV's dialect and schema.
  const std::string format = Check(stream::ResolveInputFormat(path));
  Options o(kwargs, "sniff");
  if (stream::IsJsonFormat(format)) {
    json::JsonReadOptions jo = JsonOptionsFrom(o);
    o.Done();
    auto reader = WithoutGil([&] { return json::JsonReader::Open(path, std::move(jo)); });
    py::dict out;
    out["format"] = "json";
    out["shape"] = reader->is_array() ? "array" : "lines";
    py::list columns;
    for (const Field& f : reader->schema()->fields()) {
      py::dict col;
      col["name"] = f.name;
      col["type"] = f.type->ToString();
      columns.append(col);
    }
    out["columns"] = columns;
    return out;
  }
  if (format != "csv" && format != "tsv") {
    RaiseInvalid(path + ": a " + format + " file, whose schema quiver.schema gives (sniff detects CSV and JSON)");
  }
  csv::CsvOptions c = CsvOptionsFrom(o);
  o.Done();
  std::unique_ptr<csv::CsvReader> reader;
  {
    reader = WithoutGil([&] { return csv::CsvReader::Open(path, std::move(c)); });
  }
  const csv::Dialect& d = reader->dialect();
  auto ch = [](char c) -> py::object { return c == '\0' ? py::object(py::none()) : py::object(py::str(std::string(1, c))); };
  py::dict out;
  out["format"] = "csv";
  out["delimiter"] = csv::DelimiterText(d);  // two bytes for ", " and the like
  out["quote"] = ch(d.quote);
  out["escape"] = d.escape == d.quote ? py::object(py::none()) : ch(d.escape);
  out["doubled_quote"] = d.escape == d.quote && d.quote != '\0';
  out["header"] = d.header;
  out["header_lines"] = d.header_lines;
  out["skip_lines"] = d.skip_lines;
  out["comment"] = ch(d.comment);
  out["footer_lines"] = d.footer_lines;
  out["second_table_line"] = d.second_table_line > 0 ? py::object(py::int_(d.second_table_line)) : py::object(py::none());
  py::list columns;
  for (int i = 0; i < reader->schema()->num_fields(); ++i) {
    py::dict col;
    col["name"] = reader->schema()->field(i).name;
    col["type"] = reader->schema()->field(i).type->ToString();
    const std::string format = reader->column_format(i);
    col["format"] = format.empty() ? py::object(py::none()) : py::object(py::str(format));
    columns.append(col);
  }
  out["columns"] = columns;
  return out;
}

}  // namespace

std::shared_ptr<RecordBatch> PyReader::Next() {
  if (done) return nullptr;
  std::optional<Result<std::shared_ptr<RecordBatch>>> next;
  {
    py::gil_scoped_release release;
    next.emplace(reader->Next());
  }
  if (!next->ok()) done = true;
  std::shared_ptr<RecordBatch> batch = Check(std::move(*next));
  if (batch == nullptr) {
    done = true;
    CommitRejects();
  }
  return batch;
}

void PyReader::CommitRejects() {
  if (!rejects) return;
  std::shared_ptr<stream::RejectsFile> file = std::move(rejects);
  WithoutGil([&] { return file->Commit(); });
}

PyTable PyReader::ReadAll() {
  PyTable t;
  t.schema = reader->schema();
  while (std::shared_ptr<RecordBatch> b = Next()) {
    if (b->num_rows() > 0) t.batches.push_back(std::move(b));
    CheckSignals();
  }
  return t;
}

std::shared_ptr<ThreadPool> MakePool(int threads) {
  if (threads < 0) RaiseInvalid("threads must be 0 (all cores) or more, got " + std::to_string(threads));
  return threads == 0 ? nullptr : std::make_shared<ThreadPool>(threads);
}

void RegisterIo(py::module_& m) {
  py::class_<PyReader>(m, "BatchReader", "Record batches read one at a time from a file; iterate it.")
      .def_property_readonly("schema", [](const PyReader& r) {
        if (!r.reader) RaiseInvalid("the reader was handed to a writer");
        return PySchema{r.reader->schema()};
      })
      .def("__iter__", [](py::object self) { return self; })
      .def("__next__", [](PyReader& r) {
        if (!r.reader) throw py::stop_iteration();
        std::shared_ptr<RecordBatch> b = r.Next();
        if (b == nullptr) throw py::stop_iteration();
        return PyBatch{std::move(b)};
      })
      .def("read_next_batch", [](PyReader& r) -> std::optional<PyBatch> {
        if (!r.reader) return std::nullopt;
        std::shared_ptr<RecordBatch> b = r.Next();
        if (b == nullptr) return std::nullopt;
        return PyBatch{std::move(b)};
      }, "The next batch, or None at the end.")
      .def("read_all", [](PyReader& r) {
        if (!r.reader) RaiseInvalid("the reader was handed to a writer");
        return r.ReadAll();
      }, "Every remaining batch as a Table.")
      .def_property_readonly("stats", &StatsOf, "Rows and bytes read so far; for CSV also rows rejected, cells nulled, rows repaired.")
      .def("__arrow_c_stream__", [](PyReader& r, const py::object& requested) {
        if (!r.reader) RaiseInvalid("the reader was handed to a writer");
        CheckRequestedSchema(requested, *r.reader->schema());
        PyTable t = r.ReadAll();
        return StreamCapsule(t.schema, std::move(t.batches));
      }, py::arg("requested_schema") = py::none(), "Reads the remaining batches and hands them out as an arrow_array_stream.");

  m.def("_open_csv", &OpenCsv, py::arg("source"), py::arg("options"));
  m.def("_scan_parquet", &ScanParquet, py::arg("path"), py::arg("columns"), py::arg("filter"), py::arg("threads"),
        py::arg("row_groups") = std::vector<int>{}, py::arg("decryption_keys") = py::none());
  m.def("_scan_row_groups", [](PyReader& r) {
    auto* scan = dynamic_cast<stream::ParquetScan*>(r.reader.get());
    if (scan == nullptr) RaiseInvalid("not a Parquet scan");
    return scan->row_groups();
  }, py::arg("reader"), "The row groups a scan reads: those its filter's statistics do not rule out.");
  m.def("_open", &OpenAny, py::arg("path"), py::arg("options"));
  m.def("_load", &LoadInto, py::arg("reader"), py::arg("conninfo"), py::arg("options"));
  m.def("_write", &WriteTo, py::arg("reader"), py::arg("dst"), py::arg("options"));
  m.def("_write_table", [](const PyTable& t, const std::string& dst, const py::dict& kwargs) {
    // A table's batches as a reader, so tables and files go through the same writers.
    struct TableReader final : stream::BatchReader {
      PyTable t;
      size_t next = 0;
      const SchemaPtr& schema() const override { return t.schema; }
      Result<std::shared_ptr<RecordBatch>> Next() override {
        return next < t.batches.size() ? t.batches[next++] : std::shared_ptr<RecordBatch>();
      }
      stream::ReadStats stats() const override { return {}; }
    };
    auto reader = std::make_unique<TableReader>();
    reader->t = t;
    PyReader r;
    r.reader = std::move(reader);
    return WriteTo(r, dst, kwargs);
  }, py::arg("table"), py::arg("dst"), py::arg("options"));
  m.def("_sniff", &Sniff, py::arg("path"), py::arg("options"));
  m.def("_input_format", [](const std::string& path) { return stream::InputFormatOf(path); });

  m.def("_quote_parity", [](const std::string& path, int64_t start, int64_t end, const std::string& quote) {
    return WithoutGil([&] { return csv::QuoteParity(path, start, end, quote.empty() ? '\0' : quote[0]); });
  }, py::arg("path"), py::arg("start"), py::arg("end"), py::arg("quote"));
  m.def("_next_row_start", [](const std::string& path, int64_t pos, bool in_quotes, const std::string& quote) {
    return WithoutGil([&] { return csv::NextRowStart(path, pos, in_quotes, quote.empty() ? '\0' : quote[0]); });
  }, py::arg("path"), py::arg("pos"), py::arg("in_quotes"), py::arg("quote"));
  m.def("_open_csv_range", [](const std::string& path, int64_t begin, int64_t end, const py::dict& kwargs,
                              const PySchema& schema, const std::map<std::string, std::string>& formats) {
    Options o(kwargs, "read_csv");
    csv::CsvOptions c = CsvOptionsFrom(o);
    o.Done();
    // Every range is read with the types settled once, so that every partition has one schema.
    c.column_types.clear();
    c.column_formats.clear();
    for (const Field& f : schema.schema->fields()) c.column_types.emplace_back(f.name, f.type);
    for (const auto& [name, format] : formats) c.column_formats.emplace_back(name, format);
    std::unique_ptr<csv::CsvReader> reader = WithoutGil([&]() -> Result<std::unique_ptr<csv::CsvReader>> {
      QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<io::RandomAccessFile> file, io::OpenFile(path));
      if (begin < 0 || end < begin || end > file->size()) {
        return Status::Invalid(EscapeForMessage(path) + ": byte range [" + std::to_string(begin) + ", " +
                               std::to_string(end) + ") is outside the file's " + std::to_string(file->size()) + " bytes");
      }
      QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> bytes, file->ReadAt(begin, end - begin));
      return csv::CsvReader::OpenBuffer(std::move(bytes), std::move(c),
                                        path + " bytes " + std::to_string(begin) + "-" + std::to_string(end));
    });
    PyReader r;
    auto s = std::make_unique<stream::CsvStreamReader>(std::move(reader));
    r.csv = &s->reader();
    r.reader = std::move(s);
    return r;
  }, py::arg("path"), py::arg("begin"), py::arg("end"), py::arg("options"), py::arg("schema"), py::arg("formats"));

  m.def("_generate_lineitem", [](const std::string& path, int64_t rows, bool messy, const std::string& delimiter,
                                 bool header, uint64_t seed, bool jsonl) {
    if (rows < 0) RaiseInvalid("generate_lineitem: rows must be 0 or more, got " + std::to_string(rows));
    if (delimiter.size() != 1) RaiseInvalid("generate_lineitem: delimiter must be one character, got '" + EscapeForMessage(delimiter) + "'");
    csv::LineitemOptions o;
    o.rows = rows;
    o.messy = messy;
    o.delimiter = delimiter[0];
    o.header = header;
    o.seed = seed;
    o.jsonl = jsonl;
    WithoutGil([&]() -> Status {
      QUIVER_ASSIGN_OR_RETURN(auto out, io::OutputTarget::Open(path));
      QUIVER_RETURN_NOT_OK(csv::GenerateLineitem(o, out->stream()));
      return out->Commit();
    });
  }, py::arg("path"), py::arg("rows"), py::arg("messy"), py::arg("delimiter"), py::arg("header"), py::arg("seed"),
     py::arg("jsonl") = false);
  m.def("_generate_logs", [](const std::string& path, int64_t rows, uint64_t seed) {
    if (rows < 0) RaiseInvalid("generate_logs: rows must be 0 or more, got " + std::to_string(rows));
    WithoutGil([&]() -> Status {
      QUIVER_ASSIGN_OR_RETURN(auto out, io::OutputTarget::Open(path));
      QUIVER_RETURN_NOT_OK(json::GenerateLogs({rows, seed}, out->stream()));
      return out->Commit();
    });
  }, py::arg("path"), py::arg("rows"), py::arg("seed"));
  m.def("_set_memory_limit", [](int64_t limit) {
    MemoryTracker* t = MemoryTracker::Process();
    const int64_t before = t->limit();
    t->set_limit(limit);
    return before;
  }, py::arg("limit"), "Sets the process's memory limit in bytes (-1: none); returns the one before.");
}

}  // namespace quiver::python
