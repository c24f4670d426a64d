#include "quiver/postgres/type_map.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"
#include "quiver/postgres/connection.h"

namespace quiver::postgres {
namespace {

// OIDs fixed by PostgreSQL's catalog (pg_type.dat); arrays' element OIDs are in their headers.
constexpr uint32_t kBoolOid = 16, kByteaOid = 17, kInt8Oid = 20, kInt2Oid = 21, kInt4Oid = 23, kTextOid = 25,
                   kJsonOid = 114, kFloat4Oid = 700, kFloat8Oid = 701, kBpcharOid = 1042, kVarcharOid = 1043,
                   kDateOid = 1082, kTimeOid = 1083, kTimestampOid = 1114, kTimestampTzOid = 1184,
                   kNumericOid = 1700, kUuidOid = 2950, kJsonbOid = 3802;

PgType Simple(PgKind kind, uint32_t oid, std::string sql) {
  PgType t;
  t.kind = kind;
  t.oid = oid;
  t.sql = std::move(sql);
  return t;
}

bool IsInteger(TypeId id) {
  switch (id) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string ExtensionNameOf(const Field& field) {
  for (const auto& [k, v] : field.metadata) {
    if (k == "ARROW:extension:name") return v;
  }
  return "";
}

Result<PgType> CreateTypeOf(const Field& field) {
  const DataType& t = *field.type;
  switch (t.id()) {
    case TypeId::kBool: return Simple(PgKind::kBool, kBoolOid, "boolean");
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kUInt8:
      return Simple(PgKind::kInt2, kInt2Oid, "smallint");
    case TypeId::kInt32: case TypeId::kUInt16: return Simple(PgKind::kInt4, kInt4Oid, "integer");
    case TypeId::kInt64: case TypeId::kUInt32: return Simple(PgKind::kInt8, kInt8Oid, "bigint");
    case TypeId::kUInt64: return Simple(PgKind::kNumeric, kNumericOid, "numeric(20,0)");
    case TypeId::kFloat16: case TypeId::kFloat32: return Simple(PgKind::kFloat4, kFloat4Oid, "real");
    case TypeId::kFloat64: return Simple(PgKind::kFloat8, kFloat8Oid, "double precision");
    case TypeId::kDecimal128:
      return Simple(PgKind::kNumeric, kNumericOid, fmt::format("numeric({},{})", t.precision(), t.scale()));
    case TypeId::kDate32: return Simple(PgKind::kDate, kDateOid, "date");
    case TypeId::kTime32: case TypeId::kTime64: return Simple(PgKind::kTime, kTimeOid, "time");
    case TypeId::kTimestamp:
      return t.timezone().empty() ? Simple(PgKind::kTimestamp, kTimestampOid, "timestamp")
                                  : Simple(PgKind::kTimestampTz, kTimestampTzOid, "timestamptz");
    case TypeId::kString: return Simple(PgKind::kText, kTextOid, "text");
    case TypeId::kBinary: return Simple(PgKind::kBytea, kByteaOid, "bytea");
    case TypeId::kFixedSizeBinary:
      if (t.fixed_size() == 16 && ExtensionNameOf(field) == "arrow.uuid") return Simple(PgKind::kUuid, kUuidOid, "uuid");
      return Simple(PgKind::kBytea, kByteaOid, "bytea");
    case TypeId::kList: {
      const Field& item = t.field(0);
      if (!item.type->is_nested()) {
        QUIVER_ASSIGN_OR_RETURN(PgType e, CreateTypeOf(item));
        PgType a;
        a.kind = PgKind::kArray;
        a.elem = e.kind;
        a.elem_oid = e.oid;
        a.sql = e.sql + "[]";
        return a;
      }
      // PostgreSQL arrays are rectangular and of one element type: nested lists go as JSON.
      return Simple(PgKind::kJsonb, kJsonbOid, "jsonb");
    }
    case TypeId::kStruct: case TypeId::kMap: case TypeId::kDenseUnion:
      return Simple(PgKind::kJsonb, kJsonbOid, "jsonb");
  }
  return Status::NotImplemented(
      fmt::format("column '{}': no PostgreSQL type for {}", EscapeForMessage(field.name), t.ToString()));
}

Result<PgType> PgTypeFromCatalog(uint32_t oid, const std::string& sql, uint32_t elem_oid) {
  auto kind_of = [](uint32_t o) -> int {
    switch (o) {
      case kBoolOid: return static_cast<int>(PgKind::kBool);
      case kInt2Oid: return static_cast<int>(PgKind::kInt2);
      case kInt4Oid: return static_cast<int>(PgKind::kInt4);
      case kInt8Oid: return static_cast<int>(PgKind::kInt8);
      case kFloat4Oid: return static_cast<int>(PgKind::kFloat4);
      case kFloat8Oid: return static_cast<int>(PgKind::kFloat8);
      case kNumericOid: return static_cast<int>(PgKind::kNumeric);
      case kTextOid: case kVarcharOid: case kBpcharOid: return static_cast<int>(PgKind::kText);
      case kByteaOid: return static_cast<int>(PgKind::kBytea);
      case kDateOid: return static_cast<int>(PgKind::kDate);
      case kTimeOid: return static_cast<int>(PgKind::kTime);
      case kTimestampOid: return static_cast<int>(PgKind::kTimestamp);
      case kTimestampTzOid: return static_cast<int>(PgKind::kTimestampTz);
      case kUuidOid: return static_cast<int>(PgKind::kUuid);
      case kJsonOid: return static_cast<int>(PgKind::kJson);
      case kJsonbOid: return static_cast<int>(PgKind::kJsonb);
      default: return -1;
    }
  };
  PgType t;
  t.sql = sql;
  t.oid = oid;
  if (elem_oid != 0) {
    const int e = kind_of(elem_oid);
    if (e < 0) return Status::Invalid(fmt::format("quiver cannot write the type {}", sql));
    t.kind = PgKind::kArray;
    t.elem = static_cast<PgKind>(e);
    t.elem_oid = elem_oid;
    return t;
  }
  const int k = kind_of(oid);
  if (k < 0) return Status::Invalid(fmt::format("quiver cannot write the type {}", sql));
  t.kind = static_cast<PgKind>(k);
  return t;
}

namespace {

bool Assignable(const Field& field, PgKind target, PgKind elem) {
  const DataType& t = *field.type;
  if (target == PgKind::kJson || target == PgKind::kJsonb) {
    return t.is_nested() || t.id() == TypeId::kString;
  }
  if (IsInteger(t.id())) {
    return target == PgKind::kInt2 || target == PgKind::kInt4 || target == PgKind::kInt8 || target == PgKind::kNumeric;
  }
  switch (t.id()) {
    case TypeId::kBool: return target == PgKind::kBool;
    case TypeId::kFloat16: case TypeId::kFloat32: return target == PgKind::kFloat4 || target == PgKind::kFloat8;
    case TypeId::kFloat64: return target == PgKind::kFloat8;
    case TypeId::kDecimal128: return target == PgKind::kNumeric;
    case TypeId::kDate32: return target == PgKind::kDate;
    case TypeId::kTime32: case TypeId::kTime64: return target == PgKind::kTime;
    case TypeId::kTimestamp:
      return target == (t.timezone().empty() ? PgKind::kTimestamp : PgKind::kTimestampTz);
    case TypeId::kString: return target == PgKind::kText;
    case TypeId::kBinary: return target == PgKind::kBytea;
    case TypeId::kFixedSizeBinary: return target == PgKind::kBytea || (target == PgKind::kUuid && t.fixed_size() == 16);
    case TypeId::kList:
      return target == PgKind::kArray && !t.field(0).type->is_nested() &&
             Assignable(t.field(0), elem, PgKind::kText);
    default:
      return false;
  }
}

}  // namespace

Status CheckAssignable(const Field& field, const PgType& target, const std::string& table) {
  if (Assignable(field, target.kind, target.elem)) return Status::OK();
  const DataType& t = *field.type;
  std::string hint = "read the column as a type that fits (for CSV, --types), or load with --create/--replace";
  if (t.id() == TypeId::kFloat64 && target.kind == PgKind::kFloat4) {
    hint = "real would round double values; make the column double precision";
  } else if (t.id() == TypeId::kTimestamp) {
    hint = "timestamps with a time zone go into timestamptz, those without into timestamp";
  }
  return Status::Invalid(fmt::format("column '{}': {} values cannot go into {}.{} of type {} ({})",
                                     EscapeForMessage(field.name), t.ToString(), table,
                                     QuoteIdent(field.name), target.sql, hint));
}

Result<std::string> CreateTableSql(const Schema& schema, const std::string& qualified_name) {
  if (schema.num_fields() == 0) return Status::Invalid("postgres: the input has no columns");
  std::string sql = "CREATE TABLE " + qualified_name + " (";
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& f = schema.field(i);
    QUIVER_ASSIGN_OR_RETURN(PgType t, CreateTypeOf(f));
    if (i > 0) sql += ", ";
    sql += QuoteIdent(f.name) + " " + t.sql;
    if (!f.nullable) sql += " NOT NULL";
  }
  return sql + ")";
}

}  // namespace quiver::postgres
