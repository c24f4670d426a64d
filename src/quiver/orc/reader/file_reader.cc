// OrcFileReader (file_reader.h): the tail read from the end of the file, types mapped to quiver
// types, stripes fetched stream by stream and decoded on the thread pool.
#include "quiver/orc/reader/file_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

#include "quiver/core/utf8.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/column_reader_internal.h"
#include "quiver/orc/reader/decompress_internal.h"

namespace quiver::orc {

namespace tk = format::type_kind;

struct OrcFileReader::Impl {
  std::shared_ptr<io::RandomAccessFile> file;
  OrcReaderOptions options;
  PostScript ps;
  Footer footer;
  std::string metadata_bytes;  // decompressed, decoded on first use
  std::once_flag metadata_once;
  Result<Metadata> metadata = Metadata{};
  uint64_t block_size = format::kDefaultCompressionBlockSize;
  int64_t num_rows = 0;
  bool decimal64_v2 = false;
  std::vector<ColumnInfo> columns;
  SchemaPtr schema;
  bool root_is_struct = true;

  Status Corrupt(std::string what) const { return Status::Corrupt(std::move(what)).WithContext(file->path()); }
  Result<std::shared_ptr<Buffer>> Decompress(int64_t offset, int64_t length, const char* what) const {
    QUIVER_ASSIGN_OR_RETURN(auto raw, file->ReadAt(offset, length, options.pool));
    auto r = DecompressStream(ps.compression, block_size, raw->span(), raw, options.pool);
    if (!r.ok()) return r.status().WithContext(what);
    return r;
  }
  Status BuildColumns();
  Status BuildColumn(uint32_t id, const std::string& name, int depth);
};

namespace {

std::string EscapeName(std::string_view s) { return EscapeForMessage(s); }

}  // namespace

Status OrcFileReader::Impl::BuildColumn(uint32_t id, const std::string& name, int depth) {
  if (depth > 100) return Corrupt(fmt::format("column id {} ('{}') is nested more than 100 deep", id, name));
  const Type& t = footer.types[id];
  ColumnInfo& c = columns[id];
  if (c.type != nullptr || !c.name.empty()) return Corrupt(fmt::format("column id {} is the child of two types", id));
  c.kind = t.kind;
  c.name = name;
  const size_t want_children = t.kind == tk::kList ? 1 : t.kind == tk::kMap ? 2 : (t.kind == tk::kStruct || t.kind == tk::kUnion) ? t.subtypes.size() : 0;
  if (t.subtypes.size() != want_children) {
    return Corrupt(fmt::format("column '{}' ({}) has {} subtypes", name, format::TypeKindName(t.kind) ? format::TypeKindName(t.kind) : "?", t.subtypes.size()));
  }
  if (t.kind == tk::kStruct && t.field_names.size() != t.subtypes.size()) {
    return Corrupt(fmt::format("struct column '{}' has {} subtypes but {} field names", name, t.subtypes.size(), t.field_names.size()));
  }
  for (size_t i = 0; i < t.subtypes.size(); ++i) {
    uint32_t child = t.subtypes[i];
    // Column ids are in pre-order: a child's id is larger than its parent's (no cycles).
    if (child <= id || child >= footer.types.size()) {
      return Corrupt(fmt::format("column '{}' names subtype {}, outside ({}, {})", name, child, id, footer.types.size()));
    }
    std::string child_name = t.kind == tk::kStruct ? t.field_names[i]
                             : t.kind == tk::kList ? "item"
                             : t.kind == tk::kMap ? (i == 0 ? "key" : "value")
                                                  : fmt::format("tag{}", i);
    QUIVER_RETURN_NOT_OK(BuildColumn(child, name.empty() ? child_name : name + "." + child_name, depth + 1));
    c.children.push_back(child);
    c.child_names.push_back(child_name);
  }
  switch (t.kind) {
    case tk::kBoolean: c.type = boolean(); break;
    case tk::kByte: c.type = int8(); break;
    case tk::kShort: c.type = int16(); break;
    case tk::kInt: c.type = int32(); break;
    case tk::kLong: c.type = int64(); break;
    case tk::kFloat: c.type = float32(); break;
    case tk::kDouble: c.type = float64(); break;
    case tk::kString:
    case tk::kVarchar:
    case tk::kChar: c.type = utf8(); break;
    case tk::kBinary: c.type = binary(); break;
    case tk::kTimestamp: c.type = timestamp(TimeUnit::kNano); break;
    case tk::kTimestampInstant: c.type = timestamp(TimeUnit::kNano, "UTC"); break;
    case tk::kDate: c.type = date32(); break;
    case tk::kDecimal: {
      // Hive 0.11 wrote decimals without precision or scale: read as Apache ORC does, at scale 6.
      c.legacy_decimal = !t.precision.has_value() || *t.precision == 0;
      c.precision = c.legacy_decimal ? 38 : static_cast<int32_t>(*t.precision);
      c.scale = c.legacy_decimal ? 6 : static_cast<int32_t>(t.scale.value_or(0));
      if (c.precision < 1 || c.precision > 38 || c.scale < 0 || c.scale > c.precision) {
        return Corrupt(fmt::format("decimal column '{}' has precision {} and scale {}", name, c.precision, c.scale));
      }
      c.decimal64_v2 = decimal64_v2 && c.precision <= 18;
      c.type = decimal128(c.precision, c.scale);
      break;
    }
    case tk::kList: c.type = list(field("item", columns[c.children[0]].type)); break;
    case tk::kMap: c.type = map(columns[c.children[0]].type, columns[c.children[1]].type); break;
    case tk::kStruct: {
      std::vector<Field> fields;
      for (size_t i = 0; i < c.children.size(); ++i) fields.push_back(field(c.child_names[i], columns[c.children[i]].type));
      c.type = struct_(std::move(fields));
      break;
    }
    case tk::kUnion: {  // a dense union whose type codes are the ORC tags (union_reader_internal.h)
      if (c.children.size() > 128) {
        return Status::NotImplemented(fmt::format("{}: union column '{}' has {} members, more than the 128 type codes of a dense union",
                                                  file->path(), name, c.children.size()));
      }
      std::vector<Field> members;
      for (size_t i = 0; i < c.children.size(); ++i) members.push_back(field(c.child_names[i], columns[c.children[i]].type));
      c.type = dense_union(std::move(members));
      break;
    }
    default:
      return Status::NotImplemented(fmt::format("{}: column '{}' has ORC type {}, which quiver does not read", file->path(), name,
                                                format::TypeKindName(t.kind) ? format::TypeKindName(t.kind) : fmt::format("#{}", t.kind)));
  }
  return Status::OK();
}

Status OrcFileReader::Impl::BuildColumns() {
  if (footer.types.empty()) {
    // An empty file's footer may carry no types at all: a struct with no fields.
    footer.types.push_back(Type{tk::kStruct, {}, {}, {}, {}, {}, {}});
  }
  columns.assign(footer.types.size(), ColumnInfo{});
  QUIVER_RETURN_NOT_OK(BuildColumn(0, "", 0));
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].type == nullptr) return Corrupt(fmt::format("column id {} belongs to no type", i));
  }
  root_is_struct = columns[0].kind == tk::kStruct;
  std::vector<Field> fields;
  if (root_is_struct) {
    for (size_t i = 0; i < columns[0].children.size(); ++i) fields.push_back(field(columns[0].child_names[i], columns[columns[0].children[i]].type));
  } else {
    columns[0].name = "_col0";
    fields.push_back(field("_col0", columns[0].type));
  }
  schema = std::make_shared<Schema>(std::move(fields));
  return Status::OK();
}

OrcFileReader::OrcFileReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
OrcFileReader::~OrcFileReader() = default;

Result<std::unique_ptr<OrcFileReader>> OrcFileReader::Open(const std::string& path, OrcReaderOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path));
  return Open(std::move(file), options);
}

Result<std::unique_ptr<OrcFileReader>> OrcFileReader::Open(std::shared_ptr<io::RandomAccessFile> file, OrcReaderOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->file = std::move(file);
  impl->options = options;
  Impl& m = *impl;
  const int64_t size = m.file->size();
  if (size == 0) return m.Corrupt("the file is empty (0 bytes), not an ORC file");
  if (size < 4) return m.Corrupt(fmt::format("{} bytes are too few for an ORC file", size));
  // The tail: the last byte is the PostScript's length; read up to 16 KiB at once.
  const int64_t tail_guess = std::min<int64_t>(size, 16384);
  QUIVER_ASSIGN_OR_RETURN(auto tail, m.file->ReadAt(size - tail_guess, tail_guess, options.pool));
  const uint8_t ps_len = tail->data()[tail_guess - 1];
  if (ps_len == 0 || ps_len + 1 > size) {
    return m.Corrupt(fmt::format("the PostScript length {} in the last byte does not fit the file of {} bytes (not an ORC file?)", ps_len, size));
  }
  std::string_view ps_bytes(reinterpret_cast<const char*>(tail->data()) + tail_guess - 1 - ps_len, ps_len);
  auto ps = DecodePostScript(ps_bytes);
  if (!ps.ok()) return ps.status().WithContext(fmt::format("{}: not an ORC file, or its PostScript is damaged", m.file->path()));
  m.ps = std::move(*ps);
  if (m.ps.magic.has_value() && *m.ps.magic != "ORC") {
    return m.Corrupt(fmt::format("the PostScript's magic is \"{}\", not \"ORC\"", EscapeName(*m.ps.magic)));
  }
  if (!m.ps.magic.has_value()) {
    // Hive 0.11 files: no magic in the PostScript, but "ORC" at the start of the file.
    QUIVER_ASSIGN_OR_RETURN(auto head, m.file->ReadAt(0, 3, options.pool));
    if (std::memcmp(head->data(), format::kMagic, 3) != 0) return m.Corrupt("not an ORC file (no \"ORC\" magic at its start or in its PostScript)");
  }
  if (!m.ps.version.empty() && m.ps.version[0] > 1) {
    return Status::NotImplemented(fmt::format("{}: ORC file format version {}, newer than quiver reads (0.11, 0.12 and 1.x)",
                                              m.file->path(), fmt::join(m.ps.version, ".")));
  }
  m.decimal64_v2 = m.ps.version.size() >= 2 && m.ps.version[0] == 1 && m.ps.version[1] == 9999;
  if (!IsCompressionSupported(m.ps.compression)) {
    const char* name = format::CompressionName(m.ps.compression);
    return Status::NotImplemented(fmt::format("{}: ORC compression {} is not supported (NONE, ZLIB, SNAPPY, LZO, LZ4, ZSTD)",
                                              m.file->path(), name ? std::string(name) : fmt::format("#{}", m.ps.compression)));
  }
  if (m.ps.compression_block_size.has_value()) {
    if (*m.ps.compression_block_size == 0 || *m.ps.compression_block_size > (uint64_t{1} << 30)) {
      return m.Corrupt(fmt::format("compression block size {} is out of range", *m.ps.compression_block_size));
    }
    m.block_size = *m.ps.compression_block_size;
  }
  const uint64_t tail_fixed = 1 + uint64_t{ps_len};
  if (m.ps.footer_length > static_cast<uint64_t>(size) || m.ps.metadata_length > static_cast<uint64_t>(size) ||
      tail_fixed + m.ps.footer_length + m.ps.metadata_length > static_cast<uint64_t>(size)) {
    return m.Corrupt(fmt::format("footer ({} bytes) and metadata ({} bytes) do not fit the file of {} bytes", m.ps.footer_length,
                                 m.ps.metadata_length, size));
  }
  const int64_t footer_offset = size - static_cast<int64_t>(tail_fixed + m.ps.footer_length);
  QUIVER_ASSIGN_OR_RETURN(auto footer_bytes, m.Decompress(footer_offset, static_cast<int64_t>(m.ps.footer_length), "footer"));
  auto footer = DecodeFooter(footer_bytes->view());
  if (!footer.ok()) return footer.status().WithContext(m.file->path());
  m.footer = std::move(*footer);
  const int64_t metadata_offset = footer_offset - static_cast<int64_t>(m.ps.metadata_length);
  if (m.ps.metadata_length > 0) {
    QUIVER_ASSIGN_OR_RETURN(auto md, m.Decompress(metadata_offset, static_cast<int64_t>(m.ps.metadata_length), "metadata"));
    m.metadata_bytes.assign(md->view());
  }
  // Stripes lie between the header and the metadata.
  uint64_t rows = 0;
  for (size_t i = 0; i < m.footer.stripes.size(); ++i) {
    const StripeInformation& s = m.footer.stripes[i];
    uint64_t end = s.offset;
    bool overflow = __builtin_add_overflow(end, s.index_length, &end) || __builtin_add_overflow(end, s.data_length, &end) ||
                    __builtin_add_overflow(end, s.footer_length, &end);
    if (overflow || s.offset < 3 || end > static_cast<uint64_t>(metadata_offset)) {
      return m.Corrupt(fmt::format("stripe {} (offset {}, {} + {} + {} bytes) lies outside the file's data ({} bytes)", i, s.offset,
                                   s.index_length, s.data_length, s.footer_length, metadata_offset));
    }
    if (s.number_of_rows > (uint64_t{1} << 40)) return m.Corrupt(fmt::format("stripe {} claims {} rows", i, s.number_of_rows));
    rows += s.number_of_rows;
  }
  if (m.footer.number_of_rows.has_value() && *m.footer.number_of_rows != rows) {
    return m.Corrupt(fmt::format("the footer counts {} rows but its stripes hold {}", *m.footer.number_of_rows, rows));
  }
  m.num_rows = static_cast<int64_t>(rows);
  // Column encryption: the stripes' ordinary streams of an encrypted column hold its masked
  // values (nulls, redacted or hashed text), which are read as the column's values; the
  // encrypted variants are left alone (quiver has no key access).
  QUIVER_RETURN_NOT_OK(m.BuildColumns());
  return std::unique_ptr<OrcFileReader>(new OrcFileReader(std::move(impl)));
}

const std::string& OrcFileReader::path() const { return impl_->file->path(); }
const OrcReaderOptions& OrcFileReader::options() const { return impl_->options; }
const PostScript& OrcFileReader::postscript() const { return impl_->ps; }
const Footer& OrcFileReader::footer() const { return impl_->footer; }
int64_t OrcFileReader::num_rows() const { return impl_->num_rows; }
int OrcFileReader::num_stripes() const { return static_cast<int>(impl_->footer.stripes.size()); }
int64_t OrcFileReader::file_size() const { return impl_->file->size(); }
const SchemaPtr& OrcFileReader::schema() const { return impl_->schema; }

std::string OrcFileReader::version_string() const {
  const auto& v = impl_->ps.version;
  if (v.empty()) return "0.11";
  return fmt::format("{}", fmt::join(v, "."));
}

Result<const Metadata*> OrcFileReader::metadata() {
  std::call_once(impl_->metadata_once, [this] {
    auto m = DecodeMetadata(impl_->metadata_bytes);
    impl_->metadata = m.ok() ? std::move(m) : Result<Metadata>(m.status().WithContext(path()));
  });
  if (!impl_->metadata.ok()) return impl_->metadata.status();
  return &*impl_->metadata;
}

std::string OrcFileReader::TypeString(uint32_t id) const {
  const Type& t = impl_->footer.types[id];
  const ColumnInfo& c = impl_->columns[id];
  switch (t.kind) {
    case tk::kBoolean: return "boolean";
    case tk::kByte: return "tinyint";
    case tk::kShort: return "smallint";
    case tk::kInt: return "int";
    case tk::kLong: return "bigint";
    case tk::kFloat: return "float";
    case tk::kDouble: return "double";
    case tk::kString: return "string";
    case tk::kBinary: return "binary";
    case tk::kTimestamp: return "timestamp";
    case tk::kTimestampInstant: return "timestamp with local time zone";
    case tk::kDate: return "date";
    case tk::kVarchar: return fmt::format("varchar({})", t.maximum_length.value_or(0));
    case tk::kChar: return fmt::format("char({})", t.maximum_length.value_or(0));
    case tk::kDecimal: return fmt::format("decimal({},{})", c.precision, c.scale);
    case tk::kList: return fmt::format("array<{}>", TypeString(c.children[0]));
    case tk::kMap: return fmt::format("map<{},{}>", TypeString(c.children[0]), TypeString(c.children[1]));
    case tk::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < c.children.size(); ++i) {
        s += fmt::format("{}{}:{}", i ? "," : "", c.child_names[i], TypeString(c.children[i]));
      }
      return s + ">";
    }
    case tk::kUnion: {
      std::string s = "uniontype<";
      for (size_t i = 0; i < c.children.size(); ++i) s += fmt::format("{}{}", i ? "," : "", TypeString(c.children[i]));
      return s + ">";
    }
    default: return "unknown";
  }
}

Result<uint32_t> OrcFileReader::ColumnIdOf(const std::string& path) const {
  const auto& cols = impl_->columns;
  if (!impl_->root_is_struct) {
    if (path == "_col0") return 0u;
  } else {
    uint32_t id = 0;
    size_t start = 0;
    // A top-level name may itself hold dots: the whole path is tried before splitting.
    while (true) {
      const ColumnInfo& c = cols[id];
      if (c.kind != tk::kStruct) break;
      std::string rest = path.substr(start);
      bool found = false;
      for (size_t i = 0; i < c.children.size(); ++i) {
        if (c.child_names[i] == rest) return c.children[i];
      }
      size_t dot = path.find('.', start);
      while (dot != std::string::npos && !found) {
        std::string head = path.substr(start, dot - start);
        for (size_t i = 0; i < c.children.size(); ++i) {
          if (c.child_names[i] == head) {
            id = c.children[i];
            start = dot + 1;
            found = true;
            break;
          }
        }
        if (!found) dot = path.find('.', dot + 1);
      }
      if (!found) break;
    }
  }
  std::vector<std::string> names;
  for (const auto& f : impl_->schema->fields()) names.push_back(f.name);
  return Status::Invalid(fmt::format("{}: no column '{}' (the file has {})", path.empty() ? "" : impl_->file->path(),
                                     EscapeName(path), fmt::join(names, ", ")));
}

Result<OrcFileReader::Selection> OrcFileReader::Select(const std::vector<std::string>& paths) const {
  Selection s;
  if (paths.empty()) {
    if (impl_->root_is_struct) {
      s.roots = impl_->columns[0].children;
    } else {
      s.roots = {0};
    }
    return s;
  }
  for (const auto& p : paths) {
    QUIVER_ASSIGN_OR_RETURN(uint32_t id, ColumnIdOf(p));
    if (std::find(s.roots.begin(), s.roots.end(), id) == s.roots.end()) s.roots.push_back(id);
  }
  return s;
}

namespace {

// Which column ids a selection reads: each chosen subtree, and the structs above it.
struct Plan {
  std::vector<bool> included;
  std::vector<uint32_t> top;  // top-level column ids to decode, in file order
};

Plan MakePlan(const std::vector<ColumnInfo>& cols, bool root_is_struct, const OrcFileReader::Selection& sel) {
  Plan p;
  p.included.assign(cols.size(), false);
  std::vector<uint32_t> parent(cols.size(), 0);
  for (uint32_t i = 0; i < cols.size(); ++i) {
    for (uint32_t c : cols[i].children) parent[c] = i;
  }
  for (uint32_t r : sel.roots) {
    // The subtree: pre-order ids r..last descendant.
    std::vector<uint32_t> stack = {r};
    while (!stack.empty()) {
      uint32_t x = stack.back();
      stack.pop_back();
      p.included[x] = true;
      for (uint32_t c : cols[x].children) stack.push_back(c);
    }
    for (uint32_t a = r; a != 0;) {
      a = parent[a];
      p.included[a] = true;
    }
  }
  p.included[0] = true;
  if (root_is_struct) {
    for (uint32_t c : cols[0].children) {
      if (p.included[c]) p.top.push_back(c);
    }
  } else {
    p.top.push_back(0);
  }
  return p;
}

}  // namespace

SchemaPtr OrcFileReader::SelectedSchema(const Selection& selection) const {
  Plan plan = MakePlan(impl_->columns, impl_->root_is_struct, selection);
  std::vector<Field> fields;
  const ColumnInfo& root = impl_->columns[0];
  for (uint32_t id : plan.top) {
    std::string name = "_col0";
    if (impl_->root_is_struct) {
      name = root.child_names[static_cast<size_t>(std::find(root.children.begin(), root.children.end(), id) - root.children.begin())];
    }
    fields.push_back(field(std::move(name), IncludedType(impl_->columns, plan.included, id)));
  }
  return std::make_shared<Schema>(std::move(fields));
}

Result<StripeFooter> OrcFileReader::ReadStripeFooter(int stripe) const {
  const StripeInformation& s = impl_->footer.stripes[static_cast<size_t>(stripe)];
  auto ctx = fmt::format("{}: stripe {}", path(), stripe);
  auto bytes = impl_->Decompress(static_cast<int64_t>(s.offset + s.index_length + s.data_length),
                                 static_cast<int64_t>(s.footer_length), "stripe footer");
  if (!bytes.ok()) return bytes.status().WithContext(ctx);
  auto f = DecodeStripeFooter((*bytes)->view());
  if (!f.ok()) return f.status().WithContext(ctx);
  // Streams lie back to back from the stripe's start and must end inside its index and data.
  uint64_t total = 0;
  for (const auto& st : f->streams) {
    if (st.length > s.index_length + s.data_length || __builtin_add_overflow(total, st.length, &total)) total = UINT64_MAX;
  }
  if (total > s.index_length + s.data_length) {
    return Status::Corrupt(fmt::format("its streams add up to more than the stripe's {} bytes of index and data",
                                       s.index_length + s.data_length)).WithContext(ctx);
  }
  return f;
}

Result<std::shared_ptr<Buffer>> OrcFileReader::StoredStream(int stripe, const StripeFooter& footer, uint32_t column, uint32_t kind) const {
  const StripeInformation& s = impl_->footer.stripes[static_cast<size_t>(stripe)];
  uint64_t offset = s.offset;
  for (const auto& st : footer.streams) {
    if (st.column == column && st.kind == kind) return impl_->file->ReadAt(static_cast<int64_t>(offset), static_cast<int64_t>(st.length), impl_->options.pool);
    offset += st.length;
  }
  return std::shared_ptr<Buffer>();
}

Result<std::shared_ptr<Buffer>> OrcFileReader::ReadStream(int stripe, const StripeFooter& footer, uint32_t column, uint32_t kind) const {
  const StripeInformation& s = impl_->footer.stripes[static_cast<size_t>(stripe)];
  uint64_t offset = s.offset;
  for (const auto& st : footer.streams) {
    if (st.column == column && st.kind == kind) {
      auto r = impl_->Decompress(static_cast<int64_t>(offset), static_cast<int64_t>(st.length),
                                 format::StreamKindName(kind) ? format::StreamKindName(kind) : "stream");
      return r;
    }
    offset += st.length;
  }
  return std::shared_ptr<Buffer>();
}

struct OrcFileReader::StripeCursor::State {
  const OrcFileReader* reader = nullptr;
  int stripe = 0;
  int64_t rows = 0;
  StripeFooter footer;
  std::shared_ptr<const TimeZone> zone;
  Plan plan;
  MemoryPool* pool = nullptr;
  std::vector<std::unique_ptr<StripeStreams>> columns;  // by top-level index, made at first use
};

OrcFileReader::StripeCursor::StripeCursor(std::unique_ptr<State> state) : state_(std::move(state)) {}
OrcFileReader::StripeCursor::~StripeCursor() = default;
int OrcFileReader::StripeCursor::stripe() const { return state_->stripe; }
int64_t OrcFileReader::StripeCursor::num_rows() const { return state_->rows; }
size_t OrcFileReader::StripeCursor::num_columns() const { return state_->plan.top.size(); }
void OrcFileReader::StripeCursor::Close(size_t k) { state_->columns[k].reset(); }

Result<std::shared_ptr<ArrayData>> OrcFileReader::StripeCursor::Next(size_t k, int64_t rows) {
  State& st = *state_;
  const Impl& m = *st.reader->impl_;
  const uint32_t id = st.plan.top[k];
  if (st.columns[k] == nullptr) {
    const OrcFileReader* reader = st.reader;
    const int s = st.stripe;
    const StripeFooter* footer = &st.footer;
    auto fetch = [reader, s, footer](uint32_t column, uint32_t kind) { return reader->StoredStream(s, *footer, column, kind); };
    st.columns[k] = std::make_unique<StripeStreams>(&st.footer, fetch, st.zone, m.ps.compression, m.block_size, st.pool);
  }
  auto r = DecodeColumn(m.columns, st.plan.included, *st.columns[k], id, rows, nullptr, st.pool);
  if (!r.ok()) return r.status().WithContext(fmt::format("{}: stripe {}: column '{}'", st.reader->path(), st.stripe, m.columns[id].name));
  return r;
}

Result<std::unique_ptr<OrcFileReader::StripeCursor>> OrcFileReader::OpenStripe(int stripe, const Selection& selection,
                                                                               MemoryPool* pool) const {
  if (stripe < 0 || stripe >= num_stripes()) {
    return Status::Invalid(fmt::format("{}: no stripe {} (the file has {})", path(), stripe, num_stripes()));
  }
  auto st = std::make_unique<StripeCursor::State>();
  st->reader = this;
  st->stripe = stripe;
  st->rows = static_cast<int64_t>(impl_->footer.stripes[static_cast<size_t>(stripe)].number_of_rows);
  st->pool = pool;
  QUIVER_ASSIGN_OR_RETURN(st->footer, ReadStripeFooter(stripe));
  auto zone = TimeZone::Load(st->footer.writer_timezone.value_or("UTC"));
  if (!zone.ok()) return zone.status().WithContext(fmt::format("{}: stripe {}", path(), stripe));
  st->zone = *zone;
  st->plan = MakePlan(impl_->columns, impl_->root_is_struct, selection);
  st->columns.resize(st->plan.top.size());
  return std::unique_ptr<StripeCursor>(new StripeCursor(std::move(st)));
}

Result<std::vector<std::shared_ptr<RecordBatch>>> OrcFileReader::ReadStripes(const std::vector<int>& stripes,
                                                                            const Selection& selection) const {
  const Impl& m = *impl_;
  SchemaPtr schema = SelectedSchema(selection);
  std::vector<std::unique_ptr<StripeCursor>> cursors;
  for (int s : stripes) {
    QUIVER_ASSIGN_OR_RETURN(auto c, OpenStripe(s, selection, m.options.pool));
    cursors.push_back(std::move(c));
  }
  const size_t ncols = cursors.empty() ? 0 : cursors[0]->num_columns();
  std::vector<std::vector<std::shared_ptr<ArrayData>>> columns(stripes.size(), std::vector<std::shared_ptr<ArrayData>>(ncols));
  // Each task keeps its own error, and the first in (stripe, column) order is reported, so a
  // file with several problems names the same one whatever the threads.
  std::vector<Status> errors(stripes.size() * ncols);
  std::atomic<size_t> first_failed{SIZE_MAX};  // tasks after it need not run
  TaskGroup group(m.options.thread_pool);
  for (size_t i = 0; i < stripes.size(); ++i) {
    for (size_t k = 0; k < ncols; ++k) {
      group.Submit([&cursors, &columns, &errors, &first_failed, ncols, i, k]() -> Status {
        const size_t slot = i * ncols + k;
        if (slot > first_failed.load(std::memory_order_relaxed)) return Status::OK();
        StripeCursor& c = *cursors[i];
        auto r = c.Next(k, c.num_rows());
        c.Close(k);
        if (!r.ok()) {
          errors[slot] = r.status();
          size_t cur = first_failed.load();
          while (slot < cur && !first_failed.compare_exchange_weak(cur, slot)) {
          }
          return Status::OK();
        }
        columns[i][k] = std::move(*r);
        return Status::OK();
      });
    }
  }
  QUIVER_RETURN_NOT_OK(group.Wait());
  for (auto& e : errors) QUIVER_RETURN_NOT_OK(e);
  std::vector<std::shared_ptr<RecordBatch>> out;
  for (size_t i = 0; i < stripes.size(); ++i) {
    std::vector<Array> arrays;
    for (auto& d : columns[i]) arrays.emplace_back(std::move(d));
    out.push_back(std::make_shared<RecordBatch>(schema, cursors[i]->num_rows(), std::move(arrays)));
  }
  return out;
}

Result<std::shared_ptr<RecordBatch>> OrcFileReader::ReadStripe(int stripe, const Selection& selection) const {
  QUIVER_ASSIGN_OR_RETURN(auto v, ReadStripes({stripe}, selection));
  return v[0];
}

}  // namespace quiver::orc
