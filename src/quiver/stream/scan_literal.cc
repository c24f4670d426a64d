#include "quiver/stream/scan_literal.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "quiver/core/utf8.h"
#include "quiver/columnar/value_parse.h"
#include "quiver/parquet/bloom_filter.h"

namespace quiver::stream {

Result<parquet::Literal> ParseLiteral(const DataType& type, const std::string& text, const std::string& column) {
  auto bad = [&](std::string_view what) {
    return Status::Invalid(fmt::format("'{}' is not {} (column '{}' is {})", EscapeForMessage(text), what,
                                       EscapeForMessage(column), type.ToString()));
  };
  switch (type.id()) {
    case TypeId::kBool: {
      std::string t = text;
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (t == "true" || t == "1") return parquet::Literal::Int(1);
      if (t == "false" || t == "0") return parquet::Literal::Int(0);
      return bad("a boolean");
    }
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64: {
      int64_t v;
      if (ParseInt64(text, &v)) return parquet::Literal::Int(v);
      uint64_t u;
      const char* end = text.data() + text.size();
      const char* begin = text.data() + (!text.empty() && text[0] == '+');
      auto r = std::from_chars(begin, end, u);
      if (r.ec == std::errc() && r.ptr == end && begin != end) return parquet::Literal::Int(u);
      return bad("an integer");
    }
    case TypeId::kDate32: {
      int32_t days;
      if (!ParseDate(text, &days)) return bad("a date (YYYY-MM-DD)");
      return parquet::Literal::Int(days);
    }
    case TypeId::kTimestamp: {
      ParsedTimestamp ts;
      if (!ParseTimestamp(text, &ts)) return bad("a timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]])");
      switch (type.unit()) {
        case TimeUnit::kSecond:
          if (ts.micros % 1000000 != 0) return bad("a timestamp in whole seconds");
          return parquet::Literal::Int(ts.micros / 1000000);
        case TimeUnit::kMilli:
          if (ts.micros % 1000 != 0) return bad("a timestamp in whole milliseconds");
          return parquet::Literal::Int(ts.micros / 1000);
        case TimeUnit::kMicro:
          return parquet::Literal::Int(ts.micros);
        case TimeUnit::kNano:
          return parquet::Literal::Int(static_cast<__int128>(ts.micros) * 1000);
      }
      return bad("a timestamp");
    }
    case TypeId::kFloat32: case TypeId::kFloat64: {
      double d;
      if (!ParseFloat64(text, &d)) return bad("a number");
      // A float32 column compares with the literal rounded to float, as its values are.
      if (type.id() == TypeId::kFloat32) d = static_cast<float>(d);
      return parquet::Literal::Float(d);
    }
    case TypeId::kString: case TypeId::kBinary:
      return parquet::Literal::Bytes(text);
    default:
      return Status::NotImplemented(fmt::format("comparisons on column '{}' ({}) are not supported", column,
                                                type.ToString()));
  }
}

Result<std::string> BloomProbeBytes(const parquet::SchemaTree& tree, int column, const std::string& text) {
  const parquet::ColumnDescriptor& col = tree.columns()[static_cast<size_t>(column)];
  const std::string path = col.dotted_path();
  QUIVER_ASSIGN_OR_RETURN(Field f, tree.ToField(col.node));
  QUIVER_ASSIGN_OR_RETURN(parquet::Literal lit, ParseLiteral(*f.type, text, path));
  if (col.physical_type == parquet::Type::INT32 && lit.kind == parquet::Literal::Kind::kInt &&
      (lit.i < INT32_MIN || lit.i > UINT32_MAX)) {
    return Status::Invalid(fmt::format("'{}' is out of range for column '{}' ({})", EscapeForMessage(text),
                                       EscapeForMessage(path), f.type->ToString()));
  }
  std::optional<std::string> bytes = parquet::BloomBytesOf(lit, col.physical_type);
  if (!bytes) {
    return Status::Invalid(fmt::format("column '{}': no bloom filter for {} values", EscapeForMessage(path),
                                       parquet::TypeName(col.physical_type)));
  }
  return std::move(*bytes);
}

}  // namespace quiver::stream
