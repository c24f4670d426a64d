// A `column op literal` predicate typed as text (`quiver cat --where`): the one parser of such
// text and of comparison operators, and the predicate bound to a file's column for a scan.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "quiver/columnar/schema.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/stream/parquet_scan.h"

namespace quiver::stream {

struct WhereClause {
  std::string column;
  parquet::CompareOp op = parquet::CompareOp::kEq;
  std::string literal;          // its text, read by the column's type when bound (ParseLiteral)
  std::string label = "where";  // what messages call the clause (the program: "--where")
};

// "=", "==", "!=", "<>", "<", "<=", ">", ">="; nullopt for anything else.
std::optional<parquet::CompareOp> CompareOpFromName(std::string_view name);

// `column op literal`: the column name (double quotes around it removed), one of the operators
// above, and the literal (single quotes around it removed, '' inside them read as one quote).
// Invalid naming `label` and the text when it is not such a predicate.
Result<WhereClause> ParseWhere(std::string_view text, std::string label = "where");

// The clause on a top-level column of `schema` (of the file `path`, named in messages), its
// literal parsed as a value of the column's type.
Result<ScanPredicate> BindWhere(const Schema& schema, const WhereClause& where, const std::string& path);

}  // namespace quiver::stream
