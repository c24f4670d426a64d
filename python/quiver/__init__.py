"""quiver: fast CSV to Parquet, Parquet and Arrow IPC reading and writing, from Python.

The work runs in quiver's C++ library with the GIL released; tables and batches hand their
memory to pyarrow, polars, duckdb and NumPy through the Arrow PyCapsule interface.

    import quiver
    t = quiver.read_csv("lineitem.csv")
    quiver.convert("lineitem.csv", "lineitem.parquet", compression="zstd")
    df = quiver.read_parquet("lineitem.parquet", filter=("l_quantity", ">", 45)).to_pandas()
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Mapping, Optional, Sequence, Tuple, Union

from . import _quiver
from ._quiver import (  # noqa: F401  (re-exported)
    Array,
    BatchReader,
    CancelledError,
    Column,
    CorruptFileError,
    Error,
    FileError,
    InvalidInputError,
    NotImplementedError,
    OutOfMemoryError,
    RecordBatch,
    Schema,
    Table,
)

__version__ = _quiver.__version__
__all__ = [
    "read_csv", "open_csv", "read_json", "open_json", "read_parquet", "scan_parquet", "convert", "load", "write", "sniff",
    "schema",
    "metadata", "from_arrow", "generate_lineitem", "generate_logs", "Table", "RecordBatch", "Schema", "Array", "Column", "BatchReader",
    "Error", "InvalidInputError", "CorruptFileError", "OutOfMemoryError", "NotImplementedError",
    "FileError", "CancelledError",
]

PathOrFile = Union[str, "os.PathLike[str]", bytes, Any]
Filter = Tuple[str, str, Any]

_CSV_OPTIONS_DOC = """
    CSV options (every one optional; what is not given is sniffed from the first block):
        delimiter: one character, "\\t" for tab.
        quote: the quote character; "" or "none" for no quoting.
        escape: the character escaping a quote inside quotes (default: the quote doubled).
        header: whether the first line names the columns.
        skip_rows: physical lines to skip before the header.
        comment: lines starting with this character are skipped.
        column_names: names when the file has no header.
        column_types: {column: type}, types "int64", "float64", "bool", "date", "timestamp",
            "timestamptz", "time", "string", "decimal(p,s)"; a date or timestamp may name its
            format: "date:%d/%m/%Y".
        infer_types: False reads every column as a string.
        infer_rows: rows sampled for type inference (default 20480).
        infer_all: infer over the whole file first, so no late value breaks the load.
        two_digit_years_from: years %y names (1930: 30..99 are 1930..1999, 00..29 2000..2029).
        null_values, true_values, false_values: lists of the spellings.
        trim_whitespace: strip spaces around unquoted values.
        encoding: "utf8" (default), "latin1" or "utf16".
        replace_invalid_utf8: put U+FFFD for invalid UTF-8 instead of failing.
        on_error: "fail" (default: InvalidInputError naming line and column), "skip" (drop the
            row) or "null" (a value that does not convert becomes null).
        rejects: with on_error="skip", a CSV file of the dropped rows (line, reason, record),
            written once the input has been read to its end (as `--rejects`).
        lenient: read messy files (short rows padded, extra fields dropped, stray quotes literal).
        batch_rows: rows per record batch (default 65536).
        block_size: bytes read and split per round and thread (default 4 MiB).
        threads: worker threads (default 0: all cores).
"""

_WRITE_OPTIONS_DOC = """
    Output options (as `quiver convert`'s flags):
        format: "parquet", "csv", "tsv", "jsonl", "arrow" (Arrow IPC file), "arrows" (stream);
            default by the destination's extension.
        compression: Parquet "snappy" (default), "zstd", "lz4_raw", "gzip", "brotli", "none";
            Arrow IPC "none" (default), "lz4", "zstd".
        compression_level: the codec's level (zstd 1..22, gzip 0..12, brotli 0..11).
        row_group_size: rows per Parquet row group (default 122880).
        row_group_bytes: also end a row group at about this many bytes in memory (0: no limit).
        page_size: target bytes of values per data page (default 1 MiB).
        dictionary: dictionary-encode columns (default True).
        page_index: write the page index (default True).
        page_version: data page version 1 (default) or 2.
        column_encodings: {column: "plain" | "delta_binary_packed" | "delta_length_byte_array" |
            "delta_byte_array" | "byte_stream_split"}.
        statistics_truncate: truncate string min/max statistics to this many bytes (0: never).
        bloom_filter: columns to write split-block bloom filters for (list or "a,b").
        bloom_filter_fpp, bloom_filter_ndv: how each bloom filter is sized.
        partition_by: columns (list or "a,b") whose values name Hive-style folders
            (dst/col=value/part-00000.parquet); those columns leave the files.
        max_open_partitions, partition_buffer_mb: limits of a partitioned write.
        threads: encoder threads (default 0: all cores).
"""


@contextlib.contextmanager
def _memory_limit(limit: Optional[int]) -> Iterator[None]:
    if limit is None:
        yield
        return
    if limit < 1:
        raise InvalidInputError(f"memory_limit must be a positive number of bytes, got {limit}")
    before = _quiver._set_memory_limit(int(limit))
    try:
        yield
    finally:
        _quiver._set_memory_limit(before)


def _source(path_or_file: PathOrFile) -> Union[str, bytes]:
    if isinstance(path_or_file, (bytes, bytearray, memoryview)):
        return bytes(path_or_file)
    if hasattr(path_or_file, "read"):
        data = path_or_file.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    return os.fspath(path_or_file)


def open_csv(path_or_file: PathOrFile, **options: Any) -> BatchReader:
    """Open a CSV file (a path, bytes, or a file object to read whole) as an iterator of
    RecordBatch. The dialect and schema are settled on open (reader.schema).
    """
    return _quiver._open_csv(_source(path_or_file), options)


def read_csv(path_or_file: PathOrFile, *, memory_limit: Optional[int] = None, **options: Any) -> Table:
    """Read a whole CSV file into a Table.

    path_or_file: a path (gzip and zstd files are read through), bytes, or a file object.
    memory_limit: bytes quiver may hold while reading: the whole process's limit while the call
        runs, past which OutOfMemoryError (coarse: worker threads keep up to a few MiB each of
        memory taken before the limit was set).
    Errors: InvalidInputError for values that do not convert or bad options (the message names
    the line, column and option to set), FileError for a missing file, OutOfMemoryError.
    Ctrl-C stops the read between batches (KeyboardInterrupt).
    """
    with _memory_limit(memory_limit):
        return open_csv(path_or_file, **options).read_all()


open_csv.__doc__ += _CSV_OPTIONS_DOC
read_csv.__doc__ += _CSV_OPTIONS_DOC


def open_json(path: Union[str, "os.PathLike[str]"], **options: Any) -> BatchReader:
    """Open a JSON Lines file, or one holding a top-level array of objects (gzip and zstd read
    through), as an iterator of RecordBatch; objects become structs, arrays lists (docs/json.md).

    infer_rows: rows the schema is inferred from (default 20480); a key first seen later is an error.
    types: declared types by dotted key path, "a.b=int64,ts=timestamp" or {"a.b": "int64"}
        (string keeps any value as its JSON text; dates and timestamps are parsed from strings).
    columns: top-level columns to keep, in order. threads: parser threads (default: all cores).
    on_error: "fail" (default) or "skip" (JSON Lines only: a malformed line, or one whose values
        do not convert, is left out and counted); rejects: with "skip", a CSV file of the lines
        left out (line, reason, text), written once the input has been read to its end.
    Errors: InvalidInputError naming file:line:column and byte for malformed JSON, or the key
    path, line and value for a value of the wrong type.
    """
    options = dict(options)
    options.setdefault("format", "json")
    return _quiver._open(os.fspath(path), options)


def read_json(path: Union[str, "os.PathLike[str]"], *, memory_limit: Optional[int] = None,
              **options: Any) -> Table:
    """Read a whole JSON Lines (or top-level array) file into a Table; options as open_json."""
    with _memory_limit(memory_limit):
        return open_json(path, **options).read_all()


def scan_parquet(path: Union[str, "os.PathLike[str]"], columns: Optional[Sequence[str]] = None,
                 filter: Optional[Filter] = None, *, threads: int = 0,
                 decryption_keys: Optional[Mapping[str, Union[str, bytes]]] = None) -> BatchReader:
    """A Parquet file as an iterator of RecordBatch, one row group each.

    columns: top-level columns to read, in order (default all).
    filter: (column, op, value) with op one of = == != < <= > >=: row groups and pages whose
        statistics, bloom filters and page index rule it out are not read, and only matching
        rows are returned. The value may be an int, float, str, bool, datetime.date or
        datetime.datetime (as the column's type).
    threads: decoder threads (default 0: all cores).
    decryption_keys: for an encrypted file (Parquet modular encryption), as the CLI's key flags:
        {"footer": KEY, "column.path": KEY, ..., "aad_prefix": TEXT, "keys_file": PATH}, a KEY
        as "hex:...", "base64:..." or the raw 16, 24 or 32 bytes. Columns whose key is missing
        are named in the error; a file with a plaintext footer reads its other columns without keys.
    """
    return _quiver._scan_parquet(os.fspath(path), list(columns) if columns is not None else None,
                                 tuple(filter) if filter is not None else None, threads, [],
                                 dict(decryption_keys) if decryption_keys is not None else None)


def read_parquet(path: Union[str, "os.PathLike[str]"], columns: Optional[Sequence[str]] = None,
                 filter: Optional[Filter] = None, *, threads: int = 0,
                 decryption_keys: Optional[Mapping[str, Union[str, bytes]]] = None,
                 memory_limit: Optional[int] = None) -> Table:
    """Read a Parquet file into a Table (see scan_parquet for columns, filter, threads and
    decryption_keys).

    memory_limit: bytes quiver may hold meanwhile (the process's limit); past it OutOfMemoryError.
    Errors: CorruptFileError for a malformed file (or an encrypted module whose tag fails),
    NotImplementedError for a feature quiver does not read, FileError, InvalidInputError for a
    bad filter or column, or a missing or wrong key.
    """
    with _memory_limit(memory_limit):
        return scan_parquet(path, columns, filter, threads=threads, decryption_keys=decryption_keys).read_all()


def convert(src: Union[str, "os.PathLike[str]"], dst: Union[str, "os.PathLike[str]"], *,
            memory_limit: Optional[int] = None, **options: Any) -> int:
    """Convert a CSV, Parquet or Arrow IPC file into Parquet, CSV, JSON Lines or Arrow IPC, as
    `quiver convert SRC DST` does: streamed batch by batch and written atomically (a failed or
    interrupted conversion leaves nothing at dst). Returns the rows written.

    input_format: "csv", "tsv", "parquet", "arrow" or "arrows" (default: by extension, then
        by the file's first bytes; CSV otherwise).
    CSV input takes the CSV options of read_csv, JSON input those of open_json; Parquet or Arrow input takes columns=; an
    encrypted Parquet input takes decryption_keys= (as read_parquet).
    encryption: for Parquet output, as `quiver convert --footer-key ...`: {"footer_key": KEY,
        "column_keys": {path: KEY}, "plaintext_footer": bool, "aad_prefix": TEXT,
        "store_aad_prefix": bool, "algorithm": "gcm" | "gcm-ctr"}, KEY as in read_parquet.
    """
    src, dst = os.fspath(src), os.fspath(dst)
    read_keys = _CSV_KEYS | _JSON_KEYS | {"columns", "input_format", "decryption_keys"}
    read_opts = {k: v for k, v in options.items() if k in read_keys}
    write_opts = {k: v for k, v in options.items() if k not in read_keys}
    if "threads" in options:
        read_opts["threads"] = options["threads"]
    if "input_format" in read_opts:
        read_opts["format"] = read_opts.pop("input_format")
    with _memory_limit(memory_limit):
        reader = _quiver._open(src, read_opts)
        return _quiver._write(reader, dst, write_opts)


convert.__doc__ += _CSV_OPTIONS_DOC + _WRITE_OPTIONS_DOC

def load(src: Union[str, "os.PathLike[str]"], conninfo: str = "", *, table: str, mode: str = "create",
         connections: int = 2, memory_limit: Optional[int] = None, **options: Any) -> int:
    """Load a CSV, Parquet or Arrow IPC file into a PostgreSQL table, as `quiver load SRC
    CONNINFO --table T` does: binary COPY from `connections` connections into a staging table,
    made visible in one transaction, so a failed or interrupted load leaves the table as it was
    (docs/postgres.md). Returns the rows loaded.

    conninfo: a postgresql:// URL or "host=... dbname=..." (empty: the PG* environment variables).
    table: "name" or "schema.name". mode: "create" (default), "append", "replace" or "truncate".
    input_format and the CSV options as for convert; Parquet or Arrow input takes columns=.
    """
    src = os.fspath(src)
    read_opts = {k: v for k, v in options.items() if k in _CSV_KEYS | _JSON_KEYS | {"columns", "input_format", "threads"}}
    unknown = set(options) - set(read_opts)
    if unknown:
        raise InvalidInputError(f"load: unknown options: {', '.join(sorted(unknown))}")
    if "input_format" in read_opts:
        read_opts["format"] = read_opts.pop("input_format")
    with _memory_limit(memory_limit):
        reader = _quiver._open(src, read_opts)
        return _quiver._load(reader, conninfo, {"table": table, "mode": mode, "connections": connections})


_CSV_KEYS = frozenset({
    "delimiter", "quote", "escape", "header", "skip_rows", "comment", "null_values", "true_values",
    "false_values", "trim_whitespace", "encoding", "replace_invalid_utf8", "on_error", "lenient",
    "infer_types", "infer_rows", "infer_all", "column_types", "two_digit_years_from",
    "column_names", "batch_rows", "block_size", "rejects",
})
# JSON input's options beyond those CSV shares (infer_rows, on_error, rejects, threads).
_JSON_KEYS = frozenset({"types"})


def write(data: Any, dst: Union[str, "os.PathLike[str]"], **options: Any) -> int:
    """Write a Table, RecordBatch, or anything with __arrow_c_stream__ / __arrow_c_array__ to a
    file (format by extension or format=), atomically. Returns the rows written.
    """
    return _quiver._write_table(_as_table(data), os.fspath(dst), options)


write.__doc__ += _WRITE_OPTIONS_DOC


def _as_table(data: Any) -> Table:
    if isinstance(data, Table):
        return data
    if isinstance(data, RecordBatch):
        return _quiver._table_from_batches([data])
    t = from_arrow(data)
    return t if isinstance(t, Table) else _quiver._table_from_batches([t])


def from_arrow(data: Any) -> Union[Table, RecordBatch, Array]:
    """Take data from any Arrow PyCapsule producer (pyarrow, polars, duckdb, quiver): a Table
    from __arrow_c_stream__, else a RecordBatch (struct) or Array from __arrow_c_array__.
    """
    if hasattr(data, "__arrow_c_stream__"):
        return _quiver._import_stream(data.__arrow_c_stream__())
    if hasattr(data, "__arrow_c_array__"):
        schema_capsule, array_capsule = data.__arrow_c_array__()
        return _quiver._import_array(schema_capsule, array_capsule)
    raise InvalidInputError(f"from_arrow: {type(data).__name__} has neither __arrow_c_stream__ nor __arrow_c_array__")


def generate_lineitem(path: Union[str, "os.PathLike[str]"], rows: int = 1000, *, messy: bool = False,
                      delimiter: str = ",", header: bool = True, seed: int = 42, format: str = "csv") -> None:
    """Write a deterministic TPC-H lineitem-shaped CSV (16 columns), as `quiver gen lineitem`
    does; messy=True quotes some comments and puts quotes, delimiters and newlines inside them.
    format="jsonl" writes the same values as JSON Lines (`quiver gen lineitem --format jsonl`)."""
    if format not in ("csv", "jsonl"):
        raise InvalidInputError(f"generate_lineitem: format must be 'csv' or 'jsonl', got {format!r}")
    _quiver._generate_lineitem(os.fspath(path), int(rows), bool(messy), delimiter, bool(header), int(seed),
                               format == "jsonl")


def generate_logs(path: Union[str, "os.PathLike[str]"], rows: int = 1000, *, seed: int = 42) -> None:
    """Write deterministic log-shaped nested JSON Lines, as `quiver gen logs` does: objects two
    levels deep, arrays of strings and of objects, keys present only on some rows."""
    _quiver._generate_logs(os.fspath(path), int(rows), int(seed))


def sniff(path: Union[str, "os.PathLike[str]"], **options: Any) -> dict:
    """What quiver detects, as `quiver sniff` prints it. For CSV: {"format": "csv", "delimiter"
    (one or two characters, e.g. ", "), "quote", "escape", "doubled_quote", "header", "header_lines",
    "skip_lines", "comment", "footer_lines", "second_table_line" (lenient: where a stacked second
    table starts, not read; else None), "columns": [{"name", "type", "format"}]}; options as
    read_csv's fix parts of it. For JSON: {"format": "json", "shape": "lines" or "array",
    "columns": [{"name", "type"}]}; infer_rows, threads and types as read_json's.
    """
    return _quiver._sniff(os.fspath(path), options)


def schema(path: Union[str, "os.PathLike[str]"]) -> dict:
    """A Parquet, ORC or Arrow IPC file's schema as `quiver schema --json` prints it (a dict)."""
    return _describe("schema", os.fspath(path))


def metadata(path: Union[str, "os.PathLike[str]"]) -> dict:
    """A Parquet or ORC file's footer as `quiver meta --json` prints it (a dict): for Parquet its
    row groups and column chunks, for ORC its PostScript and stripes; codecs, encodings,
    statistics."""
    return _describe("metadata", os.fspath(path))


def _describe(what: str, path: str) -> dict:
    return getattr(_quiver, "_" + what)(path)


def _to_pandas(self: Union[Table, RecordBatch], nullable: bool = False) -> Any:
    """The rows as a pandas DataFrame: numbers without nulls share quiver's memory when the
    table is one batch (combine_chunks()); integers and booleans with nulls become pandas'
    nullable Int64/boolean (always, with nullable=True, so that the dtypes do not depend on
    the data); timestamps with a time zone are tz-aware; strings are objects."""
    import numpy as np
    import pandas as pd

    columns = {}
    for name in self.column_names:
        col = self.column(name)
        values = col.to_numpy()
        t = col.type
        if (nullable or col.null_count) and (t.startswith("int") or t.startswith("uint") or t == "bool"):
            mask = col.is_null()
            raw = np.array([False if v is None else v for v in col.to_pylist()] if t == "bool"
                           else values if not col.null_count
                           else [0 if v is None else v for v in col.to_pylist()],
                           dtype="bool" if t == "bool" else "int64")
            values = (pd.arrays.BooleanArray if t == "bool" else pd.arrays.IntegerArray)(raw, mask)
        series = pd.Series(values, name=name, copy=False)
        if t.startswith("timestamp[") and "tz=" in t:
            series = series.dt.tz_localize("UTC").dt.tz_convert(t.split("tz=", 1)[1].rstrip("]"))
        columns[name] = series
    return pd.DataFrame(columns, copy=False) if columns else pd.DataFrame(index=range(self.num_rows))


Table.to_pandas = _to_pandas
RecordBatch.to_pandas = _to_pandas
