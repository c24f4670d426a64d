// Decodes the files of parquet-testing and compares every value with DuckDB's oracle
// (expected/<file>.jsonl and .columns.tsv), printing quiver's values the way expected/README.md
// specifies; bad files must fail with a Status, never crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "parquet/corpus_util.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/parquet/reader/file_reader.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

namespace fs = std::filesystem;
using parquet::testing::SplitTabs;

// ---- value formatting, expected/README.md ----

template <class F>
std::string JsonFloat(F v, bool quote_special = true) {
  const char* q = quote_special ? "\"" : "";
  if (std::isnan(v)) return std::string(q) + "NaN" + q;
  if (std::isinf(v)) return std::string(q) + (v > 0 ? "Infinity" : "-Infinity") + q;
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t e = sci.find('e');
  std::string d = sci.substr(0, e);
  d.erase(std::remove(d.begin(), d.end(), '.'), d.end());
  int n = std::stoi(sci.substr(e + 1)) + 1, k = static_cast<int>(d.size());
  std::string out;
  if (k <= n && n <= 21) out = d + std::string(static_cast<size_t>(n - k), '0');
  else if (0 < n && n <= 21) out = d.substr(0, static_cast<size_t>(n)) + "." + d.substr(static_cast<size_t>(n));
  else if (-6 < n && n <= 0) out = "0." + std::string(static_cast<size_t>(-n), '0') + d;
  else
    out = (k == 1 ? d : d.substr(0, 1) + "." + d.substr(1)) + "e" + (n - 1 >= 0 ? "+" : "-") +
          std::to_string(std::abs(n - 1));
  return (neg ? "-" : "") + out;
}

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", c);
          out += b;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string Hex(std::string_view s) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : s) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string Int128ToString(__int128 v) {
  std::string out;
  FormatDecimal(v, 0, &out);
  return out;
}

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

std::string CivilDate(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t y = yoe + era * 400;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
  char buf[64];
  if (y >= 0 && y <= 9999) std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", (long long)y, (long long)m, (long long)d);
  else std::snprintf(buf, sizeof buf, "%c%04lld-%02lld-%02lld", y < 0 ? '-' : '+', (long long)std::llabs(y), (long long)m, (long long)d);
  return buf;
}

// "HH:MM:SS" plus a fraction of `digits` digits when it is non-zero.
std::string TimeOfDay(int64_t units_in_day, int64_t per_second, int digits) {
  const int64_t secs = units_in_day / per_second, frac = units_in_day % per_second;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", (long long)(secs / 3600), (long long)(secs / 60 % 60),
                (long long)(secs % 60));
  std::string out = buf;
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, ".%0*lld", digits, (long long)frac);
    out += buf;
  }
  return out;
}

int64_t UnitsPerSecond(quiver::TimeUnit u) {
  switch (u) {
    case quiver::TimeUnit::kSecond: return 1;
    case quiver::TimeUnit::kMilli: return 1000;
    case quiver::TimeUnit::kMicro: return 1000000;
    case quiver::TimeUnit::kNano: return 1000000000;
  }
  return 1;
}

// A temporal value as DuckDB shows it: nanoseconds for *_NS types, else microseconds.
int64_t ToDuckUnits(int64_t v, quiver::TimeUnit unit, bool ns) {
  const int64_t have = UnitsPerSecond(unit), want = ns ? 1000000000 : 1000000;
  return have >= want ? FloorDiv(v, have / want) : v * (want / have);
}

__int128 IntValue(const Array& a, int64_t i) {
  const ArrayData& d = *a.data();
  const int64_t k = d.offset + i;
  switch (a.type_id()) {
    case TypeId::kInt8: return d.buffers[1]->data_as<int8_t>()[k];
    case TypeId::kInt16: return d.buffers[1]->data_as<int16_t>()[k];
    case TypeId::kInt32: case TypeId::kDate32: case TypeId::kTime32: return d.buffers[1]->data_as<int32_t>()[k];
    case TypeId::kInt64: case TypeId::kTime64: case TypeId::kTimestamp: return d.buffers[1]->data_as<int64_t>()[k];
    case TypeId::kUInt8: return d.buffers[1]->data_as<uint8_t>()[k];
    case TypeId::kUInt16: return d.buffers[1]->data_as<uint16_t>()[k];
    case TypeId::kUInt32: return d.buffers[1]->data_as<uint32_t>()[k];
    case TypeId::kUInt64: return d.buffers[1]->data_as<uint64_t>()[k];
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, d.buffers[1]->data() + k * 16, 16);
      return v;
    }
    default: return 0;
  }
}

bool IsIntType(TypeId id) {
  return id == TypeId::kInt8 || id == TypeId::kInt16 || id == TypeId::kInt32 || id == TypeId::kInt64 ||
         id == TypeId::kUInt8 || id == TypeId::kUInt16 || id == TypeId::kUInt32 || id == TypeId::kUInt64;
}

// The value without JSON quoting for strings that are not numbers (used by columns.tsv too).
struct Formatted {
  std::string text;
  bool quoted;
};

Formatted FormatDuck(const Array& a, int64_t i, const std::string& duck) {
  const TypeId id = a.type_id();
  const DataType& t = *a.type();
  if (id == TypeId::kBool) return {BooleanArray(a).Value(i) ? "true" : "false", false};
  if (IsIntType(id)) {
    const __int128 v = IntValue(a, i);
    const __int128 lim = static_cast<__int128>(1) << 53;
    return {Int128ToString(v), v < -lim || v > lim};
  }
  if (id == TypeId::kDecimal128) {
    std::string s;
    FormatDecimal(IntValue(a, i), t.scale(), &s);
    return {s, true};
  }
  if (id == TypeId::kFloat32) return {JsonFloat(PrimitiveArray<float>(a).Value(i), false), false};
  if (id == TypeId::kFloat64) return {JsonFloat(PrimitiveArray<double>(a).Value(i), false), false};
  if (id == TypeId::kFloat16) return {JsonFloat(HalfToFloat(PrimitiveArray<uint16_t>(a).Value(i)), false), false};
  if (id == TypeId::kString) return {std::string(BinaryArray(a).GetView(i)), true};
  if (id == TypeId::kBinary) return {Hex(BinaryArray(a).GetView(i)), true};
  if (id == TypeId::kFixedSizeBinary) {
    std::string h = Hex(FixedSizeBinaryArray(a).GetView(i));
    if (duck == "UUID" && h.size() == 32) {
      h = h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
    }
    return {h, true};
  }
  if (id == TypeId::kDate32) return {CivilDate(static_cast<int64_t>(IntValue(a, i))), true};
  const bool ns = duck.find("_NS") != std::string::npos;
  if (id == TypeId::kTime32 || id == TypeId::kTime64) {
    const int64_t v = ToDuckUnits(static_cast<int64_t>(IntValue(a, i)), t.unit(), ns);
    return {TimeOfDay(v, ns ? 1000000000 : 1000000, ns ? 9 : 6), true};
  }
  if (id == TypeId::kTimestamp) {
    const int64_t v = ToDuckUnits(static_cast<int64_t>(IntValue(a, i)), t.unit(), ns);
    const int64_t per_day = 86400 * (ns ? int64_t{1000000000} : int64_t{1000000});
    const int64_t day = FloorDiv(v, per_day);
    std::string s = CivilDate(day) + "T" + TimeOfDay(v - day * per_day, ns ? 1000000000 : 1000000, ns ? 9 : 6);
    if (duck.find("WITH TIME ZONE") != std::string::npos) s += "Z";
    return {s, true};
  }
  return {"<unsupported " + t.ToString() + ">", true};
}

std::string JsonValue(const Array& a, int64_t i, const std::string& duck) {
  if (a.IsNull(i)) return "null";
  const TypeId id = a.type_id();
  if (id == TypeId::kList || id == TypeId::kMap) {
    ListArray l(a);
    Array values = l.values();
    std::string out = "[";
    for (int32_t k = l.value_offset(i); k < l.value_offset(i) + l.value_length(i); ++k) {
      if (k > l.value_offset(i)) out += ",";
      if (id == TypeId::kMap) {
        StructArray entry(values);
        out += "{\"key\":" + JsonValue(entry.field(0), k, "") + ",\"value\":" + JsonValue(entry.field(1), k, "") + "}";
      } else {
        out += JsonValue(values, k, "");
      }
    }
    return out + "]";
  }
  if (id == TypeId::kStruct) {
    StructArray st(a);
    std::string out = "{";
    for (int f = 0; f < st.num_fields(); ++f) {
      if (f > 0) out += ",";
      out += JsonString(a.type()->field(f).name) + ":" + JsonValue(st.field(f), i, "");
    }
    return out + "}";
  }
  if (id == TypeId::kFloat32) return JsonFloat(PrimitiveArray<float>(a).Value(i));
  if (id == TypeId::kFloat64) return JsonFloat(PrimitiveArray<double>(a).Value(i));
  if (id == TypeId::kFloat16) return JsonFloat(HalfToFloat(PrimitiveArray<uint16_t>(a).Value(i)));
  Formatted f = FormatDuck(a, i, duck);
  return f.quoted ? JsonString(f.text) : f.text;
}

std::string TsvEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out;
}

// One columns.tsv line (without name and type) for a decoded column.
std::string ColumnStats(const std::vector<Array>& chunks, const std::string& kind, const std::string& duck) {
  int64_t count = 0, non_null = 0, nan_count = 0, true_count = 0, octets = 0, length_sum = 0;
  __int128 isum = 0;
  double fsum = 0;
  bool have = false;
  __int128 imin = 0, imax = 0;
  double fmin = 0, fmax = 0;
  std::string smin, smax;
  const Array* min_a = nullptr;
  const Array* max_a = nullptr;
  int64_t min_i = 0, max_i = 0;
  for (const Array& a : chunks) {
    count += a.length();
    for (int64_t i = 0; i < a.length(); ++i) {
      if (a.IsNull(i)) continue;
      ++non_null;
      const TypeId id = a.type_id();
      if (kind == "list" || kind == "map") {
        length_sum += ListArray(a).value_length(i);
      } else if (kind == "struct") {
      } else if (kind == "float") {
        double v = id == TypeId::kFloat64 ? PrimitiveArray<double>(a).Value(i)
                   : id == TypeId::kFloat32 ? static_cast<double>(PrimitiveArray<float>(a).Value(i))
                                            : static_cast<double>(HalfToFloat(PrimitiveArray<uint16_t>(a).Value(i)));
        if (std::isnan(v)) {
          ++nan_count;
          continue;
        }
        fsum += v;
        auto less = [](double x, double y) { return x < y || (x == y && std::signbit(x) && !std::signbit(y)); };
        if (!have || less(v, fmin)) { fmin = v; min_a = &a; min_i = i; }
        if (!have || less(fmax, v)) { fmax = v; max_a = &a; max_i = i; }
        have = true;
      } else if (kind == "bool") {
        true_count += BooleanArray(a).Value(i);
      } else if (kind == "string" || kind == "blob") {
        std::string_view s = id == TypeId::kFixedSizeBinary ? FixedSizeBinaryArray(a).GetView(i) : BinaryArray(a).GetView(i);
        octets += static_cast<int64_t>(s.size());
        if (!have || s < smin) smin = s;
        if (!have || s > smax) smax = s;
        have = true;
      } else {
        __int128 v = IntValue(a, i);
        if (kind == "timestamp" || kind == "time") {
          const bool ns = duck.find("_NS") != std::string::npos;
          v = ToDuckUnits(static_cast<int64_t>(v), a.type()->unit(), ns);
        }
        isum += v;
        if (!have || v < imin) { imin = v; min_a = &a; min_i = i; }
        if (!have || v > imax) { imax = v; max_a = &a; max_i = i; }
        have = true;
      }
    }
  }
  std::string mn, mx, sum, nan, tc, oct, len;
  if (kind == "list" || kind == "map") len = std::to_string(length_sum);
  if (kind == "float") {
    if (have) {
      mn = FormatDuck(*min_a, min_i, duck).text;
      mx = FormatDuck(*max_a, max_i, duck).text;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", fsum);
    sum = std::isnan(fsum) ? "NaN" : std::isinf(fsum) ? (fsum > 0 ? "Infinity" : "-Infinity") : buf;
    nan = std::to_string(nan_count);
  } else if (kind == "bool") {
    tc = std::to_string(true_count);
  } else if (kind == "string") {
    if (have) { mn = TsvEscape(smin); mx = TsvEscape(smax); }
    oct = std::to_string(octets);
  } else if (kind == "blob") {
    if (have) { mn = Hex(smin); mx = Hex(smax); }
    oct = std::to_string(octets);
  } else if (kind == "int" || kind == "decimal" || kind == "date" || kind == "time" || kind == "timestamp") {
    if (have) {
      mn = FormatDuck(*min_a, min_i, duck).text;
      mx = FormatDuck(*max_a, max_i, duck).text;
    }
    sum = kind == "decimal" ? [&] { std::string s; FormatDecimal(isum, chunks[0].type()->scale(), &s); return s; }()
                            : Int128ToString(isum);
  }
  return kind + "\t" + std::to_string(count) + "\t" + std::to_string(non_null) + "\t" + mn + "\t" + mx + "\t" + sum +
         "\t" + nan + "\t" + tc + "\t" + oct + "\t" + len + "\t";
}

struct Oracle {
  std::vector<std::vector<std::string>> columns;  // columns.tsv rows (without the header)
  std::vector<std::string> rows;                  // jsonl lines; empty when absent
  bool has_jsonl = false;
};

Oracle ReadOracle(const fs::path& expected, const std::string& stem) {
  Oracle o;
  std::ifstream tsv(expected / (stem + ".columns.tsv"));
  std::string line;
  bool header = true;
  while (std::getline(tsv, line)) {
    if (header) { header = false; continue; }
    o.columns.push_back(SplitTabs(line));
  }
  std::ifstream jl(expected / (stem + ".jsonl"));
  if (jl) {
    o.has_jsonl = true;
    while (std::getline(jl, line)) o.rows.push_back(line);
  }
  return o;
}

struct Outcome {
  enum Kind { kMatch, kMismatch, kError } kind;
  std::string detail;
};

Outcome CheckFile(const fs::path& file, const Oracle& oracle, bool verify_crc) {
  ParquetReaderOptions opts;
  opts.verify_crc = verify_crc;
  auto r = ParquetFileReader::Open(file.string(), opts);
  if (!r.ok()) return {Outcome::kError, r.status().ToString()};
  auto& reader = **r;
  const int nf = reader.schema()->num_fields();
  if (static_cast<int>(oracle.columns.size()) != nf) {
    return {Outcome::kMismatch, "column count " + std::to_string(nf)};
  }
  std::vector<std::vector<Array>> chunks(static_cast<size_t>(nf));
  std::vector<std::string> lines;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    auto b = reader.ReadRowGroup(g);
    if (!b.ok()) return {Outcome::kError, b.status().ToString()};
    const auto& batch = **b;
    for (int f = 0; f < nf; ++f) chunks[static_cast<size_t>(f)].push_back(batch.column(f));
    for (int64_t i = 0; i < batch.num_rows() && oracle.has_jsonl; ++i) {
      std::string line = "{";
      for (int f = 0; f < nf; ++f) {
        if (f > 0) line += ",";
        line += JsonString(reader.schema()->field(f).name) + ":" +
                JsonValue(batch.column(f), i, oracle.columns[static_cast<size_t>(f)][1]);
      }
      lines.push_back(line + "}");
    }
  }
  for (int f = 0; f < nf; ++f) {
    const auto& want = oracle.columns[static_cast<size_t>(f)];
    std::string expect;
    for (size_t k = 2; k < want.size() && k < 12; ++k) expect += want[k] + "\t";
    std::string got = ColumnStats(chunks[static_cast<size_t>(f)], want[2], want[1]);
    if (got != expect) {
      return {Outcome::kMismatch, "column " + want[0] + " stats: got [" + got + "] want [" + expect + "]"};
    }
  }
  if (oracle.has_jsonl) {
    if (lines.size() != oracle.rows.size()) {
      return {Outcome::kMismatch, std::to_string(lines.size()) + " rows, oracle has " + std::to_string(oracle.rows.size())};
    }
    for (size_t i = 0; i < lines.size(); ++i) {
      if (lines[i] != oracle.rows[i]) {
        return {Outcome::kMismatch, "row " + std::to_string(i) + ": got " + lines[i] + " want " + oracle.rows[i]};
      }
    }
  }
  return {Outcome::kMatch, ""};
}

// Files whose oracle quiver cannot match, with the reason.
const std::map<std::string, std::string> kKnownDifferences = {};
// bad_data reproducers DuckDB reads leniently; expected/README.md allows rejecting them, and
// quiver does, with Corrupt naming the level problem.
const std::set<std::string> kRejected = {
    "bad_data/ARROW-GH-45185.parquet",         // repetition levels start at 1
    "bad_data/ARROW-RS-GH-6229-LEVELS.parquet",  // too few repetition levels
};
// CRC-corrupted on purpose; the oracle holds DuckDB's unverified values.
const std::set<std::string> kCorruptChecksum = {"data/datapage_v1-corrupt-checksum.parquet",
                                                "data/rle-dict-uncompressed-corrupt-checksum.parquet"};

TEST(ParquetCorpusValues, FilesMatchDuckDB) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path pt = root / "parquet-testing";
  const fs::path expected = pt / "expected";
  std::vector<std::string> stems;
  for (const auto& e : fs::directory_iterator(expected)) {
    const std::string name = e.path().filename().string();
    const std::string suffix = ".columns.tsv";
    if (name.size() > suffix.size() && name.ends_with(suffix)) stems.push_back(name.substr(0, name.size() - suffix.size()));
  }
  std::sort(stems.begin(), stems.end());
  int matched = 0, rejected = 0, known = 0;
  std::vector<std::string> failures;
  for (const std::string& stem : stems) {
    std::string rel = stem;
    for (size_t p = rel.find("__"); p != std::string::npos; p = rel.find("__", p + 1)) rel.replace(p, 2, "/");
    const Oracle oracle = ReadOracle(expected, stem);
    const bool corrupt_crc = kCorruptChecksum.count(rel) > 0;
    Outcome o = CheckFile(pt / rel, oracle, /*verify_crc=*/!corrupt_crc);
    if (corrupt_crc) {
      // With verification on, the file must be rejected for its CRC.
      Outcome strict = CheckFile(pt / rel, oracle, true);
      EXPECT_EQ(strict.kind, Outcome::kError) << rel;
      EXPECT_NE(strict.detail.find("CRC"), std::string::npos) << rel << ": " << strict.detail;
    }
    if (kRejected.count(rel) > 0) {
      EXPECT_EQ(o.kind, Outcome::kError) << rel;
      EXPECT_NE(o.detail.find("Corrupt"), std::string::npos) << rel << ": " << o.detail;
      ++rejected;
      continue;
    }
    auto k = kKnownDifferences.find(rel);
    if (k != kKnownDifferences.end()) {
      EXPECT_NE(o.kind, Outcome::kMatch) << rel << " now matches; drop it from kKnownDifferences";
      ++known;
      std::printf("known difference %s (%s): %s\n", rel.c_str(), k->second.c_str(), o.detail.c_str());
      continue;
    }
    if (o.kind == Outcome::kMatch) {
      ++matched;
    } else {
      failures.push_back(rel + ": " + o.detail);
    }
  }
  std::printf("parquet-testing oracles: %zu files; %d match, %d bad_data rejected, %d known "
              "differences, %zu failures\n",
              stems.size(), matched, rejected, known, failures.size());
  for (const auto& f : failures) ADD_FAILURE() << f;
}

// Every file under bad_data either decodes or fails with a Status; none may crash.
TEST(ParquetCorpusValues, BadDataFailsCleanly) {
  QUIVER_CORPUS_OR_SKIP(root);
  for (const auto& e : fs::directory_iterator(root / "parquet-testing" / "bad_data")) {
    if (e.path().extension() != ".parquet") continue;
    auto r = ParquetFileReader::Open(e.path().string());
    if (!r.ok()) {
      EXPECT_FALSE(r.status().message().empty()) << e.path();
      continue;
    }
    for (int g = 0; g < (*r)->num_row_groups(); ++g) {
      auto b = (*r)->ReadRowGroup(g);
      if (!b.ok()) {
        EXPECT_FALSE(b.status().message().empty()) << e.path();
      }
    }
  }
}

// Every other file of the corpus (encrypted, variant, files without an oracle) decodes or fails
// with a message; none may crash. Prints what happened to each file that fails.
TEST(ParquetCorpusValues, EveryDataFileDecodesOrFailsCleanly) {
  QUIVER_CORPUS_OR_SKIP(root);
  int ok = 0, failed = 0;
  for (const auto& e : fs::recursive_directory_iterator(root / "parquet-testing" / "data")) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !(name.ends_with(".parquet") || name.ends_with(".parquet.encrypted"))) continue;
    // Decoding it needs more than 6 GB of memory (a column chunk over 2 GB).
    if (name == "large_string_map.brotli.parquet") continue;
    Status st;
    auto r = ParquetFileReader::Open(e.path().string());
    if (!r.ok()) {
      st = r.status();
    } else {
      for (int g = 0; g < (*r)->num_row_groups() && st.ok(); ++g) {
        auto b = (*r)->ReadRowGroup(g);
        if (!b.ok()) st = b.status();
      }
    }
    if (st.ok()) {
      ++ok;
    } else {
      ++failed;
      EXPECT_FALSE(st.message().empty()) << e.path();
      std::printf("fails: %s\n", st.ToString().c_str());
    }
  }
  std::printf("data/: %d files decode, %d fail cleanly\n", ok, failed);
}

}  // namespace
}  // namespace quiver::parquet
