// What a file holds, for people and programs: a Parquet, ORC or Arrow IPC file's schema and a
// Parquet or ORC file's footer metadata, as text or as one line of JSON. `quiver schema` and
// `quiver meta` print these; Python's quiver.schema() and quiver.metadata() parse the JSON.
#pragma once

#include <string>
#include <vector>

#include "quiver/core/result.h"
#include "quiver/parquet/encryption.h"

namespace quiver::describe {

struct DescribeOptions {
  bool json = false;  // one line of JSON instead of text
  // Parquet: only this row group (the schema only checks that it exists); ORC metadata: only
  // this stripe. -1: all.
  int row_group = -1;
  // Only these columns (dotted paths; a group selects its leaves); empty: all.
  std::vector<std::string> columns;
  // Parquet: the keys of an encrypted file (an encrypted footer needs its key; encrypted
  // column metadata shows once its key is given).
  parquet::DecryptionOptions decryption;
};

// The schema: Parquet's tree (names, repetition, physical and logical types, levels, quiver
// type), ORC's type tree, an Arrow IPC file's or stream's fields. The format is told as
// stream::InputFormatOf tells it.
Result<std::string> DescribeSchema(const std::string& path, const DescribeOptions& options = {});

// The footer: for Parquet the summary, key-value metadata, every row group and column chunk
// (encodings, codec, sizes, page offsets, statistics as values of the column's type), only the
// chosen row groups and columns decoded; for ORC the PostScript, footer, stripes (streams,
// encodings, writer time zone) and column statistics.
Result<std::string> DescribeMetadata(const std::string& path, const DescribeOptions& options = {});

// `probe` is column=value: per row group of a Parquet file, whether its bloom filter of the
// column may hold the value (read as the column's type, stream/scan_literal.h), holds it not, or
// is absent. Only that column's chunks are decoded.
Result<std::string> DescribeBloomFilters(const std::string& path, const std::string& probe,
                                         const DescribeOptions& options = {});

}  // namespace quiver::describe
