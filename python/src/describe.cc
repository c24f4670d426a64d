// quiver.schema() and quiver.metadata(): a file's schema and Parquet footer as Python dicts with
// the keys and values `quiver schema --json` and `quiver meta --json` print.
#include <pybind11/stl.h>

#include "binding.h"
#include "quiver/ipc/reader.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"

namespace quiver::python {
namespace {

using namespace quiver::parquet;

py::str Str(std::string_view s) {
  return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"));
}

// Key-value metadata and paths may be any bytes: invalid UTF-8 is shown as 0x hex, as the CLI does.
std::string Printable(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  std::string h = "0x";
  static const char* kHex = "0123456789abcdef";
  for (unsigned char c : s) {
    h += kHex[c >> 4];
    h += kHex[c & 15];
  }
  return h;
}

std::string PhysicalName(const SchemaElement& e) {
  const char* n = TypeName(*e.type);
  std::string s = n ? n : "type(" + std::to_string(static_cast<int32_t>(*e.type)) + ")";
  if (*e.type == Type::FIXED_LEN_BYTE_ARRAY) s += "(" + std::to_string(e.type_length.value_or(0)) + ")";
  return s;
}

py::dict Node(const SchemaTree& tree, int32_t index) {
  const SchemaNode& n = tree.node(index);
  const SchemaElement& e = *n.element;
  py::dict d;
  d["name"] = Str(n.name);
  if (index != 0) {
    const char* rep = RepetitionName(n.repetition);
    d["repetition"] = rep ? rep : "?";
  }
  if (e.type) d["physical_type"] = PhysicalName(e);
  if (e.logicalType) d["logical_type"] = LogicalTypeToString(*e.logicalType);
  if (e.converted_type) {
    const char* ct = ConvertedTypeName(*e.converted_type);
    d["converted_type"] = ct ? py::object(py::str(ct)) : py::object(py::int_(static_cast<int32_t>(*e.converted_type)));
  }
  if (e.precision) d["precision"] = *e.precision;
  if (e.scale) d["scale"] = *e.scale;
  if (e.field_id) d["field_id"] = *e.field_id;
  if (n.is_leaf()) {
    d["column_index"] = n.leaf_index;
    d["path"] = Str(tree.columns()[static_cast<size_t>(n.leaf_index)].dotted_path());
    d["max_definition_level"] = n.max_definition_level;
    d["max_repetition_level"] = n.max_repetition_level;
  }
  if (index != 0) {
    auto f = tree.ToField(index);
    if (f.ok()) {
      d["quiver_type"] = f->type->ToString();
      d["nullable"] = f->nullable;
    }
  }
  if (!n.is_leaf()) {
    py::list children;
    for (int32_t c : n.children) children.append(Node(tree, c));
    d["children"] = children;
  }
  return d;
}

std::shared_ptr<const ParquetFooter> Footer(const std::string& path, const DecodeOptions& options) {
  std::shared_ptr<io::RandomAccessFile> file = Check(io::OpenFile(path));
  auto footer = ReadFooter(*file, options);
  if (!footer.ok()) Raise(footer.status().WithContext(path));
  return *footer;
}

py::dict Schema(const std::string& path) {
  const std::string format = stream::InputFormatOf(path);
  py::dict out;
  out["file"] = path;
  if (format == "arrow" || format == "arrows") {
    std::unique_ptr<ipc::IpcReader> reader = WithoutGil([&] { return ipc::IpcReader::Open(path); });
    out["format"] = reader->is_file_format() ? "arrow" : "arrows";
    py::list fields;
    for (const Field& f : reader->schema()->fields()) {
      py::dict d;
      d["name"] = Str(f.name);
      d["quiver_type"] = f.type->ToString();
      d["nullable"] = f.nullable;
      fields.append(d);
    }
    out["fields"] = fields;
    return out;
  }
  DecodeOptions options;
  options.row_groups.emplace();  // the schema needs no row group
  options.statistics = false;
  std::shared_ptr<const ParquetFooter> footer = Footer(path, options);
  auto tree = SchemaTree::Make(footer->metadata().schema);
  if (!tree.ok()) Raise(tree.status().WithContext(path));
  out["num_columns"] = tree->num_columns();
  out["num_rows"] = footer->metadata().num_rows;
  out["schema"] = Node(*tree, 0);
  return out;
}

// A statistics value as the CLI's JSON has it: an integer as a number, anything else as text.
py::object StatValue(const std::string& formatted) {
  bool number = !formatted.empty();
  for (size_t i = 0; i < formatted.size(); ++i) {
    const char c = formatted[i];
    number = number && (std::isdigit(static_cast<unsigned char>(c)) || (i == 0 && c == '-' && formatted.size() > 1));
  }
  return number ? py::object(py::int_(py::str(formatted))) : py::object(Str(formatted));
}

std::string EncName(Encoding e) {
  const char* n = EncodingName(e);
  return n ? n : "encoding(" + std::to_string(static_cast<int32_t>(e)) + ")";
}

py::dict Chunk(const ColumnDescriptor& col, int32_t index, const ColumnChunk& cc) {
  py::dict d;
  d["column"] = index;
  d["path"] = Str(col.dotted_path());
  if (cc.file_path) d["file_path"] = Printable(*cc.file_path);
  if (cc.meta_data) {
    const ColumnMetaData& m = *cc.meta_data;
    const char* t = TypeName(m.type);
    const char* codec = CodecName(m.codec);
    d["physical_type"] = t ? t : "?";
    d["codec"] = codec ? codec : "?";
    py::list encodings;
    for (uint32_t i = 0; i < m.encodings.size(); ++i) encodings.append(EncName(m.encodings[i]));
    d["encodings"] = encodings;
    d["num_values"] = m.num_values;
    d["total_compressed_size"] = m.total_compressed_size;
    d["total_uncompressed_size"] = m.total_uncompressed_size;
    d["data_page_offset"] = m.data_page_offset;
    if (m.dictionary_page_offset) d["dictionary_page_offset"] = *m.dictionary_page_offset;
    if (m.index_page_offset) d["index_page_offset"] = *m.index_page_offset;
    if (m.bloom_filter_offset) d["bloom_filter_offset"] = *m.bloom_filter_offset;
    if (m.bloom_filter_length) d["bloom_filter_length"] = *m.bloom_filter_length;
    if (m.statistics) {
      const Statistics& s = *m.statistics;
      py::dict st;
      if (s.min_value) st["min"] = StatValue(FormatStatisticsValue(col, *s.min_value));
      if (s.max_value) st["max"] = StatValue(FormatStatisticsValue(col, *s.max_value));
      if (!s.min_value && s.min) st["min_legacy"] = StatValue(FormatStatisticsValue(col, *s.min));
      if (!s.max_value && s.max) st["max_legacy"] = StatValue(FormatStatisticsValue(col, *s.max));
      if (s.null_count) st["null_count"] = *s.null_count;
      if (s.distinct_count) st["distinct_count"] = *s.distinct_count;
      if (s.nan_count) st["nan_count"] = *s.nan_count;
      if (s.is_min_value_exact) st["is_min_value_exact"] = *s.is_min_value_exact;
      if (s.is_max_value_exact) st["is_max_value_exact"] = *s.is_max_value_exact;
      d["statistics"] = st;
    }
    if (m.encoding_stats) {
      py::list pages;
      for (uint32_t i = 0; i < m.encoding_stats->size(); ++i) {
        const PageEncodingStats& p = (*m.encoding_stats)[i];
        const char* pt = PageTypeName(p.page_type);
        py::dict e;
        e["page_type"] = pt ? pt : "?";
        e["encoding"] = EncName(p.encoding);
        e["count"] = p.count;
        pages.append(e);
      }
      d["page_encoding_stats"] = pages;
    }
  } else if (cc.encrypted_column_metadata) {
    d["encrypted_column_metadata"] = true;
  }
  if (cc.column_index_offset) d["column_index_offset"] = *cc.column_index_offset;
  if (cc.column_index_length) d["column_index_length"] = *cc.column_index_length;
  if (cc.offset_index_offset) d["offset_index_offset"] = *cc.offset_index_offset;
  if (cc.offset_index_length) d["offset_index_length"] = *cc.offset_index_length;
  return d;
}

py::dict Metadata(const std::string& path) {
  std::shared_ptr<io::RandomAccessFile> file = Check(io::OpenFile(path));
  std::shared_ptr<const ParquetFooter> footer = Footer(path, {});
  const FileMetaData& md = footer->metadata();
  auto tree = SchemaTree::Make(md.schema);
  if (!tree.ok()) Raise(tree.status().WithContext(path));
  const auto& col_index = footer->column_indices();
  for (const RowGroup& rg : md.row_groups) {
    if (rg.columns.size() != static_cast<uint32_t>(tree->num_columns()) || rg.columns.size() > col_index.size()) {
      Raise(Status::Corrupt("a row group has " + std::to_string(rg.columns.size()) + " column chunks but the schema has " +
                            std::to_string(tree->num_columns()) + " leaf columns")
                .WithContext(path));
    }
  }
  py::dict out;
  out["file"] = path;
  out["file_size"] = file->size();
  out["footer_length"] = footer->footer_length();
  out["version"] = md.version;
  if (md.created_by) out["created_by"] = Printable(*md.created_by);
  out["num_rows"] = md.num_rows;
  out["num_row_groups_decoded"] = md.row_groups.size();
  out["num_columns"] = tree->num_columns();
  if (md.encryption_algorithm) out["encryption_algorithm"] = EncryptionAlgorithmName(*md.encryption_algorithm);
  py::list kvs;
  if (md.key_value_metadata) {
    for (uint32_t i = 0; i < md.key_value_metadata->size(); ++i) {
      const KeyValue& kv = (*md.key_value_metadata)[i];
      py::dict d;
      d["key"] = Printable(kv.key);
      d["value"] = kv.value ? py::object(py::str(Printable(*kv.value))) : py::object(py::none());
      kvs.append(d);
    }
  }
  out["key_value_metadata"] = kvs;
  py::list groups;
  const auto& rg_index = footer->row_group_indices();
  for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
    const RowGroup& rg = md.row_groups[r];
    py::dict g;
    g["index"] = rg_index[r];
    g["num_rows"] = rg.num_rows;
    g["total_byte_size"] = rg.total_byte_size;
    if (rg.total_compressed_size) g["total_compressed_size"] = *rg.total_compressed_size;
    if (rg.file_offset) g["file_offset"] = *rg.file_offset;
    if (rg.ordinal) g["ordinal"] = *rg.ordinal;
    py::list columns;
    for (uint32_t c = 0; c < rg.columns.size(); ++c) {
      const int32_t ci = col_index[c];
      columns.append(Chunk(tree->columns()[static_cast<size_t>(ci)], ci, rg.columns[c]));
    }
    g["columns"] = columns;
    groups.append(g);
  }
  out["row_groups"] = groups;
  return out;
}

}  // namespace

void RegisterDescribe(py::module_& m) {
  m.def("_schema", &Schema, py::arg("path"));
  m.def("_metadata", &Metadata, py::arg("path"));
}

}  // namespace quiver::python
