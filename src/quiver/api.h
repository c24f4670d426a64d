// What a program using quiver may include: this header, or any header it names. Headers named
// *_internal.h are the library's own (the Thrift decoder, the encodings, the CSV splitter and
// converters); they are not installed and no public header includes them.
#pragma once

// Outcomes, memory, threads.
#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/core/status.h"
#include "quiver/core/thread_pool.h"

// Arrow-layout data in memory, and values as text.
#include "quiver/columnar/array.h"
#include "quiver/columnar/builder.h"
#include "quiver/columnar/c_data_interface.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/gather.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/columnar/record_batch.h"
#include "quiver/columnar/schema.h"
#include "quiver/columnar/type.h"
#include "quiver/columnar/value_text.h"

// Files.
#include "quiver/io/atomic_file.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/io/output_target.h"

// Formats.
#include "quiver/csv/byte_ranges.h"
#include "quiver/csv/options.h"
#include "quiver/csv/problems.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/sniffer.h"
#include "quiver/csv/writer.h"
#include "quiver/json/generate.h"
#include "quiver/json/options.h"
#include "quiver/json/reader.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"

// Batch streams, the Parquet scan, datasets.
#include "quiver/dataset/partitioned_writer.h"
#include "quiver/stream/batch_stream.h"
#include "quiver/stream/copy.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/open.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/read_ahead.h"
#include "quiver/stream/scan_literal.h"

// PostgreSQL: batches into a table through binary COPY, all or nothing (docs/postgres.md).
#include "quiver/postgres/connection.h"
#include "quiver/postgres/load.h"
#include "quiver/postgres/writer.h"
