// Apache Arrow's IPC integration files (../shared/testdata/arrow-ipc/integration): each file and
// stream read by quiver against its JSON (schema and every value), or refused with the exact
// message naming the feature quiver lacks.
#include <gtest/gtest.h>
#include <simdjson.h>
#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "quiver/ipc/reader.h"
#include "testing/corpus.h"

namespace quiver::ipc {
namespace {

namespace fs = std::filesystem;
using simdjson::dom::element;

std::string Gunzip(const fs::path& p) {
  gzFile g = gzopen(p.c_str(), "rb");
  std::string out;
  char buf[1 << 16];
  int n;
  while ((n = gzread(g, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  gzclose(g);
  return out;
}

// A JSON column, with its arrays made random-access.
struct JCol {
  int64_t count = 0;
  std::vector<bool> valid;
  std::vector<element> data;
  std::vector<element> offsets;
  std::vector<JCol> children;
  // View columns: each value as the other columns' DATA gives it (hex for binary), from VIEWS
  // (inline bytes, or a data buffer's slice).
  std::vector<std::string> views;
  std::vector<bool> inlined;  // INLINED (hex for binary views, text for string views), else raw bytes
};

std::string Unhex(std::string_view h) {
  std::string out;
  for (size_t i = 0; i + 1 < h.size(); i += 2) out += static_cast<char>(std::stoi(std::string(h.substr(i, 2)), nullptr, 16));
  return out;
}

struct JField {
  std::string name;
  bool nullable = true;
  element type;
  int64_t dict_id = -1;
  std::vector<JField> children;
  KeyValueMetadata metadata;
};

JCol ReadCol(element c) {
  JCol out;
  out.count = int64_t(c["count"]);
  element v;
  if (c["VALIDITY"].get(v) == simdjson::SUCCESS) {
    for (element e : v.get_array()) out.valid.push_back(int64_t(e) != 0);
  } else {
    out.valid.assign(static_cast<size_t>(out.count), true);
  }
  if (c["DATA"].get(v) == simdjson::SUCCESS) for (element e : v.get_array()) out.data.push_back(e);
  if (c["OFFSET"].get(v) == simdjson::SUCCESS) for (element e : v.get_array()) out.offsets.push_back(e);
  if (c["VIEWS"].get(v) == simdjson::SUCCESS) {
    std::vector<std::string> buffers;
    for (element b : c["VARIADIC_DATA_BUFFERS"].get_array()) buffers.push_back(Unhex(std::string_view(b)));
    for (element e : v.get_array()) {
      element inl;
      if (e["INLINED"].get(inl) == simdjson::SUCCESS) {
        out.views.emplace_back(std::string_view(inl));
        out.inlined.push_back(true);
      } else {
        out.inlined.push_back(false);
        out.views.push_back(buffers.at(static_cast<size_t>(int64_t(e["BUFFER_INDEX"])))
                                .substr(static_cast<size_t>(int64_t(e["OFFSET"])), static_cast<size_t>(int64_t(e["SIZE"]))));
      }
    }
  }
  if (c["children"].get(v) == simdjson::SUCCESS) for (element e : v.get_array()) out.children.push_back(ReadCol(e));
  return out;
}

JField ReadJField(element f) {
  JField out;
  out.name = std::string(std::string_view(f["name"]));
  out.nullable = bool(f["nullable"]);
  out.type = f["type"];
  element d;
  if (f["dictionary"].get(d) == simdjson::SUCCESS) out.dict_id = int64_t(d["id"]);
  for (element c : f["children"].get_array()) out.children.push_back(ReadJField(c));
  element md;
  if (f["metadata"].get(md) == simdjson::SUCCESS) {
    for (element kv : md.get_array()) {
      out.metadata.emplace_back(std::string(std::string_view(kv["key"])), std::string(std::string_view(kv["value"])));
    }
  }
  return out;
}

std::string Str(element e) {
  if (e.is_string()) return std::string(std::string_view(e));
  if (e.is_int64()) return std::to_string(int64_t(e));
  if (e.is_uint64()) return std::to_string(uint64_t(e));
  return simdjson::to_string(e);
}

int64_t Int(element e) {
  if (e.is_string()) {
    std::string_view s(e);
    int64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
  }
  return int64_t(e);
}

TimeUnit JsonUnit(std::string_view u) {
  if (u == "SECOND") return TimeUnit::kSecond;
  if (u == "MILLISECOND") return TimeUnit::kMilli;
  if (u == "MICROSECOND") return TimeUnit::kMicro;
  return TimeUnit::kNano;
}

// The quiver type the JSON's type describes (large offsets read as 32-bit ones).
TypePtr JsonType(const JField& f) {
  element t = f.type;
  std::string_view name(t["name"]);
  std::vector<Field> kids;
  for (const auto& c : f.children) kids.push_back(field(c.name, JsonType(c), c.nullable, c.metadata));
  if (name == "bool") return boolean();
  if (name == "int") {
    const int64_t bits = int64_t(t["bitWidth"]);
    const bool sign = bool(t["isSigned"]);
    switch (bits) {
      case 8: return sign ? int8() : uint8();
      case 16: return sign ? int16() : uint16();
      case 32: return sign ? int32() : uint32();
      default: return sign ? int64() : uint64();
    }
  }
  if (name == "floatingpoint") {
    std::string_view p(t["precision"]);
    return p == "HALF" ? float16() : p == "SINGLE" ? float32() : float64();
  }
  if (name == "utf8" || name == "largeutf8" || name == "utf8view") return utf8();
  if (name == "binary" || name == "largebinary" || name == "binaryview") return binary();
  if (name == "fixedsizebinary") return fixed_size_binary(static_cast<int32_t>(int64_t(t["byteWidth"])));
  if (name == "decimal") return decimal128(static_cast<int32_t>(int64_t(t["precision"])), static_cast<int32_t>(int64_t(t["scale"])));
  if (name == "date") return date32();
  if (name == "time") {
    TimeUnit u = JsonUnit(std::string_view(t["unit"]));
    return int64_t(t["bitWidth"]) == 32 ? time32(u) : time64(u);
  }
  if (name == "timestamp") {
    std::string_view tz;
    element z;
    if (t["timezone"].get(z) == simdjson::SUCCESS) tz = std::string_view(z);
    return timestamp(JsonUnit(std::string_view(t["unit"])), std::string(tz));
  }
  if (name == "list" || name == "largelist" || name == "fixedsizelist") return list(kids.at(0));
  if (name == "struct") return struct_(kids);
  if (name == "map") {
    DataType::Params p;
    p.keys_sorted = bool(t["keysSorted"]);
    p.fields = kids;
    return std::make_shared<DataType>(TypeId::kMap, std::move(p));
  }
  return nullptr;
}

std::string Hex(std::string_view b) {
  std::string out;
  for (unsigned char c : b) out += fmt::format("{:02X}", c);
  return out;
}

std::string Int128String(const uint8_t* p) {
  __int128 v;
  std::memcpy(&v, p, 16);
  const bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  return neg ? "-" + s : s;
}

struct Comparer {
  const std::map<int64_t, JCol>* dictionaries;

  // "" when slot i of `a` equals slot ci of the JSON column, else what differs.
  std::string Slot(const ArrayData& a, int64_t i, const JField& jf, bool use_dict, const JCol& c, int64_t ci,
                   const std::string& path) const {
    const std::string where = fmt::format("{}[{}]", path, ci);
    if (ci < 0 || static_cast<size_t>(ci) >= c.valid.size()) return where + ": JSON index out of range";
    if (!c.valid[static_cast<size_t>(ci)]) return a.IsValid(i) ? where + ": quiver has a value, JSON null" : "";
    if (use_dict && jf.dict_id >= 0) {
      const JCol& d = dictionaries->at(jf.dict_id).children.at(0);
      return Slot(a, i, jf, false, d, Int(c.data.at(static_cast<size_t>(ci))), path + "<dict>");
    }
    if (!a.IsValid(i)) return where + ": quiver null, JSON has a value";
    const int64_t ai = a.offset + i;
    switch (a.type->id()) {
      case TypeId::kList:
      case TypeId::kMap: {
        const int32_t* o = a.buffers[1]->data_as<int32_t>();
        int64_t jo, je;
        if (std::string_view(jf.type["name"]) == "fixedsizelist") {
          const int64_t size = int64_t(jf.type["listSize"]);
          jo = ci * size, je = jo + size;
        } else {
          jo = Int(c.offsets.at(static_cast<size_t>(ci))), je = Int(c.offsets.at(static_cast<size_t>(ci) + 1));
        }
        if (o[ai + 1] - o[ai] != je - jo) return fmt::format("{}: {} entries, JSON {}", where, o[ai + 1] - o[ai], je - jo);
        for (int64_t k = 0; k < je - jo; ++k) {
          std::string e = Slot(*a.children[0], o[ai] + k, jf.children[0], true, c.children.at(0), jo + k, path + ".item");
          if (!e.empty()) return e;
        }
        return "";
      }
      case TypeId::kStruct:
        for (size_t k = 0; k < a.children.size(); ++k) {
          std::string e = Slot(*a.children[k], ai, jf.children[k], true, c.children.at(k), ci, path + "." + jf.children[k].name);
          if (!e.empty()) return e;
        }
        return "";
      default: break;
    }
    if (!c.views.empty()) {
      const int32_t* o = a.buffers[1]->data_as<int32_t>();
      std::string got(reinterpret_cast<const char*>(a.buffers[2]->data()) + o[ai], static_cast<size_t>(o[ai + 1] - o[ai]));
      std::string want = c.views.at(static_cast<size_t>(ci));
      if (a.type->id() == TypeId::kBinary) got = Hex(got), want = c.inlined.at(static_cast<size_t>(ci)) ? want : Hex(want);
      return got == want ? "" : fmt::format("{}: quiver {}, JSON {}", where, got, want);
    }
    element v = c.data.at(static_cast<size_t>(ci));
    std::string got, want;
    switch (a.type->id()) {
      case TypeId::kBool:
        got = bit_util::GetBit(a.buffers[1]->data(), ai) ? "true" : "false";
        want = bool(v) ? "true" : "false";
        break;
      case TypeId::kFloat32: {
        const float x = a.buffers[1]->data_as<float>()[ai];
        if (static_cast<float>(double(v)) == x) return "";
        got = fmt::format("{}", x), want = Str(v);
        break;
      }
      case TypeId::kFloat64: {
        const double x = a.buffers[1]->data_as<double>()[ai];
        if (double(v) == x) return "";
        got = fmt::format("{}", x), want = Str(v);
        break;
      }
      case TypeId::kString:
      case TypeId::kBinary: {
        const int32_t* o = a.buffers[1]->data_as<int32_t>();
        std::string_view s(reinterpret_cast<const char*>(a.buffers[2]->data()) + o[ai], static_cast<size_t>(o[ai + 1] - o[ai]));
        got = a.type->id() == TypeId::kString ? std::string(s) : Hex(s);
        want = Str(v);
        break;
      }
      case TypeId::kFixedSizeBinary: {
        const int w = a.type->byte_width();
        got = Hex({reinterpret_cast<const char*>(a.buffers[1]->data()) + ai * w, static_cast<size_t>(w)});
        want = Str(v);
        break;
      }
      case TypeId::kDecimal128:
        got = Int128String(a.buffers[1]->data() + ai * 16);
        want = Str(v);
        break;
      case TypeId::kUInt8: got = std::to_string(a.buffers[1]->data_as<uint8_t>()[ai]); want = Str(v); break;
      case TypeId::kUInt16: got = std::to_string(a.buffers[1]->data_as<uint16_t>()[ai]); want = Str(v); break;
      case TypeId::kUInt32: got = std::to_string(a.buffers[1]->data_as<uint32_t>()[ai]); want = Str(v); break;
      case TypeId::kUInt64: got = std::to_string(a.buffers[1]->data_as<uint64_t>()[ai]); want = Str(v); break;
      case TypeId::kInt8: got = std::to_string(a.buffers[1]->data_as<int8_t>()[ai]); want = Str(v); break;
      case TypeId::kInt16: case TypeId::kFloat16: got = std::to_string(a.buffers[1]->data_as<int16_t>()[ai]); want = Str(v); break;
      case TypeId::kInt32: case TypeId::kDate32: case TypeId::kTime32:
        got = std::to_string(a.buffers[1]->data_as<int32_t>()[ai]); want = Str(v); break;
      default:
        got = std::to_string(a.buffers[1]->data_as<int64_t>()[ai]); want = Str(v); break;
    }
    return got == want ? "" : fmt::format("{}: quiver {}, JSON {}", where, got, want);
  }
};

// The integration files quiver refuses, by name (or producer/name where the producers' files
// differ), with the message it gives: the first field of a type quiver lacks.
std::string Unsupported(const std::string& producer, const std::string& base) {
  auto ni = [](std::string_view field, std::string_view what) {
    return fmt::format("NotImplemented: field '{}': {} is not supported by quiver", field, what);
  };
  static const std::map<std::string, std::string> m = {
      {"generated_datetime", ni("f1", "date64 (milliseconds)")},
      {"generated_decimal256", ni("f0", "decimal256")},
      {"generated_decimal32", ni("f0", "decimal32")},
      {"generated_decimal64", ni("f0", "decimal64")},
      {"generated_duration", ni("f1", "the Arrow type Duration")},
      {"generated_interval", ni("f1", "the Arrow type Duration")},
      {"cpp-21.0.0/generated_interval", ni("f5", "the Arrow type Interval")},
      {"generated_interval_mdn", ni("f1", "the Arrow type Interval")},
      {"generated_list_view", ni("lv", "the Arrow type ListView")},
      {"generated_null", ni("f0", "the Arrow type Null")},
      {"generated_null_trivial", ni("f0", "the Arrow type Null")},
      {"generated_run_end_encoded", ni("ree16_int32", "the Arrow type RunEndEncoded")},
      // Unions are read (sparse ones as dense); these files' last union has a Null member.
      {"generated_union", ni("dense.f3", "the Arrow type Null")},
      {"cpp-21.0.0/generated_union", ni("dense_2.f3", "the Arrow type Null")},
  };
  if (auto it = m.find(producer + "/" + base); it != m.end()) return it->second;
  if (auto it = m.find(base); it != m.end()) return it->second;
  return "";
}

struct Outcome {
  int batches = 0;
  std::string error;  // "Code: detail" when the file was refused
};

// Reads `file` and checks it against `json`; an empty string when every value matches.
std::string Check(const fs::path& file, const fs::path& json, Outcome* outcome) {
  simdjson::dom::parser parser;
  const std::string text = Gunzip(json);
  element doc = parser.parse(text);
  auto reader = IpcReader::Open(file.string());
  auto fail = [&](const Status& st) {
    outcome->error = fmt::format("{}", st.ToString().substr(0, st.ToString().find(':'))) + ": " + std::string(st.detail());
    return std::string();
  };
  if (!reader.ok()) return fail(reader.status());
  std::vector<JField> jfields;
  for (element f : doc["schema"]["fields"].get_array()) jfields.push_back(ReadJField(f));
  const Schema& schema = *(*reader)->schema();
  if (schema.num_fields() != static_cast<int>(jfields.size())) return "field count differs";
  for (int i = 0; i < schema.num_fields(); ++i) {
    const JField& jf = jfields[static_cast<size_t>(i)];
    const Field& qf = schema.field(i);
    TypePtr want = JsonType(jf);
    // The producers write custom metadata in their own order; the 1.0.0 and cpp-21 streams of
    // generated_map_non_canonical carry the canonical entries/key/value names that their JSON
    // and file do not, so a map's inner names are compared only through the file.
    auto sorted = [](KeyValueMetadata m) { std::sort(m.begin(), m.end()); return m; };
    const bool same_type = want && (qf.type->Equals(*want) ||
                                    (file.extension() == ".stream" && want->id() == TypeId::kMap &&
                                     qf.type->ToString() == want->ToString()));
    if (qf.name != jf.name || qf.nullable != jf.nullable || !same_type || sorted(qf.metadata) != sorted(jf.metadata)) {
      return fmt::format("field {}: quiver {} (nullable {}, {} metadata), JSON {} (nullable {}, {} metadata)", i,
                         qf.ToString(), qf.nullable, qf.metadata.size(), want ? want->ToString() : simdjson::to_string(jf.type),
                         jf.nullable, jf.metadata.size());
    }
  }
  std::map<int64_t, JCol> dictionaries;
  element dicts;
  if (doc["dictionaries"].get(dicts) == simdjson::SUCCESS) {
    for (element d : dicts.get_array()) {
      JCol holder;
      holder.children.push_back(ReadCol(d["data"]["columns"].at(0)));
      dictionaries[int64_t(d["id"])] = std::move(holder);
    }
  }
  Comparer cmp{&dictionaries};
  std::vector<element> jbatches;
  for (element b : doc["batches"].get_array()) jbatches.push_back(b);
  for (;;) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) return fail(batch.status());
    if (*batch == nullptr) break;
    const size_t n = static_cast<size_t>(outcome->batches++);
    if (n >= jbatches.size()) return "more batches than the JSON";
    if ((*batch)->num_rows() != int64_t(jbatches[n]["count"])) return fmt::format("batch {}: row count", n);
    size_t k = 0;
    for (element jc : jbatches[n]["columns"].get_array()) {
      JCol col = ReadCol(jc);
      const Array& a = (*batch)->column(static_cast<int>(k));
      for (int64_t r = 0; r < a.length(); ++r) {
        std::string e = cmp.Slot(*a.data(), r, jfields[k], true, col, r, fmt::format("batch {} {}", n, jfields[k].name));
        if (!e.empty()) return e;
      }
      ++k;
    }
  }
  if (static_cast<size_t>(outcome->batches) != jbatches.size()) return "fewer batches than the JSON";
  return "";
}

TEST(IpcIntegration, EveryFileMatchesItsJsonOrIsRefusedClearly) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "arrow-ipc" / "integration";
  std::set<fs::path> jsons;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().string().ends_with(".json.gz")) jsons.insert(e.path());
  }
  ASSERT_EQ(jsons.size(), 91u);
  int matched = 0, refused = 0;
  for (const fs::path& json : jsons) {
    const std::string base = json.filename().string().substr(0, json.filename().string().size() - 8);
    const bool big_endian = json.parent_path().filename().string().find("bigendian") != std::string::npos;
    for (const char* ext : {".arrow_file", ".stream"}) {
      const fs::path file = json.parent_path() / (base + ext);
      if (!fs::exists(file)) continue;
      SCOPED_TRACE(file.string());
      Outcome o;
      const std::string diff = Check(file, json, &o);
      EXPECT_EQ(diff, "");
      std::string want;
      if (big_endian) {
        want = "NotImplemented: the Arrow IPC data is big-endian; quiver reads little-endian data only";
      } else {
        want = Unsupported(json.parent_path().filename().string(), base);
      }
      EXPECT_EQ(o.error, want);
      (o.error.empty() ? matched : refused)++;
    }
  }
  std::printf("integration files: %d matched their JSON, %d refused\n", matched, refused);
}

}  // namespace
}  // namespace quiver::ipc
