// A Parquet file's schema as a tree (names, repetition, physical and logical types, levels,
// quiver type), or as JSON: only the schema is decoded from the footer, no row group.
#include <fmt/format.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/describe/describe_internal.h"
#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"

namespace quiver::describe {
namespace {

using namespace quiver::parquet;

std::string Annotation(const SchemaElement& e) {
  std::string s;
  if (e.logicalType) s = LogicalTypeToString(*e.logicalType);
  if (e.converted_type) {
    const char* name = ConvertedTypeName(*e.converted_type);
    std::string ct = name ? name : fmt::format("converted({})", static_cast<int32_t>(*e.converted_type));
    if (*e.converted_type == ConvertedType::DECIMAL) ct += fmt::format("({},{})", e.precision.value_or(0), e.scale.value_or(0));
    if (s.empty()) s = ct;
    else if (s.rfind(ct, 0) != 0) s += " [" + ct + "]";
  }
  return s;
}

std::string PhysicalName(const SchemaElement& e) {
  if (!e.type) return "group";
  const char* n = TypeName(*e.type);
  std::string s = n ? n : fmt::format("type({})", static_cast<int32_t>(*e.type));
  if (*e.type == Type::FIXED_LEN_BYTE_ARRAY) s += fmt::format("({})", e.type_length.value_or(0));
  return s;
}

// Nodes to show: everything, or the selected leaves and their ancestors.
std::vector<bool> Visible(const SchemaTree& tree, const std::vector<int32_t>* leaves) {
  std::vector<bool> show(tree.nodes().size(), leaves == nullptr);
  if (leaves != nullptr) {
    for (int32_t leaf : *leaves) {
      for (int32_t k = tree.columns()[static_cast<size_t>(leaf)].node; k >= 0; k = tree.node(k).parent) show[k] = true;
    }
  }
  return show;
}

void AppendText(const SchemaTree& tree, const std::vector<bool>& show, int32_t index, int depth, std::string* out) {
  const SchemaNode& n = tree.node(index);
  const SchemaElement& e = *n.element;
  std::string line(static_cast<size_t>(depth) * 2, ' ');
  if (index == 0) {
    line += fmt::format("{} ({} leaf columns)", n.name, tree.num_columns());
  } else {
    const char* rep = RepetitionName(n.repetition);
    line += fmt::format("{}: {} {}", n.name, rep ? rep : "?", PhysicalName(e));
    std::string ann = Annotation(e);
    if (!ann.empty()) line += " " + ann;
    if (e.field_id) line += fmt::format(" id={}", *e.field_id);
    if (n.is_leaf()) {
      line += fmt::format("  [column {}, def {}, rep {}", n.leaf_index, n.max_definition_level, n.max_repetition_level);
      auto f = tree.ToField(index);
      if (f.ok()) line += ", " + f->type->ToString();
      line += "]";
    }
  }
  *out += line + "\n";
  for (int32_t c : n.children) {
    if (show[static_cast<size_t>(c)]) AppendText(tree, show, c, depth + 1, out);
  }
}

void AppendJson(const SchemaTree& tree, const std::vector<bool>& show, int32_t index, std::string* out) {
  const SchemaNode& n = tree.node(index);
  const SchemaElement& e = *n.element;
  *out += "{\"name\":" + JsonQuoted(n.name);
  if (index != 0) {
    const char* rep = RepetitionName(n.repetition);
    *out += ",\"repetition\":" + JsonQuoted(rep ? rep : "?");
  }
  if (e.type) *out += ",\"physical_type\":" + JsonQuoted(PhysicalName(e));
  if (e.logicalType) *out += ",\"logical_type\":" + JsonQuoted(LogicalTypeToString(*e.logicalType));
  if (e.converted_type) {
    const char* ct = ConvertedTypeName(*e.converted_type);
    *out += ",\"converted_type\":" + (ct ? JsonQuoted(ct) : std::to_string(static_cast<int32_t>(*e.converted_type)));
  }
  if (e.precision) *out += fmt::format(",\"precision\":{}", *e.precision);
  if (e.scale) *out += fmt::format(",\"scale\":{}", *e.scale);
  if (e.field_id) *out += fmt::format(",\"field_id\":{}", *e.field_id);
  if (n.is_leaf()) {
    const ColumnDescriptor& col = tree.columns()[static_cast<size_t>(n.leaf_index)];
    *out += fmt::format(",\"column_index\":{},\"path\":{},\"max_definition_level\":{},\"max_repetition_level\":{}",
                        n.leaf_index, JsonQuoted(col.dotted_path()), n.max_definition_level, n.max_repetition_level);
  }
  if (index != 0) {
    auto f = tree.ToField(index);
    if (f.ok()) *out += ",\"quiver_type\":" + JsonQuoted(f->type->ToString()) + fmt::format(",\"nullable\":{}", f->nullable);
  }
  if (!n.is_leaf()) {
    *out += ",\"children\":[";
    bool first = true;
    for (int32_t c : n.children) {
      if (!show[static_cast<size_t>(c)]) continue;
      if (!first) *out += ",";
      first = false;
      AppendJson(tree, show, c, out);
    }
    *out += "]";
  }
  *out += "}";
}

}  // namespace

Result<std::string> ParquetSchema(const std::string& path, const DescribeOptions& options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path));
  DecodeOptions decode;
  decode.row_groups.emplace();  // the schema needs no row group
  decode.statistics = false;
  auto footer = ReadFooter(*file, decode, &options.decryption);
  if (!footer.ok()) return footer.status().WithContext(path);
  const FileMetaData& md = (*footer)->metadata();
  auto tree = SchemaTree::Make(md.schema);
  if (!tree.ok()) return tree.status().WithContext(path);
  if (options.row_group >= 0) {
    // Checked so that the schema and the metadata accept the same options with the same meaning.
    DecodeOptions probe;
    probe.row_groups = std::vector<int32_t>{options.row_group};
    probe.columns.emplace();
    auto checked = ReadFooter(*file, probe, &options.decryption);
    if (!checked.ok()) return checked.status().WithContext(path);
  }
  std::vector<int32_t> leaves;
  if (!options.columns.empty()) {
    auto r = tree->ResolveColumns(options.columns);
    if (!r.ok()) return r.status().WithContext(path);
    leaves = *r;
  }
  std::vector<bool> show = Visible(*tree, options.columns.empty() ? nullptr : &leaves);
  std::string out;
  if (options.json) {
    out = "{\"file\":" + JsonQuoted(path) +
          fmt::format(",\"num_columns\":{},\"num_rows\":{},\"schema\":", tree->num_columns(), md.num_rows);
    AppendJson(*tree, show, 0, &out);
    out += "}\n";
  } else {
    AppendText(*tree, show, 0, 0, &out);
  }
  return out;
}

}  // namespace quiver::describe
