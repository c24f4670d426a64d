// A Parquet file's footer as text or JSON: summary, key-value metadata, every row group and
// column chunk (encodings, codec, sizes, page offsets, statistics printed as values of the
// column's logical type); only the chosen row groups and columns are decoded. And the bloom
// filter probe: each row group's bloom filter of one column asked about one value.
#include <fmt/format.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/core/utf8.h"
#include "quiver/describe/describe_internal.h"
#include "quiver/io/file.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"
#include "quiver/stream/scan_literal.h"

namespace quiver::describe {

std::string Printable(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  std::string h = "0x";
  for (unsigned char c : s) h += fmt::format("{:02x}", c);
  return h;
}

std::string JsonNumberOrString(const std::string& formatted) {
  bool number = !formatted.empty();
  for (size_t i = 0; i < formatted.size(); ++i) {
    char c = formatted[i];
    number = number && (std::isdigit(static_cast<unsigned char>(c)) || (i == 0 && c == '-' && formatted.size() > 1));
  }
  return number ? formatted : JsonQuoted(formatted);
}

namespace {

using namespace quiver::parquet;

template <typename T, typename F>
std::string Join(const List<T>& l, F f) {
  std::string s;
  for (uint32_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + f(l[i]);
  return s;
}

std::string EncName(Encoding e) {
  const char* n = EncodingName(e);
  return n ? n : fmt::format("encoding({})", static_cast<int32_t>(e));
}

// (label, value) pairs of a column chunk's statistics, values formatted for the column's type.
std::vector<std::pair<std::string, std::string>> StatsFields(const ColumnDescriptor& col, const Statistics& s) {
  std::vector<std::pair<std::string, std::string>> f;
  if (s.min_value) f.emplace_back("min", FormatStatisticsValue(col, *s.min_value));
  if (s.max_value) f.emplace_back("max", FormatStatisticsValue(col, *s.max_value));
  // Legacy min/max use signed order; shown only when the new fields are absent.
  if (!s.min_value && s.min) f.emplace_back("min_legacy", FormatStatisticsValue(col, *s.min));
  if (!s.max_value && s.max) f.emplace_back("max_legacy", FormatStatisticsValue(col, *s.max));
  if (s.null_count) f.emplace_back("null_count", std::to_string(*s.null_count));
  if (s.distinct_count) f.emplace_back("distinct_count", std::to_string(*s.distinct_count));
  if (s.nan_count) f.emplace_back("nan_count", std::to_string(*s.nan_count));
  if (s.is_min_value_exact) f.emplace_back("is_min_value_exact", *s.is_min_value_exact ? "true" : "false");
  if (s.is_max_value_exact) f.emplace_back("is_max_value_exact", *s.is_max_value_exact ? "true" : "false");
  return f;
}

void AppendChunkText(const ColumnDescriptor& col, int32_t index, const ColumnChunk& cc, std::string* out) {
  *out += fmt::format("  column {} {}:", index, col.dotted_path());
  if (!cc.meta_data) {
    *out += cc.encrypted_column_metadata ? " (column metadata encrypted)\n" : " (no column metadata)\n";
    return;
  }
  const ColumnMetaData& m = *cc.meta_data;
  const char* t = TypeName(m.type);
  const char* codec = CodecName(m.codec);
  *out += fmt::format(" {} {}, encodings [{}], values {}, compressed {} B, uncompressed {} B\n", t ? t : "?",
                      codec ? codec : "?", Join(m.encodings, EncName), m.num_values, m.total_compressed_size,
                      m.total_uncompressed_size);
  std::string offsets = fmt::format("    data_page_offset {}", m.data_page_offset);
  if (m.dictionary_page_offset) offsets += fmt::format(", dictionary_page_offset {}", *m.dictionary_page_offset);
  if (m.index_page_offset) offsets += fmt::format(", index_page_offset {}", *m.index_page_offset);
  if (cc.column_index_offset) offsets += fmt::format(", column_index {}+{}", *cc.column_index_offset, cc.column_index_length.value_or(0));
  if (cc.offset_index_offset) offsets += fmt::format(", offset_index {}+{}", *cc.offset_index_offset, cc.offset_index_length.value_or(0));
  if (m.bloom_filter_offset) offsets += fmt::format(", bloom_filter {}+{}", *m.bloom_filter_offset, m.bloom_filter_length.value_or(0));
  *out += offsets + "\n";
  if (m.statistics) {
    std::string s;
    for (const auto& [k, v] : StatsFields(col, *m.statistics)) s += (s.empty() ? "" : ", ") + k + " " + v;
    *out += "    statistics: " + (s.empty() ? std::string("(empty)") : s) + "\n";
  }
  if (m.encoding_stats) {
    *out += "    pages: " + Join(*m.encoding_stats, [](const PageEncodingStats& p) {
      const char* pt = PageTypeName(p.page_type);
      return fmt::format("{} {} x{}", pt ? pt : "?", EncName(p.encoding), p.count);
    }) + "\n";
  }
}

void AppendChunkJson(const ColumnDescriptor& col, int32_t index, const ColumnChunk& cc, std::string* out) {
  *out += fmt::format("{{\"column\":{},\"path\":{}", index, JsonQuoted(col.dotted_path()));
  if (cc.file_path) *out += ",\"file_path\":" + JsonQuoted(Printable(*cc.file_path));
  if (cc.meta_data) {
    const ColumnMetaData& m = *cc.meta_data;
    const char* t = TypeName(m.type);
    const char* codec = CodecName(m.codec);
    *out += ",\"physical_type\":" + JsonQuoted(t ? t : "?") + ",\"codec\":" + JsonQuoted(codec ? codec : "?");
    *out += ",\"encodings\":[" + Join(m.encodings, [](Encoding e) { return JsonQuoted(EncName(e)); }) + "]";
    *out += fmt::format(",\"num_values\":{},\"total_compressed_size\":{},\"total_uncompressed_size\":{},\"data_page_offset\":{}",
                        m.num_values, m.total_compressed_size, m.total_uncompressed_size, m.data_page_offset);
    if (m.dictionary_page_offset) *out += fmt::format(",\"dictionary_page_offset\":{}", *m.dictionary_page_offset);
    if (m.index_page_offset) *out += fmt::format(",\"index_page_offset\":{}", *m.index_page_offset);
    if (m.bloom_filter_offset) *out += fmt::format(",\"bloom_filter_offset\":{}", *m.bloom_filter_offset);
    if (m.bloom_filter_length) *out += fmt::format(",\"bloom_filter_length\":{}", *m.bloom_filter_length);
    if (m.statistics) {
      *out += ",\"statistics\":{";
      bool first = true;
      for (const auto& [k, v] : StatsFields(col, *m.statistics)) {
        *out += (first ? "" : ",") + JsonQuoted(k) + ":" +
                (k.find("count") != std::string::npos || k.find("exact") != std::string::npos ? v : JsonNumberOrString(v));
        first = false;
      }
      *out += "}";
    }
    if (m.encoding_stats) {
      *out += ",\"page_encoding_stats\":[" + Join(*m.encoding_stats, [](const PageEncodingStats& p) {
        const char* pt = PageTypeName(p.page_type);
        return fmt::format("{{\"page_type\":{},\"encoding\":{},\"count\":{}}}", JsonQuoted(pt ? pt : "?"),
                           JsonQuoted(EncName(p.encoding)), p.count);
      }) + "]";
    }
  } else if (cc.encrypted_column_metadata) {
    *out += ",\"encrypted_column_metadata\":true";
  }
  if (cc.column_index_offset) *out += fmt::format(",\"column_index_offset\":{}", *cc.column_index_offset);
  if (cc.column_index_length) *out += fmt::format(",\"column_index_length\":{}", *cc.column_index_length);
  if (cc.offset_index_offset) *out += fmt::format(",\"offset_index_offset\":{}", *cc.offset_index_offset);
  if (cc.offset_index_length) *out += fmt::format(",\"offset_index_length\":{}", *cc.offset_index_length);
  *out += "}";
}

// Each row group's bloom filter of the probe's column asked whether it may hold the value.
Result<std::string> BloomFilters(io::RandomAccessFile& file, const std::string& probe, const DescribeOptions& a) {
  const size_t eq = probe.find('=');
  if (eq == std::string::npos || eq == 0) {
    return Status::Invalid(fmt::format("bloom filter probe takes column=value, got '{}'", EscapeForMessage(probe)));
  }
  const std::string column = probe.substr(0, eq), value = probe.substr(eq + 1);
  DecodeOptions schema_only;
  schema_only.row_groups.emplace();
  QUIVER_ASSIGN_OR_RETURN(auto first, ReadFooter(file, schema_only, &a.decryption));
  QUIVER_ASSIGN_OR_RETURN(auto tree, SchemaTree::Make(first->metadata().schema));
  const int c = tree.FindColumn(column);
  if (c < 0) return Status::Invalid(fmt::format("bloom filter probe: no column '{}'", EscapeForMessage(column)));
  const ColumnDescriptor& col = tree.columns()[static_cast<size_t>(c)];
  QUIVER_ASSIGN_OR_RETURN(std::string bytes, stream::BloomProbeBytes(tree, c, value));
  DecodeOptions options;
  options.columns = std::vector<int32_t>{c};
  options.statistics = false;
  if (a.row_group >= 0) options.row_groups = std::vector<int32_t>{a.row_group};
  QUIVER_ASSIGN_OR_RETURN(auto footer, ReadFooter(file, options, &a.decryption));
  const FileMetaData& md = footer->metadata();
  std::string out = a.json ? "{\"column\":" + JsonQuoted(col.dotted_path()) + ",\"value\":" + JsonQuoted(value) + ",\"row_groups\":["
                           : std::string();
  for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
    const int32_t index = footer->row_group_indices()[r];
    const RowGroup& rg = md.row_groups[r];
    if (rg.columns.size() != 1 || !rg.columns[0].meta_data) {
      return Status::Corrupt(fmt::format("row group {} has no metadata for column '{}'", index, col.dotted_path()));
    }
    if (rg.columns[0].crypto_metadata) {
      // Its filter is two encrypted modules; the file reader decrypts them (cat --where).
      return Status::NotImplemented(fmt::format("column '{}' is encrypted: probing its bloom filters is not supported",
                                                col.dotted_path()));
    }
    auto filter = ReadBloomFilter(file, *rg.columns[0].meta_data);
    if (!filter.ok()) return filter.status().WithContext(fmt::format("row group {}, column '{}'", index, col.dotted_path()));
    const bool has = filter->has_value();
    const bool maybe = !has || (*filter)->MightContain(bytes);
    if (a.json) {
      out += fmt::format("{}{{\"index\":{},\"bloom_filter\":{},\"excluded\":{}}}", r ? "," : "", index, has, !maybe);
    } else {
      out += fmt::format("row group {}: {} = {}: {}\n", index, col.dotted_path(), value,
                         !has ? "no bloom filter" : maybe ? "maybe present" : "absent");
    }
  }
  if (a.json) out += "]}\n";
  return out;
}

}  // namespace

Result<std::string> ParquetBloomFilters(const std::string& path, const std::string& probe, const DescribeOptions& options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path));
  auto out = BloomFilters(*file, probe, options);
  if (!out.ok()) return out.status().WithContext(path);
  return out;
}

Result<std::string> ParquetMetadata(const std::string& path, const DescribeOptions& a) {
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path));
  DecodeOptions options;
  std::shared_ptr<const ParquetFooter> footer;
  if (a.row_group >= 0 || !a.columns.empty()) {
    // Schema first (no row groups built), then only the chosen row groups and columns.
    DecodeOptions schema_only;
    schema_only.row_groups.emplace();
    auto first = ReadFooter(*file, schema_only, &a.decryption);
    if (!first.ok()) return first.status().WithContext(path);
    auto tree = SchemaTree::Make((*first)->metadata().schema);
    if (!tree.ok()) return tree.status().WithContext(path);
    if (a.row_group >= 0) options.row_groups = std::vector<int32_t>{a.row_group};
    if (!a.columns.empty()) {
      auto leaves = tree->ResolveColumns(a.columns);
      if (!leaves.ok()) return leaves.status().WithContext(path);
      options.columns = *leaves;
    }
  }
  auto decoded = ReadFooter(*file, options, &a.decryption);
  if (!decoded.ok()) return decoded.status().WithContext(path);
  footer = *decoded;
  const FileMetaData& md = footer->metadata();
  auto tree = SchemaTree::Make(md.schema);
  if (!tree.ok()) return tree.status().WithContext(path);
  const auto& rg_index = footer->row_group_indices();
  const auto& col_index = footer->column_indices();
  for (const RowGroup& rg : md.row_groups) {
    if (rg.columns.size() > col_index.size() ||
        (!a.columns.empty() ? false : rg.columns.size() != static_cast<uint32_t>(tree->num_columns()))) {
      return Status::Corrupt(fmt::format("a row group has {} column chunks but the schema has {} leaf columns",
                                         rg.columns.size(), tree->num_columns()))
          .WithContext(path);
    }
  }
  std::string out;
  if (!a.json) {
    out += fmt::format("file: {}\n", path);
    out += fmt::format("file size: {} bytes, footer: {} bytes\n", file->size(), footer->footer_length());
    out += fmt::format("format version: {}\n", md.version);
    if (md.created_by) out += fmt::format("created by: {}\n", Printable(*md.created_by));
    out += fmt::format("rows: {}\nrow groups: {}\nleaf columns: {}\n", md.num_rows,
                       a.row_group >= 0 ? std::string("(selected) ") + std::to_string(md.row_groups.size())
                                        : std::to_string(md.row_groups.size()),
                       tree->num_columns());
    if (md.encryption_algorithm) {
      out += fmt::format("encryption: {} (plaintext footer)\n", EncryptionAlgorithmName(*md.encryption_algorithm));
    }
    if (md.key_value_metadata && !md.key_value_metadata->empty()) {
      out += "key-value metadata:\n";
      for (const KeyValue& kv : *md.key_value_metadata) {
        std::string v = kv.value ? Printable(*kv.value) : std::string("(null)");
        if (v.size() > 200) v = v.substr(0, 200) + fmt::format("... ({} bytes)", v.size());
        out += fmt::format("  {} = {}\n", Printable(kv.key), v);
      }
    }
    for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
      const RowGroup& rg = md.row_groups[r];
      out += fmt::format("row group {}: {} rows, total_byte_size {}", rg_index[r], rg.num_rows, rg.total_byte_size);
      if (rg.total_compressed_size) out += fmt::format(", compressed {}", *rg.total_compressed_size);
      if (rg.file_offset) out += fmt::format(", file_offset {}", *rg.file_offset);
      if (rg.sorting_columns && !rg.sorting_columns->empty()) {
        out += ", sorted by " + Join(*rg.sorting_columns, [](const SortingColumn& s) {
          return fmt::format("{}{}{}", s.column_idx, s.descending ? " desc" : "", s.nulls_first ? " nulls first" : "");
        });
      }
      out += "\n";
      for (uint32_t c = 0; c < rg.columns.size(); ++c) {
        int32_t ci = col_index[c];
        AppendChunkText(tree->columns()[static_cast<size_t>(ci)], ci, rg.columns[c], &out);
      }
    }
  } else {
    out += "{\"file\":" + JsonQuoted(path) + fmt::format(",\"file_size\":{},\"footer_length\":{},\"version\":{}",
                                                          file->size(), footer->footer_length(), md.version);
    if (md.created_by) out += ",\"created_by\":" + JsonQuoted(Printable(*md.created_by));
    out += fmt::format(",\"num_rows\":{},\"num_row_groups_decoded\":{},\"num_columns\":{}", md.num_rows,
                       md.row_groups.size(), tree->num_columns());
    if (md.encryption_algorithm) {
      out += ",\"encryption_algorithm\":" + JsonQuoted(EncryptionAlgorithmName(*md.encryption_algorithm));
    }
    out += ",\"key_value_metadata\":[";
    if (md.key_value_metadata) {
      out += Join(*md.key_value_metadata, [](const KeyValue& kv) {
        return "{\"key\":" + JsonQuoted(Printable(kv.key)) +
               ",\"value\":" + (kv.value ? JsonQuoted(Printable(*kv.value)) : std::string("null")) + "}";
      });
    }
    out += "],\"row_groups\":[";
    for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
      const RowGroup& rg = md.row_groups[r];
      out += fmt::format("{}{{\"index\":{},\"num_rows\":{},\"total_byte_size\":{}", r ? "," : "", rg_index[r],
                         rg.num_rows, rg.total_byte_size);
      if (rg.total_compressed_size) out += fmt::format(",\"total_compressed_size\":{}", *rg.total_compressed_size);
      if (rg.file_offset) out += fmt::format(",\"file_offset\":{}", *rg.file_offset);
      if (rg.ordinal) out += fmt::format(",\"ordinal\":{}", *rg.ordinal);
      out += ",\"columns\":[";
      for (uint32_t c = 0; c < rg.columns.size(); ++c) {
        if (c) out += ",";
        int32_t ci = col_index[c];
        AppendChunkJson(tree->columns()[static_cast<size_t>(ci)], ci, rg.columns[c], &out);
      }
      out += "]}";
    }
    out += "]}\n";
  }
  return out;
}

}  // namespace quiver::describe
