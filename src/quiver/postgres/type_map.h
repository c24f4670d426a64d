// Which PostgreSQL type each quiver column becomes (docs/postgres.md): the column a --create
// table gets, and whether an existing table's column (--append, --truncate) can hold a source
// column, with the binary form the COPY encoder then writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "quiver/columnar/schema.h"
#include "quiver/core/result.h"

namespace quiver::postgres {

// The binary forms the encoder writes (one per PostgreSQL receive function it feeds).
enum class PgKind : uint8_t {
  kBool, kInt2, kInt4, kInt8, kFloat4, kFloat8, kNumeric, kText, kBytea,
  kDate, kTime, kTimestamp, kTimestampTz, kUuid, kJson, kJsonb, kArray,
};

struct PgType {
  PgKind kind = PgKind::kText;
  uint32_t oid = 0;       // the type's OID (an array's element OID is in elem_oid)
  std::string sql;        // as CREATE TABLE spells it: "numeric(20,0)", "bigint[]"
  PgKind elem = PgKind::kText;  // kArray: the elements' form
  uint32_t elem_oid = 0;        // kArray: the elements' type OID (written in each array's header)
};

// The type a --create table gives a column of this field's type; NotImplemented naming the
// column for a type with no mapping.
Result<PgType> CreateTypeOf(const Field& field);

// An existing column's type, from pg_type: its OID, format_type() text, and for an array its
// element's OID. Invalid when quiver cannot write that type in binary form.
Result<PgType> PgTypeFromCatalog(uint32_t oid, const std::string& sql, uint32_t elem_oid);

// Whether a source field can go into a column of `target` type (before any row is sent):
// Invalid naming the column, both types and what to do otherwise.
Status CheckAssignable(const Field& field, const PgType& target, const std::string& table);

// CREATE TABLE for `schema` under `qualified_name` (already quoted).
Result<std::string> CreateTableSql(const Schema& schema, const std::string& qualified_name);

// The extension name a field may carry (Arrow's "ARROW:extension:name"), "" if none.
std::string ExtensionNameOf(const Field& field);

}  // namespace quiver::postgres
