#include "quiver/csv/infer_internal.h"

#include "quiver/columnar/value_parse.h"

namespace quiver::csv {

void TypeInferrer::AddTo(Candidates& c, std::string_view text) const {
  c.any = true;
  int64_t i;
  double d;
  bool b;
  int32_t day;
  int64_t nanos;
  ParsedTimestamp ts;
  // One value with a leading zero makes the column text (as DuckDB does): a number type
  // would lose the zero.
  if ((c.int64 || c.float64) && HasLeadingZero(text)) c.int64 = c.float64 = false;
  if (c.int64 && !ParseInt64(text, &i)) c.int64 = false;
  if (c.float64 && !c.int64 && !ParseFloat64(text, &d)) c.float64 = false;
  if (c.boolean && !ParseBool(text, syntax_, &b)) c.boolean = false;
  if (c.date && !ParseDate(text, &day)) c.date = false;
  if (c.timestamp) {
    if (!ParseTimestamp(text, &ts)) c.timestamp = false;
    else c.offset |= ts.has_offset;
  }
  if (c.time && !ParseTimeOfDayNanos(text, &nanos)) c.time = false;
  for (uint64_t m = c.formats; m != 0; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (!formats_[static_cast<size_t>(i)].ParseMicros(text, &nanos)) c.formats &= ~(uint64_t{1} << i);
  }
}

void TypeInferrer::AddColumn(int col, const uint8_t* data, const std::vector<std::vector<FieldSpan>>& rows,
                             size_t first) {
  // A local copy: columns next to each other on other threads would otherwise share its cache
  // line, written at every value.
  Candidates c = cols_[static_cast<size_t>(col)];
  const size_t k = static_cast<size_t>(col);
  for (size_t r = first; r < rows.size(); ++r) {
    if (k >= rows[r].size()) continue;  // missing: null
    std::string_view text;
    bool quoted;
    if (syntax_.Text(data, rows[r][k], false, &text, &quoted)) AddTo(c, text);
  }
  cols_[static_cast<size_t>(col)] = c;
}

TypePtr TypeInferrer::TypeOf(int col) const {
  const Candidates& c = cols_[static_cast<size_t>(col)];
  if (!c.any) return utf8();
  if (c.int64) return int64();
  if (c.float64) return float64();
  if (c.boolean) return boolean();
  if (c.date) return date32();
  if (c.timestamp) return timestamp(TimeUnit::kMicro, c.offset ? "UTC" : "");
  if (c.time) return time64(TimeUnit::kMicro);
  if (const DateFormat* f = FormatOf(col)) return f->has_time() ? timestamp(TimeUnit::kMicro) : date32();
  return utf8();
}

const DateFormat* TypeInferrer::FormatOf(int col) const {
  const Candidates& c = cols_[static_cast<size_t>(col)];
  if (!c.any || c.int64 || c.float64 || c.boolean || c.date || c.timestamp || c.time) return nullptr;
  const uint64_t m = c.formats;
  if (m == 0 || (m & (m - 1)) != 0) return nullptr;
  return &formats_[static_cast<size_t>(__builtin_ctzll(m))];
}

bool TypeInferrer::Contradicts(int col, std::string_view text) const {
  TypePtr t = TypeOf(col);
  if (t->id() == TypeId::kString) return false;
  FieldSpan f{0, static_cast<uint32_t>(text.size())};
  return !FieldConverts(t, reinterpret_cast<const uint8_t*>(text.data()), f, syntax_, FormatOf(col));
}

}  // namespace quiver::csv
