// `quiver schema FILE`: the Parquet schema as a tree (names, repetition, physical and logical
// types, levels, quiver type), or as JSON.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <sstream>

#include "quiver/columnar/pretty_print.h"
#include "quiver/cli/command.h"
#include "quiver/cli/orc_meta.h"
#include "quiver/io/file.h"
#include "quiver/ipc/reader.h"
#include "quiver/parquet/footer.h"
#include "quiver/stream/file_format.h"
#include "quiver/parquet/schema.h"

namespace quiver::cli {
namespace {

using namespace quiver::parquet;

struct SchemaArgs {
  std::string path;
  bool json = false;
  int row_group = -1;
  std::vector<std::string> columns;
};

std::string JsonQuote(std::string_view s) {
  std::string out;
  AppendJsonQuoted(s, &out);
  return out;
}

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

void PrintText(const SchemaTree& tree, const std::vector<bool>& show, int32_t index, int depth, std::string* out) {
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
    if (show[static_cast<size_t>(c)]) PrintText(tree, show, c, depth + 1, out);
  }
}

void PrintJson(const SchemaTree& tree, const std::vector<bool>& show, int32_t index, std::string* out) {
  const SchemaNode& n = tree.node(index);
  const SchemaElement& e = *n.element;
  *out += "{\"name\":" + JsonQuote(n.name);
  if (index != 0) {
    const char* rep = RepetitionName(n.repetition);
    *out += ",\"repetition\":" + JsonQuote(rep ? rep : "?");
  }
  if (e.type) *out += ",\"physical_type\":" + JsonQuote(PhysicalName(e));
  if (e.logicalType) *out += ",\"logical_type\":" + JsonQuote(LogicalTypeToString(*e.logicalType));
  if (e.converted_type) {
    const char* ct = ConvertedTypeName(*e.converted_type);
    *out += ",\"converted_type\":" + (ct ? JsonQuote(ct) : std::to_string(static_cast<int32_t>(*e.converted_type)));
  }
  if (e.precision) *out += fmt::format(",\"precision\":{}", *e.precision);
  if (e.scale) *out += fmt::format(",\"scale\":{}", *e.scale);
  if (e.field_id) *out += fmt::format(",\"field_id\":{}", *e.field_id);
  if (n.is_leaf()) {
    const ColumnDescriptor& col = tree.columns()[static_cast<size_t>(n.leaf_index)];
    *out += fmt::format(",\"column_index\":{},\"path\":{},\"max_definition_level\":{},\"max_repetition_level\":{}",
                        n.leaf_index, JsonQuote(col.dotted_path()), n.max_definition_level, n.max_repetition_level);
  }
  if (index != 0) {
    auto f = tree.ToField(index);
    if (f.ok()) *out += ",\"quiver_type\":" + JsonQuote(f->type->ToString()) + fmt::format(",\"nullable\":{}", f->nullable);
  }
  if (!n.is_leaf()) {
    *out += ",\"children\":[";
    bool first = true;
    for (int32_t c : n.children) {
      if (!show[static_cast<size_t>(c)]) continue;
      if (!first) *out += ",";
      first = false;
      PrintJson(tree, show, c, out);
    }
    *out += "]";
  }
  *out += "}";
}

// An Arrow IPC file's or stream's schema, as quiver reads it: one "name: type" line per field.
Status RunArrowSchema(const SchemaArgs& a) {
  if (a.row_group >= 0 || !a.columns.empty()) {
    return Status::Invalid(fmt::format("{}: --row-group and --columns apply to Parquet files only", a.path));
  }
  QUIVER_ASSIGN_OR_RETURN(auto reader, ipc::IpcReader::Open(a.path));
  const Schema& schema = *reader->schema();
  std::string out;
  if (a.json) {
    out = "{\"file\":" + JsonQuote(a.path) + ",\"format\":" + JsonQuote(reader->is_file_format() ? "arrow" : "arrows") +
          ",\"fields\":[";
    for (int i = 0; i < schema.num_fields(); ++i) {
      const Field& f = schema.field(i);
      out += fmt::format("{}{{\"name\":{},\"quiver_type\":{},\"nullable\":{}}}", i ? "," : "", JsonQuote(f.name),
                         JsonQuote(f.type->ToString()), f.nullable);
    }
    out += "]}\n";
  } else {
    out = schema.ToString();
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return Status::OK();
}

Status RunSchema(const SchemaArgs& a) {
  const std::string format = stream::InputFormatOf(a.path);
  if (format == "arrow" || format == "arrows") return RunArrowSchema(a);
  if (format == "orc") {
    if (a.row_group >= 0) return Status::Invalid(fmt::format("{}: --row-group applies to Parquet files only", a.path));
    return RunOrcSchema(a.path, a.json, a.columns);
  }
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(a.path));
  DecodeOptions options;
  options.row_groups.emplace();  // the schema needs no row group
  options.statistics = false;
  auto footer = ReadFooter(*file, options);
  if (!footer.ok()) return footer.status().WithContext(a.path);
  const FileMetaData& md = (*footer)->metadata();
  auto tree = SchemaTree::Make(md.schema);
  if (!tree.ok()) return tree.status().WithContext(a.path);
  if (a.row_group >= 0) {
    // Checked so that `schema` and `meta` accept the same arguments with the same meaning.
    DecodeOptions probe;
    probe.row_groups = std::vector<int32_t>{a.row_group};
    probe.columns.emplace();
    auto checked = ReadFooter(*file, probe);
    if (!checked.ok()) return checked.status().WithContext(a.path);
  }
  std::vector<int32_t> leaves;
  if (!a.columns.empty()) {
    auto r = tree->ResolveColumns(a.columns);
    if (!r.ok()) return r.status().WithContext(a.path);
    leaves = *r;
  }
  std::vector<bool> show = Visible(*tree, a.columns.empty() ? nullptr : &leaves);
  std::string out;
  if (a.json) {
    out = "{\"file\":" + JsonQuote(a.path) + fmt::format(",\"num_columns\":{},\"num_rows\":{},\"schema\":", tree->num_columns(), md.num_rows);
    PrintJson(*tree, show, 0, &out);
    out += "}\n";
  } else {
    PrintText(*tree, show, 0, 0, &out);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return Status::OK();
}

const bool registered = RegisterCommand({"schema", "Print a Parquet, ORC or Arrow IPC file's schema", 20, [](CLI::App* app) {
  auto a = std::make_shared<SchemaArgs>();
  app->add_option("file", a->path, "Parquet or ORC file, or Arrow IPC file (.arrow, .feather) or stream (.arrows)")->required();
  app->add_flag("--json", a->json, "Print JSON instead of a tree");
  app->add_option("--row-group", a->row_group, "Check that this row group exists (as `meta` does)");
  app->add_option("--columns", a->columns, "Only these columns (dotted paths; a group selects its leaves)")
      ->delimiter(',');
  return std::function<Status()>([a] { return RunSchema(*a); });
}});

}  // namespace
}  // namespace quiver::cli
