#include "quiver/csv/convert.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"
#include "quiver/csv/value_parse.h"

namespace quiver::csv {

FieldSyntax FieldSyntax::From(const CsvOptions& o, const Dialect& d) {
  FieldSyntax s;
  s.quote = d.quote;
  s.escape = d.escape;
  s.trim = o.trim_whitespace;
  s.empty_is_null = std::find(o.null_values.begin(), o.null_values.end(), "") != o.null_values.end();
  for (const auto& t : o.null_values) {
    if (!t.empty()) s.null_values.push_back(t);
  }
  s.true_values = o.true_values;
  s.false_values = o.false_values;
  s.replace_invalid_utf8 = o.replace_invalid_utf8;
  return s;
}

bool FieldSyntax::IsNullToken(std::string_view s) const {
  if (s.empty()) return empty_is_null;
  for (const auto& t : null_values) {
    if (s == t) return true;
  }
  return false;
}

std::string_view FieldSyntax::TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool FieldSyntax::QuotedText(std::string_view raw, bool string_column, std::string_view* text, bool* quoted) const {
  // Spaces after the closing quote are not part of the value ("a"  ,b).
  while (raw.size() > 2 && (raw.back() == ' ' || raw.back() == '\t') ) raw.remove_suffix(1);
  if (raw.size() < 2 || raw.back() != quote) {
    // A lone or unbalanced quote (lenient reading): the bytes are the value.
    *quoted = false;
    *text = raw;
    return true;
  }
  *quoted = true;
  *text = raw.substr(1, raw.size() - 2);
  // A quoted value is text as written: "" is an empty string, not a null, in a string column.
  if (string_column) return true;
  return !(text->empty() || IsNullToken(*text));
}

void FieldSyntax::Unescape(std::string_view text, std::string* out) const {
  const bool doubled = escape == '\0' || escape == quote;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (doubled ? (c == quote && i + 1 < text.size() && text[i + 1] == quote) : (c == escape && i + 1 < text.size())) {
      ++i;
      c = text[i];
    }
    out->push_back(c);
  }
}

bool ParseBool(std::string_view s, const FieldSyntax& syntax, bool* out) {
  for (const auto& t : syntax.true_values) {
    if (s == t) {
      *out = true;
      return true;
    }
  }
  for (const auto& t : syntax.false_values) {
    if (s == t) {
      *out = false;
      return true;
    }
  }
  return false;
}

namespace {

// Parses one non-null text for a fixed-width type into *out (storage type T).
template <typename T>
using ParseFn = bool (*)(std::string_view, const TypePtr&, const FieldSyntax&, T*);

// The `Padded` versions may read past the text (see value_parse.h): conversion uses them on
// block buffers; checks of arbitrary strings (FieldConverts) use the plain ones.
bool ParseInt64Fn(std::string_view s, const TypePtr&, const FieldSyntax&, int64_t* out) { return ParseInt64(s, out); }
bool ParseInt64PaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int64_t* out) {
  return ParseInt64Padded(s, out);
}
bool NarrowInt32(int64_t v, int32_t* out) {
  if (v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}
bool ParseInt32Fn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  int64_t v;
  return ParseInt64(s, &v) && NarrowInt32(v, out);
}
bool ParseInt32PaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  int64_t v;
  return ParseInt64Padded(s, &v) && NarrowInt32(v, out);
}
bool ParseDoubleFn(std::string_view s, const TypePtr&, const FieldSyntax&, double* out) { return ParseFloat64(s, out); }
bool ParseDoublePaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, double* out) {
  return ParseFloat64Padded(s, out);
}
bool ParseFloatFn(std::string_view s, const TypePtr&, const FieldSyntax&, float* out) {
  double d;
  if (!ParseFloat64(s, &d)) return false;
  *out = static_cast<float>(d);
  return true;
}
bool ParseFloatPaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, float* out) {
  double d;
  if (!ParseFloat64Padded(s, &d)) return false;
  *out = static_cast<float>(d);
  return true;
}
bool ParseDateFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) { return ParseDate(s, out); }
bool ParseDatePaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  return ParseDatePadded(s, out);
}
bool ParseTimestampFn(std::string_view s, const TypePtr& t, const FieldSyntax&, int64_t* out) {
  ParsedTimestamp ts;
  if (!ParseTimestamp(s, &ts)) return false;
  switch (t->unit()) {
    case TimeUnit::kSecond: *out = ts.micros / 1000000; break;
    case TimeUnit::kMilli: *out = ts.micros / 1000; break;
    case TimeUnit::kMicro: *out = ts.micros; break;
    case TimeUnit::kNano:
      if (__builtin_mul_overflow(ts.micros, int64_t{1000}, out)) return false;
      break;
  }
  return true;
}
bool ParseTime64Fn(std::string_view s, const TypePtr& t, const FieldSyntax&, int64_t* out) {
  int64_t nanos;
  if (!ParseTimeOfDayNanos(s, &nanos)) return false;
  *out = t->unit() == TimeUnit::kNano ? nanos : nanos / 1000;
  return true;
}
bool ParseTime32Fn(std::string_view s, const TypePtr& t, const FieldSyntax&, int32_t* out) {
  int64_t nanos;
  if (!ParseTimeOfDayNanos(s, &nanos)) return false;
  *out = static_cast<int32_t>(t->unit() == TimeUnit::kMilli ? nanos / 1000000 : nanos / 1000000000);
  return true;
}
bool ParseDecimalFn(std::string_view s, const TypePtr& t, const FieldSyntax&, __int128* out) {
  return ParseDecimal(s, t->precision(), t->scale(), out);
}

// Replaces each invalid UTF-8 sequence by U+FFFD.
std::string RepairUtf8(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len > 0 && i + len <= s.size() && simdjson::validate_utf8(s.data() + i, len)) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

template <typename T, ParseFn<T> F, ParseFn<T> FPadded = F>
struct Parser {
  using type = T;
  static constexpr ParseFn<T> parse = F;
  static constexpr ParseFn<T> parse_padded = FPadded;  // for text inside a block buffer
};

// The one mapping from a fixed-width column type to its storage type and text parser, shared
// by conversion and by on_error=skip pre-validation. False for types it does not cover.
template <typename Visit>
bool VisitFixedParser(TypeId id, Visit&& visit) {
  switch (id) {
    case TypeId::kInt64: visit(Parser<int64_t, ParseInt64Fn, ParseInt64PaddedFn>{}); return true;
    case TypeId::kInt32: visit(Parser<int32_t, ParseInt32Fn, ParseInt32PaddedFn>{}); return true;
    case TypeId::kFloat64: visit(Parser<double, ParseDoubleFn, ParseDoublePaddedFn>{}); return true;
    case TypeId::kFloat32: visit(Parser<float, ParseFloatFn, ParseFloatPaddedFn>{}); return true;
    case TypeId::kDate32: visit(Parser<int32_t, ParseDateFn, ParseDatePaddedFn>{}); return true;
    case TypeId::kTimestamp: visit(Parser<int64_t, ParseTimestampFn>{}); return true;
    case TypeId::kTime64: visit(Parser<int64_t, ParseTime64Fn>{}); return true;
    case TypeId::kTime32: visit(Parser<int32_t, ParseTime32Fn>{}); return true;
    case TypeId::kDecimal128: visit(Parser<__int128, ParseDecimalFn>{}); return true;
    default: return false;
  }
}

}  // namespace

// The per-type loops over one group of rows. Values are written straight into the column's
// buffers. A group that fails (on_error=fail) is not counted in the column's length; the read
// stops there, so what it left past the length is never used.
struct ColumnConverters {
  // The parser is a template argument so that it inlines into the per-row loop.
  template <typename T, ParseFn<T> parse>
  static Status Fixed(ColumnBuilder& b, const uint8_t* data, const FieldRef* fields, int64_t rows, const FieldSyntax& syn,
                      bool null_on_error, int64_t* nulled, ConvertError* error) {
    QUIVER_RETURN_NOT_OK(b.values_.Reserve(rows * static_cast<int64_t>(sizeof(T))));
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    T* out = reinterpret_cast<T*>(b.values_.mutable_data() + b.values_.size());
    const TypePtr& type = b.type_;
    const bool direct = syn.Direct();
    const char quote = syn.quote;
    for (int64_t r = 0; r < rows; ++r) {
      const FieldRef f = fields[r];
      std::string_view text(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
      // A missing field has an empty span, so it is never read here.
      if (!(direct && !text.empty() && text.front() != quote)) [[unlikely]] {
        bool quoted;
        if (!syn.Text(data, f, false, &text, &quoted)) {
          out[r] = T{};
          QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
          continue;
        }
      }
      if (!parse(text, type, syn, &out[r])) [[unlikely]] {
        if (!null_on_error) {
          error->row = r;
          error->failure = ConvertFailure::kBadValue;
          return Status::OK();
        }
        out[r] = T{};
        ++*nulled;
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
      }
    }
    b.values_.UnsafeSetSize(b.values_.size() + rows * static_cast<int64_t>(sizeof(T)));
    b.length_ += rows;
    return Status::OK();
  }

  static Status Bool(ColumnBuilder& b, const uint8_t* data, const FieldRef* fields, int64_t rows, const FieldSyntax& syn,
                     bool null_on_error, int64_t* nulled, ConvertError* error) {
    // Bits past the column's length are kept zero, so a group only sets the true ones.
    const int64_t bytes = bit_util::BytesForBits(b.length_ + rows);
    const int64_t had = b.values_.size();
    if (bytes > had) {
      QUIVER_RETURN_NOT_OK(b.values_.AppendZeros(bytes - had));
    }
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    uint8_t* bits = b.values_.mutable_data();
    for (int64_t r = 0; r < rows; ++r) {
      std::string_view text;
      bool quoted, v;
      if (!syn.Text(data, fields[r], false, &text, &quoted)) {
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
        continue;
      }
      if (!ParseBool(text, syn, &v)) {
        if (!null_on_error) {
          error->row = r;
          error->failure = ConvertFailure::kBadValue;
          return Status::OK();
        }
        ++*nulled;
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
        continue;
      }
      if (v) bit_util::SetBit(bits, b.length_ + r);
    }
    b.length_ += rows;
    return Status::OK();
  }

  static Status String(ColumnBuilder& b, const uint8_t* data, const FieldRef* fields, int64_t rows, const FieldSyntax& syn,
                       bool null_on_error, int64_t* nulled, ConvertError* error) {
    QUIVER_RETURN_NOT_OK(b.offsets_.Reserve(rows * 4));
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    // Missing fields have empty spans.
    int64_t total = 0;
    for (int64_t r = 0; r < rows; ++r) total += fields[r].end - fields[r].start;
    BufferBuilder& bytes = b.values_;
    // 32 bytes of slack let values up to 32 bytes (most text fields) be copied with one or two
    // fixed-size moves instead of a memcpy call (the block buffer the fields point into has 64
    // bytes of padding past its end as well).
    int64_t want = total + 32;
    if (b.length_ == 0 && b.expected_ > rows) want += total * (b.expected_ - rows) / rows + total / 8;
    QUIVER_RETURN_NOT_OK(bytes.Reserve(want));
    const int64_t first = bytes.size();
    int32_t* off = reinterpret_cast<int32_t*>(b.offsets_.mutable_data()) + b.length_;
    std::string scratch;
    const bool check_utf8 = b.type_->id() == TypeId::kString;
    const bool direct = syn.Direct();
    for (int64_t r = 0; r < rows; ++r) {
      const FieldRef f = fields[r];
      std::string_view text(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
      bool quoted = false;
      if (!(direct && !text.empty() && text.front() != syn.quote) && !syn.Text(data, f, true, &text, &quoted)) {
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
      } else if (quoted && text.find(syn.escape == '\0' ? syn.quote : syn.escape) != std::string_view::npos) {
        scratch.clear();
        syn.Unescape(text, &scratch);
        QUIVER_RETURN_NOT_OK(bytes.Append(scratch));
      } else if (text.size() <= 32 && bytes.size() + 32 <= bytes.capacity()) {
        // Unquoted and plain quoted text: the reserve above covers it.
        uint8_t* dst = bytes.mutable_data() + bytes.size();
        std::memcpy(dst, text.data(), 16);
        if (text.size() > 16) std::memcpy(dst + 16, text.data() + 16, 16);
        bytes.UnsafeSetSize(bytes.size() + static_cast<int64_t>(text.size()));
      } else {
        QUIVER_RETURN_NOT_OK(bytes.Append(text.data(), static_cast<int64_t>(text.size())));
      }
      if (bytes.size() > INT32_MAX) return Status::Invalid("string column exceeds 2 GiB in one chunk");
      off[r + 1] = static_cast<int32_t>(bytes.size());
    }
    // One validation pass over the group's bytes; only a failure looks at single values.
    if (check_utf8 &&
        !simdjson::validate_utf8(reinterpret_cast<const char*>(bytes.data()) + first, static_cast<size_t>(bytes.size() - first))) {
      if (!syn.replace_invalid_utf8 && !null_on_error) {
        for (int64_t r = 0; r < rows; ++r) {
          if (!simdjson::validate_utf8(reinterpret_cast<const char*>(bytes.data()) + off[r],
                                       static_cast<size_t>(off[r + 1] - off[r]))) {
            error->row = r;
            error->failure = ConvertFailure::kInvalidUtf8;
            bytes.UnsafeSetSize(first);
            return Status::OK();
          }
        }
      }
      // Rebuild the group with repairs (or nulls).
      std::string group(reinterpret_cast<const char*>(bytes.data()) + first, static_cast<size_t>(bytes.size() - first));
      bytes.UnsafeSetSize(first);
      int32_t prev = off[0];
      for (int64_t r = 0; r < rows; ++r) {
        std::string_view v(group.data() + (prev - first), static_cast<size_t>(off[r + 1] - prev));
        prev = off[r + 1];
        if (!simdjson::validate_utf8(v.data(), v.size())) {
          if (syn.replace_invalid_utf8) {
            QUIVER_RETURN_NOT_OK(bytes.Append(RepairUtf8(v)));
          } else {
            ++*nulled;
            QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
          }
        } else {
          QUIVER_RETURN_NOT_OK(bytes.Append(v));
        }
        if (bytes.size() > INT32_MAX) return Status::Invalid("string column exceeds 2 GiB in one chunk");
        off[r + 1] = static_cast<int32_t>(bytes.size());
      }
    }
    b.offsets_.UnsafeSetSize(b.offsets_.size() + rows * 4);
    b.length_ += rows;
    return Status::OK();
  }
};

Status ColumnBuilder::Init(const TypePtr& type, MemoryPool* pool) {
  type_ = type;
  pool_ = pool;
  values_ = BufferBuilder(pool);
  offsets_ = BufferBuilder(pool);
  validity_ = BufferBuilder(pool);
  has_validity_ = false;
  validity_bits_ = length_ = nulls_ = pending_end_ = expected_ = 0;
  value_width_ = 0;
  append_ = nullptr;
  if (VisitFixedParser(type->id(), [&](auto parser) {
        using P = decltype(parser);
        append_ = &ColumnConverters::Fixed<typename P::type, P::parse_padded>;
        value_width_ = static_cast<int>(sizeof(typename P::type));
      })) {
    return Status::OK();
  }
  switch (type->id()) {
    case TypeId::kBool: append_ = &ColumnConverters::Bool; return Status::OK();
    case TypeId::kString:
    case TypeId::kBinary:
      append_ = &ColumnConverters::String;
      return offsets_.AppendValue(int32_t{0});
    default:
      return Status::NotImplemented(fmt::format("CSV columns of type {} are not supported", type->ToString()));
  }
}

Status ColumnBuilder::Reserve(int64_t rows) {
  expected_ = length_ + rows;
  if (value_width_ > 0) return values_.Reserve(rows * value_width_);
  if (append_ == &ColumnConverters::Bool) return values_.Reserve(bit_util::BytesForBits(rows) + 1);
  return offsets_.Reserve(rows * 4);
}

Status ColumnBuilder::Append(const uint8_t* data, const FieldRef* fields, int64_t rows, const FieldSyntax& syntax,
                             bool null_on_error, int64_t* nulled, ConvertError* error) {
  return append_(*this, data, fields, rows, syntax, null_on_error, nulled, error);
}

Status ColumnBuilder::FillValidity(int64_t end) {
  const int64_t bytes = bit_util::BytesForBits(end);
  if (bytes > validity_.size()) {
    QUIVER_RETURN_NOT_OK(validity_.Reserve(bytes - validity_.size()));
    validity_.UnsafeSetSize(bytes);
  }
  if (end > validity_bits_) bit_util::SetBitsTo(validity_.mutable_data(), validity_bits_, end - validity_bits_, true);
  validity_bits_ = std::max(validity_bits_, end);
  return Status::OK();
}

Status ColumnBuilder::ExtendValidity(int64_t rows) {
  pending_end_ = length_ + rows;
  return has_validity_ ? FillValidity(pending_end_) : Status::OK();
}

Status ColumnBuilder::SetNull(int64_t row) {
  if (!has_validity_) {
    // The first null: every row before it was valid.
    has_validity_ = true;
    QUIVER_RETURN_NOT_OK(FillValidity(pending_end_));
  }
  bit_util::ClearBit(validity_.mutable_data(), row);
  ++nulls_;
  return Status::OK();
}

Result<Array> ColumnBuilder::Finish() {
  auto d = std::make_shared<ArrayData>();
  d->type = type_;
  d->length = length_;
  d->null_count = nulls_;
  std::shared_ptr<Buffer> validity;
  if (has_validity_) {
    validity_.UnsafeSetSize(bit_util::BytesForBits(length_));
    QUIVER_ASSIGN_OR_RETURN(validity, validity_.Finish());
  }
  if (append_ == &ColumnConverters::String) {
    QUIVER_ASSIGN_OR_RETURN(auto offsets, offsets_.Finish());
    QUIVER_ASSIGN_OR_RETURN(auto bytes, values_.Finish());
    d->buffers = {std::move(validity), std::move(offsets), std::move(bytes)};
  } else {
    QUIVER_ASSIGN_OR_RETURN(auto values, values_.Finish());
    d->buffers = {std::move(validity), std::move(values)};
  }
  has_validity_ = false;
  validity_bits_ = length_ = nulls_ = pending_end_ = expected_ = 0;
  return Array(std::move(d));
}

Result<Array> ConvertColumn(const TypePtr& type, const uint8_t* data, const FieldRef* fields, int64_t rows,
                            const FieldSyntax& syn, bool null_on_error, int64_t* nulled, ConvertError* error,
                            MemoryPool* pool) {
  ColumnBuilder b;
  QUIVER_RETURN_NOT_OK(b.Init(type, pool));
  QUIVER_RETURN_NOT_OK(b.Reserve(rows));
  QUIVER_RETURN_NOT_OK(b.Append(data, fields, rows, syn, null_on_error, nulled, error));
  if (error->failure != ConvertFailure::kNone) return Array();
  return b.Finish();
}

bool FieldConverts(const TypePtr& type, const uint8_t* data, const FieldRef& f, const FieldSyntax& syn) {
  std::string_view text;
  bool quoted;
  const bool is_string = type->id() == TypeId::kString || type->id() == TypeId::kBinary;
  if (!syn.Text(data, f, is_string, &text, &quoted)) return true;
  bool converts = true;
  if (VisitFixedParser(type->id(), [&](auto parser) {
        using P = decltype(parser);
        typename P::type v;
        converts = P::parse(text, type, syn, &v);
      })) {
    return converts;
  }
  switch (type->id()) {
    case TypeId::kBool: { bool v; return ParseBool(text, syn, &v); }
    case TypeId::kString:
      if (syn.replace_invalid_utf8) return true;
      if (quoted) {
        std::string s;
        syn.Unescape(text, &s);
        return simdjson::validate_utf8(s.data(), s.size());
      }
      return simdjson::validate_utf8(text.data(), text.size());
    default: return true;
  }
}

}  // namespace quiver::csv
