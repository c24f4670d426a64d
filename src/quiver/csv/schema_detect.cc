#include "quiver/csv/schema_detect_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <memory>
#include <set>

#include "quiver/csv/infer_internal.h"

namespace quiver::csv {

SampleRows SplitSample(const uint8_t* data, size_t n, bool n_is_all, const MachineConfig& machine, int64_t max_rows,
                       const SplitKernels& kernels) {
  std::unique_ptr<uint32_t[]> pos(new uint32_t[n + kSplitOutputSlack]);
  // The fast split, where it reads the sample as the machine would: no comment lines, no
  // quote out of place (which leniency reads otherwise), none left open at the sample's end.
  // It takes a fraction of the machine's time, which is spent before any block is parsed.
  MachineResult mr;
  bool split = false;
  if (machine.comment == '\0' && machine.pad == 0) {
    SplitCarry carry;
    const SplitResult fast = kernels.split(data, n, -1, machine.split, &carry, pos.get());
    split = !fast.anomaly && carry.in_quote == 0;
    mr.count = fast.count;
  }
  if (!split) {
    MachineConfig mc = machine;
    mc.lenient = true;
    MachineState ms;
    mr = SplitWithStateMachine(data, n, -1, n_is_all, mc, &ms, pos.get());
  }
  SampleRows out;
  uint32_t s = 0;
  std::vector<FieldSpan> cur;
  auto finish_row = [&](uint32_t end) {
    if (!cur.empty() && end > cur.back().start && data[end - 1] == '\r') cur.back().end = end - 1;
    bool blank = cur.size() == 1 && cur[0].end == cur[0].start;
    bool comment = machine.comment != '\0' && cur[0].end > cur[0].start &&
                   data[cur[0].start] == static_cast<uint8_t>(machine.comment);
    if (!blank && !comment) {
      out.rows.push_back(cur);
      out.row_ends.push_back(end);
    }
    cur.clear();
  };
  for (size_t i = 0; i < mr.count && static_cast<int64_t>(out.rows.size()) <= max_rows; ++i) {
    uint32_t p = pos[i] & kPositionMask;
    cur.push_back(FieldSpan{s, p});
    s = p + 1;
    if (pos[i] & kRowEndFlag) finish_row(p);
    else if (machine.pad != 0 && s < n && data[s] == machine.pad) ++s;
  }
  if (n_is_all && s < n && static_cast<int64_t>(out.rows.size()) <= max_rows) {
    cur.push_back(FieldSpan{s, static_cast<uint32_t>(n)});
    finish_row(static_cast<uint32_t>(n));
  }
  return out;
}

int CountColumns(const SampleRows& sample, const CsvOptions& options) {
  int ncols = 0;
  const auto& rows = sample.rows;
  if (!rows.empty()) {
    std::map<size_t, int64_t> freq;
    for (auto& r : rows) ++freq[r.size()];
    size_t mode = 0;
    int64_t best = -1;
    for (auto& [w, n] : freq) {
      if (n > best) {
        best = n;
        mode = w;
      }
    }
    bool extras_empty = rows[0].size() > mode;
    for (size_t f = mode; f < rows[0].size() && extras_empty; ++f) extras_empty = rows[0][f].end == rows[0][f].start;
    ncols = static_cast<int>(rows[0].size() == mode || (!options.lenient && !extras_empty) ? rows[0].size() : mode);
  }
  if (!options.column_names.empty()) ncols = static_cast<int>(options.column_names.size());
  if (ncols == 0) ncols = 1;
  return ncols;
}

std::vector<FieldSpan> PadRow(const std::vector<FieldSpan>& row, int ncols) {
  std::vector<FieldSpan> out(row.begin(), row.begin() + std::min<size_t>(row.size(), static_cast<size_t>(ncols)));
  while (static_cast<int>(out.size()) < ncols) out.push_back(FieldSpan{FieldSpan::kMissing, FieldSpan::kMissing});
  return out;
}

TypeInferrer InferRows(const uint8_t* data, const SampleRows& sample, size_t first, int ncols, const FieldSyntax& syntax,
                       ThreadPool* pool) {
  TypeInferrer t(ncols, syntax);
  if (first >= sample.rows.size()) return t;
  if (pool == nullptr || ncols < 2) {
    for (int c = 0; c < ncols; ++c) t.AddColumn(c, data, sample.rows, first);
    return t;
  }
  // Columns taken one at a time: their costs differ (text tries every parser and format).
  std::atomic<int> next{0};
  TaskGroup group(pool);
  for (int k = std::min(ncols, pool->num_threads()); k > 0; --k) {
    group.Submit([&] {
      for (int c; (c = next.fetch_add(1, std::memory_order_relaxed)) < ncols;) t.AddColumn(c, data, sample.rows, first);
      return Status::OK();
    });
  }
  (void)group.Wait();  // the tasks cannot fail
  return t;
}

bool DecideHeader(const uint8_t* data, const SampleRows& sample, int ncols, const FieldSyntax& syntax,
                  const CsvOptions& options, const TypeInferrer* after_first) {
  const auto& rows = sample.rows;
  if (options.header) return *options.header;
  if (!options.column_names.empty() || rows.empty()) return false;
  std::optional<TypeInferrer> own;
  if (after_first == nullptr) after_first = &own.emplace(InferRows(data, sample, 1, ncols, syntax, nullptr));
  const TypeInferrer& body = *after_first;
  auto first = PadRow(rows[0], ncols);
  bool contradicts = false, all_string = true, any_null = false;
  std::set<std::string> seen;
  bool dup = false;
  // The first row's own cells typed alone: a header's cells read as no number, date or boolean.
  TypeInferrer only(ncols, syntax);
  for (int c = 0; c < ncols; ++c) {
    std::string_view text;
    bool quoted;
    if (!syntax.Text(data, first[static_cast<size_t>(c)], false, &text, &quoted)) {
      any_null = true;
      continue;
    }
    only.AddValue(c, text);
    if (body.TypeOf(c)->id() != TypeId::kString) all_string = false;
    if (body.Contradicts(c, text)) contradicts = true;
    dup |= !seen.insert(std::string(text)).second;
  }
  bool typed = false;
  for (int c = 0; c < ncols; ++c) typed |= only.TypeOf(c)->id() != TypeId::kString;
  // One row: a header only if none of its values reads as a number, date or boolean.
  if (rows.size() == 1) return !typed && !any_null;
  // Otherwise a header when a cell is text over a typed column, or when every non-empty cell
  // sits over a text column, no value repeats and either no cell is empty or at least two
  // cells are text that reads as no number, date or boolean (survey exports leave header
  // cells empty; they get generated names).
  return contradicts || (all_string && !dup && (!any_null || (seen.size() >= 2 && !typed)));
}

bool SecondHeaderRow(const uint8_t* data, const SampleRows& sample, int ncols, const FieldSyntax& syntax,
                     ThreadPool* pool, std::vector<std::string>* names) {
  const auto& rows = sample.rows;
  if (rows.size() < 3 || ncols < 2) return false;
  if (static_cast<int>(rows[0].size()) != ncols || static_cast<int>(rows[1].size()) != ncols) return false;
  const TypeInferrer body = InferRows(data, sample, 2, ncols, syntax, pool);
  bool over_typed = false;
  int second_cells = 0;
  // Neither line alone names every column once: one of them leaves a cell empty or repeats a
  // name (a complete first line is the header, and the line under it data).
  bool incomplete = false;
  for (size_t r = 0; r < 2; ++r) {
    TypeInferrer only(ncols, syntax);
    std::set<std::string> seen;
    for (int c = 0; c < ncols; ++c) {
      std::string_view text;
      bool quoted;
      if (!syntax.Text(data, rows[r][static_cast<size_t>(c)], false, &text, &quoted) || text.empty()) {
        incomplete = true;
        continue;
      }
      incomplete |= !seen.insert(std::string(text)).second;
      // A name has a letter: a rule of dashes under a header is not a second header line.
      if (!HasLetter(text)) return false;
      only.AddValue(c, text);
      if (r == 1) {
        ++second_cells;
        over_typed |= body.Contradicts(c, text);
      }
    }
    for (int c = 0; c < ncols; ++c) {
      if (only.TypeOf(c)->id() != TypeId::kString) return false;
    }
  }
  if (!over_typed || second_cells < 2 || !incomplete) return false;
  names->clear();
  for (int c = 0; c < ncols; ++c) {
    const std::string a = CleanName(data, rows[0][static_cast<size_t>(c)], syntax);
    const std::string b = CleanName(data, rows[1][static_cast<size_t>(c)], syntax);
    std::string name = a.empty() ? b : b.empty() ? a : a + " " + b;
    if (name.empty()) name = DefaultName(c, ncols);
    names->push_back(std::move(name));
  }
  MakeNamesUnique(names);
  return true;
}

std::string CleanName(const uint8_t* data, const FieldSpan& field, const FieldSyntax& syntax) {
  std::string name;
  std::string_view text;
  bool quoted = false;
  if (field.start != FieldSpan::kMissing && syntax.Text(data, field, true, &text, &quoted)) {
    if (quoted) syntax.Unescape(text, &name);
    else name = std::string(text);
  }
  const size_t first = name.find_first_not_of(" \t");
  if (first == std::string::npos) return std::string();
  return name.substr(first, name.find_last_not_of(" \t") + 1 - first);
}

std::string DefaultName(int col, int ncols) {
  int width = static_cast<int>(std::to_string(std::max(ncols - 1, 0)).size());
  return fmt::format("column{:0{}}", col, width);
}

void MakeNamesUnique(std::vector<std::string>* names) {
  std::set<std::string> used;
  for (std::string& name : *names) {
    std::string unique = name;
    for (int k = 1; !used.insert(unique).second; ++k) unique = fmt::format("{}_{}", name, k);
    name = std::move(unique);
  }
}

std::vector<std::string> HeaderNames(const uint8_t* data, const std::vector<FieldSpan>& row, int ncols,
                                     const FieldSyntax& syntax) {
  const std::vector<FieldSpan> first = PadRow(row, ncols);
  std::vector<std::string> names;
  for (int c = 0; c < ncols; ++c) {
    std::string name = CleanName(data, first[static_cast<size_t>(c)], syntax);
    if (name.empty()) name = DefaultName(c, ncols);
    names.push_back(std::move(name));
  }
  MakeNamesUnique(&names);
  return names;
}

bool JoinHeaderLines(const uint8_t* data, size_t preamble, const MachineConfig& machine, const FieldSyntax& syntax,
                     int ncols, std::vector<std::string>* names, size_t* header_start) {
  std::unique_ptr<uint32_t[]> pos(new uint32_t[preamble + 1]);
  MachineConfig mc = machine;
  mc.lenient = true;
  MachineState ms;
  MachineResult mr = SplitWithStateMachine(data, preamble, -1, true, mc, &ms, pos.get());
  struct Line {
    uint32_t start;
    std::vector<FieldSpan> fields;
  };
  std::vector<Line> lines;
  Line cur{0, {}};
  uint32_t s = 0;
  for (size_t i = 0; i < mr.count; ++i) {
    const uint32_t p = pos[i] & kPositionMask;
    cur.fields.push_back(FieldSpan{s, p});
    s = p + 1;
    if (pos[i] & kRowEndFlag) {
      if (p > cur.fields.back().start && data[p - 1] == '\r') cur.fields.back().end = p - 1;
      lines.push_back(std::move(cur));
      cur = Line{s, {}};
    } else if (mc.pad != 0 && s < preamble && data[s] == mc.pad) {
      ++s;  // past a two-byte delimiter's second byte, as SplitRows steps past it
    }
  }
  const size_t n = static_cast<size_t>(ncols);
  for (size_t k = 2; k <= std::min<size_t>(lines.size(), 8); ++k) {
    const size_t first = lines.size() - k;
    const auto& added = lines[first].fields;
    if (added.size() == 1 && added[0].end == added[0].start) break;  // a blank line ends the header
    if (added.size() < 2) continue;
    size_t total = 0;
    for (size_t j = first; j < lines.size(); ++j) total += lines[j].fields.size();
    const bool in_cell = total != n;
    if (in_cell && total - (k - 1) != n) continue;
    std::vector<std::string> cells;
    for (size_t j = first; j < lines.size(); ++j) {
      for (size_t f = 0; f < lines[j].fields.size(); ++f) {
        std::string cell = CleanName(data, lines[j].fields[f], syntax);
        if (in_cell && j > first && f == 0) {
          if (!cells.back().empty() && !cell.empty()) cells.back() += ' ';
          cells.back() += cell;
        } else {
          cells.push_back(std::move(cell));
        }
      }
    }
    TypeInferrer types(ncols, syntax);
    bool text_only = true;
    for (int c = 0; c < ncols && text_only; ++c) {
      const std::string& cell = cells[static_cast<size_t>(c)];
      if (cell.empty()) {
        text_only = false;
        break;
      }
      types.AddValue(c, cell);
      text_only = types.TypeOf(c)->id() == TypeId::kString;
    }
    if (!text_only) continue;
    *names = std::move(cells);
    *header_start = lines[first].start;
    return true;
  }
  return false;
}

Status ResolveTypes(const uint8_t* data, const SampleRows& sample, size_t header_rows,
                    const std::vector<std::string>& names, const FieldSyntax& syntax, const CsvOptions& options,
                    const std::string& file, ColumnTypes* out, const TypeInferrer* inferred, ThreadPool* pool) {
  const int ncols = static_cast<int>(names.size());
  std::optional<TypeInferrer> own;
  if (inferred == nullptr) {
    own.emplace(options.infer_types ? InferRows(data, sample, header_rows, ncols, syntax, pool)
                                    : TypeInferrer(ncols, syntax));
    inferred = &*own;
  }
  const TypeInferrer& inferrer = *inferred;
  for (int c = 0; c < ncols; ++c) {
    const std::string& name = names[static_cast<size_t>(c)];
    TypePtr t = options.infer_types ? inferrer.TypeOf(c) : utf8();
    const DateFormat* format = options.infer_types ? inferrer.FormatOf(c) : nullptr;
    bool inferred = options.infer_types;
    for (const auto& [n, explicit_type] : options.column_types) {
      if (n == name) {
        t = explicit_type;
        format = nullptr;
        inferred = false;
      }
    }
    for (const auto& [n, pattern] : options.column_formats) {
      if (n != name) continue;
      const bool timestamp = t->id() == TypeId::kTimestamp;
      if (!timestamp && t->id() != TypeId::kDate32) {
        return Status::Invalid(fmt::format("{}: column '{}' has a format ('{}') but is not a date or timestamp column",
                                           file, n, pattern));
      }
      auto compiled = DateFormat::Compile(pattern, timestamp, options.two_digit_years_from);
      if (!compiled.ok()) return Status::Invalid(fmt::format("{}: column '{}': {}", file, n, compiled.status().message()));
      out->explicit_formats.push_back(std::make_unique<DateFormat>(std::move(*compiled)));
      format = out->explicit_formats.back().get();
    }
    out->inferred.push_back(inferred);
    out->formats.push_back(format);
    out->fields.push_back(field(name, t));
  }
  auto unknown = [&](const std::string& n) -> Status {
    if (std::find(names.begin(), names.end(), n) != names.end()) return Status::OK();
    return Status::Invalid(fmt::format("{}: column_types names column '{}', which the file does not have", file, n));
  };
  for (const auto& [n, t] : options.column_types) QUIVER_RETURN_NOT_OK(unknown(n));
  for (const auto& [n, pattern] : options.column_formats) QUIVER_RETURN_NOT_OK(unknown(n));
  return Status::OK();
}

}  // namespace quiver::csv
