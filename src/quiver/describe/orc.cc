// An ORC file's type tree, and its PostScript, footer, stripes (streams, encodings, writer time
// zone) and column statistics, as text or JSON.
#include "quiver/describe/describe_internal.h"

#include <fmt/format.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/core/utf8.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"

namespace quiver::describe {
namespace {

namespace f = orc::format;

std::string Name(const char* n, uint32_t v) { return n ? std::string(n) : fmt::format("#{}", v); }
std::string Text(std::string_view s) { return EscapeForMessage(s, 64); }

// (key, value-as-JSON) pairs of one column's statistics.
std::vector<std::pair<std::string, std::string>> StatsFields(const orc::ColumnStatistics& s) {
  std::vector<std::pair<std::string, std::string>> v;
  auto num = [&](const char* k, auto x) { v.emplace_back(k, fmt::format("{}", x)); };
  auto str = [&](const char* k, const std::string& x) { v.emplace_back(k, JsonQuoted(Text(x))); };
  if (s.number_of_values) num("values", *s.number_of_values);
  if (s.has_null) v.emplace_back("has_null", *s.has_null ? "true" : "false");
  if (s.int_statistics) {
    if (s.int_statistics->minimum) num("min", *s.int_statistics->minimum);
    if (s.int_statistics->maximum) num("max", *s.int_statistics->maximum);
    if (s.int_statistics->sum) num("sum", *s.int_statistics->sum);
  }
  if (s.double_statistics) {
    if (s.double_statistics->minimum) num("min", *s.double_statistics->minimum);
    if (s.double_statistics->maximum) num("max", *s.double_statistics->maximum);
    if (s.double_statistics->sum) num("sum", *s.double_statistics->sum);
  }
  if (s.string_statistics) {
    if (s.string_statistics->minimum) str("min", *s.string_statistics->minimum);
    if (s.string_statistics->maximum) str("max", *s.string_statistics->maximum);
    if (s.string_statistics->lower_bound) str("lower_bound", *s.string_statistics->lower_bound);
    if (s.string_statistics->upper_bound) str("upper_bound", *s.string_statistics->upper_bound);
    if (s.string_statistics->sum) num("total_length", *s.string_statistics->sum);
  }
  if (s.bucket_statistics && !s.bucket_statistics->count.empty()) num("true_count", s.bucket_statistics->count[0]);
  if (s.decimal_statistics) {
    if (s.decimal_statistics->minimum) str("min", *s.decimal_statistics->minimum);
    if (s.decimal_statistics->maximum) str("max", *s.decimal_statistics->maximum);
    if (s.decimal_statistics->sum) str("sum", *s.decimal_statistics->sum);
  }
  if (s.date_statistics) {
    if (s.date_statistics->minimum) num("min_days", *s.date_statistics->minimum);
    if (s.date_statistics->maximum) num("max_days", *s.date_statistics->maximum);
  }
  if (s.timestamp_statistics) {
    const auto& t = *s.timestamp_statistics;
    if (t.minimum_utc) num("min_utc_ms", *t.minimum_utc);
    if (t.maximum_utc) num("max_utc_ms", *t.maximum_utc);
    if (t.minimum) num("min_local_ms", *t.minimum);
    if (t.maximum) num("max_local_ms", *t.maximum);
  }
  if (s.binary_statistics && s.binary_statistics->sum) num("total_length", *s.binary_statistics->sum);
  if (s.collection_statistics) {
    const auto& c = *s.collection_statistics;
    if (c.min_children) num("min_children", *c.min_children);
    if (c.max_children) num("max_children", *c.max_children);
    if (c.total_children) num("total_children", *c.total_children);
  }
  if (s.bytes_on_disk) num("bytes_on_disk", *s.bytes_on_disk);
  return v;
}

std::string StatsJson(const orc::ColumnStatistics& s) {
  std::string out = "{";
  bool first = true;
  for (auto& [k, v] : StatsFields(s)) {
    out += fmt::format("{}\"{}\":{}", first ? "" : ",", k, v);
    first = false;
  }
  return out + "}";
}
std::string StatsText(const orc::ColumnStatistics& s) {
  std::string out;
  for (auto& [k, v] : StatsFields(s)) out += fmt::format("{}{}={}", out.empty() ? "" : " ", k, v);
  return out;
}

// Column ids of the chosen columns (their subtrees), or all.
Result<std::vector<bool>> Chosen(const orc::OrcFileReader& r, const std::vector<std::string>& columns) {
  const auto& types = r.footer().types;
  std::vector<bool> show(types.size(), columns.empty());
  for (const auto& c : columns) {
    QUIVER_ASSIGN_OR_RETURN(uint32_t id, r.ColumnIdOf(c));
    std::vector<uint32_t> stack = {id};
    while (!stack.empty()) {
      uint32_t x = stack.back();
      stack.pop_back();
      show[x] = true;
      for (uint32_t ch : types[x].subtypes) stack.push_back(ch);
    }
  }
  return show;
}

}  // namespace

Result<std::string> OrcSchema(const std::string& path, const DescribeOptions& options) {
  if (options.row_group >= 0) return Status::Invalid(fmt::format("{}: row_group applies to Parquet files only", path));
  const bool json = options.json;
  QUIVER_ASSIGN_OR_RETURN(auto r, orc::OrcFileReader::Open(path));
  QUIVER_ASSIGN_OR_RETURN(auto sel, r->Select(options.columns));
  auto schema = r->SelectedSchema(sel);
  std::string out;
  if (json) {
    out = "{\"file\":" + JsonQuoted(path) + ",\"format\":\"orc\",\"orc_type\":" + JsonQuoted(r->TypeString(0)) +
          fmt::format(",\"num_rows\":{},\"fields\":[", r->num_rows());
    for (int i = 0; i < schema->num_fields(); ++i) {
      const Field& fl = schema->field(i);
      QUIVER_ASSIGN_OR_RETURN(uint32_t id, r->ColumnIdOf(fl.name));
      out += fmt::format("{}{{\"name\":{},\"column_id\":{},\"orc_type\":{},\"quiver_type\":{}}}", i ? "," : "", JsonQuoted(fl.name), id,
                         JsonQuoted(r->TypeString(id)), JsonQuoted(fl.type->ToString()));
    }
    out += "]}\n";
  } else {
    out = fmt::format("ORC {}: {}\n", r->version_string(), r->TypeString(0));
    for (int i = 0; i < schema->num_fields(); ++i) {
      const Field& fl = schema->field(i);
      QUIVER_ASSIGN_OR_RETURN(uint32_t id, r->ColumnIdOf(fl.name));
      out += fmt::format("  {} (column {}): {} -> {}\n", fl.name, id, r->TypeString(id), fl.type->ToString());
    }
  }
  return out;
}

Result<std::string> OrcMetadata(const std::string& path, const DescribeOptions& options) {
  const bool json = options.json;
  const int stripe = options.row_group;
  QUIVER_ASSIGN_OR_RETURN(auto r, orc::OrcFileReader::Open(path));
  if (stripe >= r->num_stripes()) return Status::Invalid(fmt::format("{}: no stripe {} (the file has {})", path, stripe, r->num_stripes()));
  QUIVER_ASSIGN_OR_RETURN(auto show, Chosen(*r, options.columns));
  QUIVER_ASSIGN_OR_RETURN(const orc::Metadata* md, r->metadata());
  const orc::PostScript& ps = r->postscript();
  const orc::Footer& ft = r->footer();
  std::string out;
  const std::string codec = Name(f::CompressionName(ps.compression), ps.compression);
  if (json) {
    out += "{\"file\":" + JsonQuoted(path) + fmt::format(",\"file_size\":{},\"format\":\"orc\",\"version\":{}", r->file_size(), JsonQuoted(r->version_string()));
    out += fmt::format(",\"postscript\":{{\"compression\":{},\"compression_block_size\":{},\"footer_length\":{},\"metadata_length\":{}",
                       JsonQuoted(codec), ps.compression_block_size.value_or(f::kDefaultCompressionBlockSize), ps.footer_length,
                       ps.metadata_length);
    if (ps.writer_version) out += fmt::format(",\"writer_version\":{}", *ps.writer_version);
    out += "}";
    out += fmt::format(",\"num_rows\":{},\"row_index_stride\":{},\"type\":{}", r->num_rows(), ft.row_index_stride, JsonQuoted(r->TypeString(0)));
    if (ft.writer) out += fmt::format(",\"writer\":{}", *ft.writer);
    if (ft.software_version) out += ",\"software_version\":" + JsonQuoted(Text(*ft.software_version));
    if (ft.encryption) out += fmt::format(",\"encrypted_columns\":{}", ft.encryption->variants.size());
    out += ",\"user_metadata\":[";
    for (size_t i = 0; i < ft.metadata.size(); ++i) {
      out += fmt::format("{}{{\"name\":{},\"value_bytes\":{}}}", i ? "," : "", JsonQuoted(Text(ft.metadata[i].name)), ft.metadata[i].value.size());
    }
    out += "],\"statistics\":[";
    bool first = true;
    for (size_t c = 0; c < ft.statistics.size() && c < show.size(); ++c) {
      if (!show[c]) continue;
      out += fmt::format("{}{{\"column\":{},\"stats\":{}}}", first ? "" : ",", c, StatsJson(ft.statistics[c]));
      first = false;
    }
    out += "],\"stripes\":[";
  } else {
    out += fmt::format("file: {}\nfile size: {} bytes\nformat version: {}\n", path, r->file_size(), r->version_string());
    out += fmt::format("compression: {} (block size {})\n", codec, ps.compression_block_size.value_or(f::kDefaultCompressionBlockSize));
    out += fmt::format("postscript: footer {} bytes, metadata {} bytes", ps.footer_length, ps.metadata_length);
    if (ps.writer_version) out += fmt::format(", writer version {}", *ps.writer_version);
    out += "\n";
    if (ft.software_version) out += fmt::format("software: {}\n", Text(*ft.software_version));
    if (ft.writer) out += fmt::format("writer: {}\n", *ft.writer);
    out += fmt::format("rows: {}\nstripes: {}\nrow index stride: {}\ntype: {}\n", r->num_rows(), r->num_stripes(), ft.row_index_stride,
                       r->TypeString(0));
    if (ft.encryption) out += fmt::format("column encryption: {} encrypted column subtrees (read as their masked values)\n", ft.encryption->variants.size());
    for (const auto& m : ft.metadata) out += fmt::format("user metadata: {} ({} bytes)\n", Text(m.name), m.value.size());
    out += "file statistics:\n";
    for (size_t c = 0; c < ft.statistics.size() && c < show.size(); ++c) {
      if (show[c]) out += fmt::format("  column {}: {}\n", c, StatsText(ft.statistics[c]));
    }
  }
  bool first_stripe = true;
  for (int s = 0; s < r->num_stripes(); ++s) {
    if (stripe >= 0 && s != stripe) continue;
    const orc::StripeInformation& si = ft.stripes[static_cast<size_t>(s)];
    QUIVER_ASSIGN_OR_RETURN(auto sf, r->ReadStripeFooter(s));
    const orc::StripeStatistics* ss = md != nullptr && static_cast<size_t>(s) < md->stripe_stats.size() ? &md->stripe_stats[static_cast<size_t>(s)] : nullptr;
    if (json) {
      out += fmt::format("{}{{\"index\":{},\"offset\":{},\"index_length\":{},\"data_length\":{},\"footer_length\":{},\"rows\":{}",
                         first_stripe ? "" : ",", s, si.offset, si.index_length, si.data_length, si.footer_length, si.number_of_rows);
      if (sf.writer_timezone) out += ",\"writer_timezone\":" + JsonQuoted(Text(*sf.writer_timezone));
      out += ",\"streams\":[";
      bool first = true;
      for (const auto& st : sf.streams) {
        if (st.column < show.size() && !show[st.column]) continue;
        out += fmt::format("{}{{\"column\":{},\"kind\":{},\"length\":{}}}", first ? "" : ",", st.column, JsonQuoted(Name(f::StreamKindName(st.kind), st.kind)), st.length);
        first = false;
      }
      out += "],\"encodings\":[";
      first = true;
      for (size_t c = 0; c < sf.columns.size(); ++c) {
        if (c < show.size() && !show[c]) continue;
        out += fmt::format("{}{{\"column\":{},\"kind\":{}", first ? "" : ",", c, JsonQuoted(Name(f::EncodingKindName(sf.columns[c].kind), sf.columns[c].kind)));
        if (sf.columns[c].dictionary_size) out += fmt::format(",\"dictionary_size\":{}", sf.columns[c].dictionary_size);
        out += "}";
        first = false;
      }
      out += "],\"statistics\":[";
      first = true;
      for (size_t c = 0; ss != nullptr && c < ss->col_stats.size() && c < show.size(); ++c) {
        if (!show[c]) continue;
        out += fmt::format("{}{{\"column\":{},\"stats\":{}}}", first ? "" : ",", c, StatsJson(ss->col_stats[c]));
        first = false;
      }
      out += "]}";
    } else {
      out += fmt::format("stripe {}: {} rows, offset {}, index {} + data {} + footer {} bytes", s, si.number_of_rows, si.offset,
                         si.index_length, si.data_length, si.footer_length);
      if (sf.writer_timezone) out += fmt::format(", writer time zone {}", Text(*sf.writer_timezone));
      out += "\n";
      for (size_t c = 0; c < sf.columns.size(); ++c) {
        if (c < show.size() && !show[c]) continue;
        out += fmt::format("  column {}: {}", c, Name(f::EncodingKindName(sf.columns[c].kind), sf.columns[c].kind));
        if (sf.columns[c].dictionary_size) out += fmt::format(" (dictionary of {})", sf.columns[c].dictionary_size);
        out += "; streams";
        for (const auto& st : sf.streams) {
          if (st.column == c) out += fmt::format(" {} {}", Name(f::StreamKindName(st.kind), st.kind), st.length);
        }
        if (ss != nullptr && c < ss->col_stats.size()) out += "; " + StatsText(ss->col_stats[c]);
        out += "\n";
      }
    }
    first_stripe = false;
  }
  if (json) out += "]}\n";
  return out;
}

}  // namespace quiver::describe
