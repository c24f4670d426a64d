#include "quiver/orc/writer/file_writer.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include <fmt/format.h>

#include "quiver/orc/metadata.h"
#include "quiver/orc/writer/column_writer_internal.h"
#include "quiver/orc/writer/metadata_encode_internal.h"

namespace quiver::orc {

using writer::ColumnWriter;
using writer::OutStream;
using writer::StatsAccumulator;
using writer::StripeParts;

Result<uint32_t> OrcCompressionFromName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "none" || n == "uncompressed") return uint32_t{format::kNone};
  if (n == "zlib") return uint32_t{format::kZlib};
  if (n == "snappy") return uint32_t{format::kSnappy};
  if (n == "lz4") return uint32_t{format::kLz4};
  if (n == "zstd") return uint32_t{format::kZstd};
  return Status::Invalid(fmt::format("unknown ORC compression '{}' (zlib, snappy, lz4, zstd or none)", name));
}

struct OrcFileWriter::Impl {
  io::OutputStream* out = nullptr;
  SchemaPtr schema;
  OrcWriterOptions options;
  writer::ColumnContext ctx;
  std::vector<std::unique_ptr<ColumnWriter>> columns;  // top-level fields; column 0 is the root
  Footer footer;
  Metadata metadata;
  StatsAccumulator root_file{StatsAccumulator::kPlain};

  std::vector<std::shared_ptr<RecordBatch>> pending;
  int64_t pending_rows = 0, pending_bytes = 0;

  // The stripe whose columns encode on the pool.
  std::unique_ptr<TaskGroup> tasks;
  std::vector<std::shared_ptr<RecordBatch>> in_flight;
  int64_t in_flight_rows = 0;
  std::vector<StripeParts> parts;  // per top-level column

  ~Impl() {
    if (tasks) (void)tasks->Wait();
  }

  Status EncodeColumn(size_t c) {
    ColumnWriter& w = *columns[c];
    w.StartStripe();
    const int64_t stride = options.row_index_stride;
    int64_t in_group = 0, done = 0;
    w.BeginRowGroup();
    for (const auto& batch : in_flight) {
      const ArrayData& a = *batch->column(static_cast<int>(c)).data();
      int64_t off = 0;
      const int64_t n = batch->num_rows();
      while (off < n) {
        const int64_t take = stride > 0 ? std::min(n - off, stride - in_group) : n - off;
        w.Add(a, off, take);
        off += take;
        done += take;
        in_group += take;
        if (stride > 0 && in_group == stride && done < in_flight_rows) {
          w.EndRowGroup();
          w.BeginRowGroup();
          in_group = 0;
        }
      }
    }
    w.EndRowGroup();
    parts[c] = StripeParts{};
    return w.FinishStripe(&parts[c]);  // its errors name the column
  }

  Status Launch() {
    in_flight = std::move(pending);
    pending.clear();
    in_flight_rows = pending_rows;
    pending_rows = 0;
    pending_bytes = 0;
    parts.assign(columns.size(), StripeParts{});
    tasks = std::make_unique<TaskGroup>(options.thread_pool);
    for (size_t c = 0; c < columns.size(); ++c) tasks->Submit([this, c] { return EncodeColumn(c); });
    return Status::OK();
  }

  Status Compressed(const std::string& raw, std::string* out) {
    OutStream s(ctx.compression, ctx.compression_level, ctx.block_size, ctx.pool);
    s.Write(raw.data(), static_cast<int64_t>(raw.size()));
    QUIVER_RETURN_NOT_OK(s.Flush());
    out->assign(reinterpret_cast<const char*>(s.data()), static_cast<size_t>(s.size()));
    return Status::OK();
  }

  // Waits for the stripe in flight and writes it: index streams, data streams, stripe footer.
  Status Land() {
    if (!tasks) return Status::OK();
    Status st = tasks->Wait();
    tasks.reset();
    QUIVER_RETURN_NOT_OK(st);
    const int64_t rows = in_flight_rows;
    in_flight.clear();
    in_flight_rows = 0;

    StripeInformation info;
    info.offset = static_cast<uint64_t>(out->Tell());
    info.number_of_rows = static_cast<uint64_t>(rows);
    StripeFooter sf;
    sf.writer_timezone = "UTC";
    // The root struct: its row index has no positions, only each group's row count.
    StatsAccumulator root(StatsAccumulator::kPlain);
    root.AddCount(rows);
    if (ctx.row_index) {
      RowIndex index;
      const int64_t stride = options.row_index_stride;
      for (int64_t r = 0; r < rows; r += stride) {
        StatsAccumulator g(StatsAccumulator::kPlain);
        g.AddCount(std::min(stride, rows - r));
        index.entry.push_back(RowIndexEntry{{}, g.ToStatistics()});
      }
      std::string raw, bytes;
      writer::EncodeRowIndex(index, &raw);
      QUIVER_RETURN_NOT_OK(Compressed(raw, &bytes));
      QUIVER_RETURN_NOT_OK(out->Write(bytes));
      sf.streams.push_back(Stream{format::stream_kind::kRowIndex, 0, bytes.size()});
      info.index_length += bytes.size();
    }
    for (const StripeParts& p : parts) {
      for (const auto& [stream, bytes] : p.index) {
        QUIVER_RETURN_NOT_OK(out->Write(bytes));
        sf.streams.push_back(stream);
        info.index_length += bytes.size();
      }
    }
    for (const StripeParts& p : parts) {
      for (const StripeParts::Data& d : p.data) {
        QUIVER_RETURN_NOT_OK(out->Write(d.bytes->data(), d.bytes->size()));
        sf.streams.push_back(d.stream);
        info.data_length += d.stream.length;
      }
    }
    StripeStatistics stats;
    sf.columns.push_back(ColumnEncoding{format::encoding_kind::kDirect, 0, 0});
    stats.col_stats.push_back(root.ToStatistics());
    for (StripeParts& p : parts) {
      sf.columns.insert(sf.columns.end(), p.encodings.begin(), p.encodings.end());
      for (auto& s : p.statistics) stats.col_stats.push_back(std::move(s));
    }
    std::string raw, bytes;
    writer::EncodeStripeFooter(sf, &raw);
    QUIVER_RETURN_NOT_OK(Compressed(raw, &bytes));
    QUIVER_RETURN_NOT_OK(out->Write(bytes));
    info.footer_length = bytes.size();
    footer.stripes.push_back(info);
    metadata.stripe_stats.push_back(std::move(stats));
    root_file.Merge(root);
    parts.clear();
    return Status::OK();
  }
};

OrcFileWriter::OrcFileWriter(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OrcFileWriter::~OrcFileWriter() = default;

int OrcFileWriter::num_stripes() const {
  return static_cast<int>(impl_->footer.stripes.size()) + (impl_->tasks ? 1 : 0);
}

Result<std::unique_ptr<OrcFileWriter>> OrcFileWriter::Open(io::OutputStream* out, SchemaPtr schema,
                                                           OrcWriterOptions options) {
  if (options.compression != format::kNone && options.compression != format::kZlib &&
      options.compression != format::kSnappy && options.compression != format::kLz4 &&
      options.compression != format::kZstd) {
    return Status::Invalid(fmt::format("ORC compression kind {} is not written (zlib, snappy, lz4, zstd or none)",
                                       options.compression));
  }
  if (options.compression_block_size < 1024 || options.compression_block_size > format::kMaxChunkLength) {
    return Status::Invalid(fmt::format("ORC compression block size must be within 1 KiB and 8 MiB - 1, got {}",
                                       options.compression_block_size));
  }
  if (options.row_index_stride < 0 || options.stripe_bytes < 0) {
    return Status::Invalid("ORC row index stride and stripe size must not be negative");
  }
  auto impl = std::make_unique<Impl>();
  impl->out = out;
  impl->schema = schema;
  impl->options = std::move(options);
  const OrcWriterOptions& o = impl->options;
  impl->ctx.compression = o.compression;
  impl->ctx.compression_level = o.compression_level;
  impl->ctx.block_size = o.compression_block_size;
  impl->ctx.pool = o.memory_pool;
  impl->ctx.row_index = o.row_index_stride > 0;
  impl->ctx.row_index_stride = o.row_index_stride > 0 ? o.row_index_stride : 10000;
  if (!o.bloom_filter_columns.empty() && !(o.bloom_filter_fpp > 0 && o.bloom_filter_fpp < 1)) {
    return Status::Invalid(fmt::format("ORC bloom filter false-positive probability must be within (0, 1), got {}",
                                       o.bloom_filter_fpp));
  }
  impl->ctx.dictionary_key_ratio = o.dictionary_key_ratio;
  impl->ctx.bloom_fpp = o.bloom_filter_fpp;

  Type root;
  root.kind = format::type_kind::kStruct;
  impl->footer.types.push_back(root);
  uint32_t next_id = 1;
  for (const Field& f : schema->fields()) {
    impl->footer.types[0].field_names.push_back(f.name);
    impl->footer.types[0].subtypes.push_back(static_cast<uint32_t>(impl->footer.types.size()));
    QUIVER_RETURN_NOT_OK(ColumnWriter::AppendTypes(f.name, f.type, &impl->footer.types));
    QUIVER_ASSIGN_OR_RETURN(auto w, ColumnWriter::Make(impl->ctx, f.name, f.type, &next_id, o.bloom_filter_columns));
    impl->columns.push_back(std::move(w));
  }
  // Bloom filter columns name columns the schema has (dotted paths for nested fields).
  for (const std::string& name : o.bloom_filter_columns) {
    std::vector<std::string> names;
    std::function<void(const std::string&, const TypePtr&)> walk = [&](const std::string& n, const TypePtr& t) {
      names.push_back(n);
      const TypePtr& children = t->id() == TypeId::kMap ? t->field(0).type : t;  // a map's key and value
      for (const Field& f : children->fields()) walk(n + "." + f.name, f.type);
    };
    bool found = false;
    for (const Field& f : schema->fields()) {
      names.clear();
      walk(f.name, f.type);
      found = found || std::find(names.begin(), names.end(), name) != names.end();
    }
    if (!found) return Status::Invalid(fmt::format("bloom filter for column '{}': the schema has no such column", name));
  }
  QUIVER_RETURN_NOT_OK(out->Write(std::string_view(format::kMagic, 3)));
  return std::unique_ptr<OrcFileWriter>(new OrcFileWriter(std::move(impl)));
}

Status OrcFileWriter::Write(const std::shared_ptr<RecordBatch>& batch) {
  Impl& m = *impl_;
  if (batch->num_columns() != static_cast<int>(m.columns.size())) {
    return Status::Invalid(fmt::format("ORC writer: a batch of {} columns for a schema of {}", batch->num_columns(),
                                       m.columns.size()));
  }
  for (int c = 0; c < batch->num_columns(); ++c) {
    if (!batch->column(c).type()->Equals(*m.schema->field(c).type)) {
      return Status::Invalid(fmt::format("ORC writer: column '{}' is {} in a batch, {} in the schema", m.schema->field(c).name,
                                         batch->column(c).type()->ToString(), m.schema->field(c).type->ToString()));
    }
  }
  // A stripe ends at the end of a row group (every row_index_stride rows of the stripe) once its
  // rows hold stripe_bytes of values, counted from the values themselves: the same rows make the
  // same stripes, and so the same file, however a reader and its threads batched them.
  const int64_t step = m.options.row_index_stride > 0 ? m.options.row_index_stride : 10000;
  for (int64_t off = 0; off < batch->num_rows();) {
    const int64_t take = std::min(batch->num_rows() - off, step - m.pending_rows % step);
    std::shared_ptr<RecordBatch> piece = take == batch->num_rows() ? batch : batch->Slice(off, take);
    m.pending_bytes += piece->value_bytes();
    m.pending.push_back(std::move(piece));
    m.pending_rows += take;
    rows_ += take;
    off += take;
    if (m.options.stripe_bytes > 0 && m.pending_rows % step == 0 && m.pending_bytes >= m.options.stripe_bytes) {
      QUIVER_RETURN_NOT_OK(FlushStripe());
    }
  }
  return Status::OK();
}

Status OrcFileWriter::FlushStripe() {
  Impl& m = *impl_;
  if (m.pending_rows == 0) return Status::OK();
  QUIVER_RETURN_NOT_OK(m.Land());
  return m.Launch();
}

Status OrcFileWriter::Close() {
  Impl& m = *impl_;
  QUIVER_RETURN_NOT_OK(FlushStripe());
  QUIVER_RETURN_NOT_OK(m.Land());
  const uint64_t content_end = static_cast<uint64_t>(m.out->Tell());

  std::string raw, metadata, footer;
  writer::EncodeMetadata(m.metadata, &raw);
  QUIVER_RETURN_NOT_OK(m.Compressed(raw, &metadata));
  QUIVER_RETURN_NOT_OK(m.out->Write(metadata));

  Footer& f = m.footer;
  f.header_length = 3;
  f.content_length = content_end - 3;
  f.number_of_rows = static_cast<uint64_t>(rows_);
  f.row_index_stride = static_cast<uint32_t>(m.options.row_index_stride);
  f.calendar = format::kProlepticGregorian;  // quiver's dates and timestamps count days that way
  f.writer = format::kUnknownWriter;  // not registered (format.h)
  f.software_version = "quiver";
  f.statistics.push_back(m.root_file.ToStatistics());
  for (const auto& c : m.columns) c->FileStatistics(&f.statistics);
  raw.clear();
  writer::EncodeFooter(f, &raw);
  QUIVER_RETURN_NOT_OK(m.Compressed(raw, &footer));
  QUIVER_RETURN_NOT_OK(m.out->Write(footer));

  PostScript ps;
  ps.footer_length = footer.size();
  ps.compression = m.options.compression;
  if (m.options.compression != format::kNone) ps.compression_block_size = static_cast<uint64_t>(m.options.compression_block_size);
  ps.version = {0, 12};
  ps.metadata_length = metadata.size();
  ps.writer_version = 6;  // ORC-135: timestamp statistics in UTC
  ps.magic = "ORC";
  raw.clear();
  writer::EncodePostScript(ps, &raw);
  if (raw.size() > 255) return Status::Invalid("ORC writer: the PostScript passed 255 bytes");
  QUIVER_RETURN_NOT_OK(m.out->Write(raw));
  const uint8_t len = static_cast<uint8_t>(raw.size());
  QUIVER_RETURN_NOT_OK(m.out->Write(&len, 1));
  return m.out->Flush();
}

}  // namespace quiver::orc
