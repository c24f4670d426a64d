"""quiver on Dask: CSV byte ranges and Parquet row groups as dask.dataframe partitions, and a
CSV to Parquet conversion whose tasks each write part files of one dataset, committed whole.

A CSV file is cut into byte ranges of `blocksize`. A range owns the rows that start in it. Where
its first row starts depends on whether its first byte lies inside a quoted field, which is the
parity of the quote characters before it: a parity pass over every range (one cheap task each)
gives each range its starting quote state, and each range then starts at its first true row
start (never a guess, so quoted fields holding newlines are never cut). Column types are settled
once, by sniffing the file's first block (or given), and every range is read with them.
"""
from __future__ import annotations

import glob as _glob
import os
import shutil
import uuid
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import dask
import dask.dataframe as dd
import pandas as pd

from . import InvalidInputError, _quiver, _to_pandas

__all__ = ["read_csv", "read_parquet", "convert"]

DEFAULT_BLOCKSIZE = 64 << 20
_COMPRESSED_MAGIC = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd")


def _expand(paths_or_glob: Union[str, "os.PathLike[str]", Sequence[Any]]) -> List[str]:
    if isinstance(paths_or_glob, (str, os.PathLike)):
        p = os.fspath(paths_or_glob)
        found = sorted(_glob.glob(p)) if _glob.has_magic(p) else [p]
    else:
        found = [os.fspath(p) for p in paths_or_glob]
    if not found:
        raise InvalidInputError(f"no file matches {os.fspath(paths_or_glob)!r}")
    for p in found:
        if not os.path.isfile(p):
            raise _quiver.FileError(f"{p}: No such file")
    return found


class _CsvPlan:
    """One CSV file's dialect, schema and ranges: (cut, quote state at the cut) pairs."""

    def __init__(self, path: str, blocksize: int, options: Dict[str, Any]):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(4)
        if head.startswith(_COMPRESSED_MAGIC):
            raise InvalidInputError(f"{path}: compressed CSV cannot be cut into byte ranges; decompress it first "
                                    "or read it with quiver.read_csv")
        for key in ("lenient", "comment", "skip_rows", "encoding"):
            if options.get(key) not in (None, False, "", "utf8", "utf-8", "latin1", 0):
                raise InvalidInputError(f"quiver.dask: {key}={options[key]!r} is not supported across byte ranges "
                                        "(quote parity needs strict RFC 4180 quoting and no preamble); "
                                        "use quiver.read_csv on the file")
        sniffed = _quiver._sniff(path, dict(options))
        if sniffed["escape"] is not None:
            raise InvalidInputError(f"{path}: quotes escaped by {sniffed['escape']!r} cannot be cut into byte ranges "
                                    "by quote parity; pass escape=None only for files whose quotes are doubled")
        if sniffed["skip_lines"] or sniffed["comment"] is not None or sniffed["header_lines"] > 1:
            raise InvalidInputError(f"{path}: a preamble, comments or a multi-line header cannot be cut into byte "
                                    "ranges; use quiver.read_csv on the file")
        self.quote = sniffed["quote"] or ""
        self.header = sniffed["header"]
        self.formats = {c["name"]: c["format"] for c in sniffed["columns"] if c["format"]}
        first = dict(options)
        first.update(delimiter=sniffed["delimiter"], quote=self.quote or "none", header=self.header)
        self.schema = _quiver._open_csv(path, first).schema
        base = dict(first)
        base.pop("column_types", None)
        self.first_options = base
        rest = dict(base)
        rest.update(header=False, column_names=list(self.schema.names))
        self.rest_options = rest
        size = os.path.getsize(path)
        self.cuts = list(range(0, size, blocksize)) + [size] if size else [0, 0]

    def resolve(self, parities: Sequence[bool]) -> None:
        states = [False]
        for p in parities:
            states.append(states[-1] != p)
        if states[-1]:
            raise InvalidInputError(f"{self.path}: the file ends inside a quoted field (an odd number of "
                                    f"{self.quote!r} characters)")
        self.states = states

    def ranges(self) -> List[Tuple[int, bool, int, bool]]:
        return [(self.cuts[i], self.states[i], self.cuts[i + 1], self.states[i + 1]) for i in range(len(self.cuts) - 1)]


def _quote_parity(path: str, start: int, end: int, quote: str) -> bool:
    # A module function, so that Dask can ship it by name (extension functions do not pickle).
    return _quiver._quote_parity(path, start, end, quote)


def _plan(paths: List[str], blocksize: int, options: Dict[str, Any]) -> List[_CsvPlan]:
    if blocksize < 1:
        raise InvalidInputError(f"blocksize must be a positive number of bytes, got {blocksize}")
    plans = [_CsvPlan(p, blocksize, options) for p in paths]
    for plan in plans[1:]:
        if plan.schema != plans[0].schema:
            raise InvalidInputError(f"{plan.path}: its columns differ from {plans[0].path}'s:\n"
                                    f"{plan.schema!r}\nagainst\n{plans[0].schema!r}")
    # The parity pass: one task per range, run on the cluster when there is one.
    tasks = [dask.delayed(_quote_parity, pure=True)(p.path, p.cuts[i], p.cuts[i + 1], p.quote)
             for p in plans for i in range(len(p.cuts) - 1)]
    parities = list(dask.compute(*tasks))
    at = 0
    for p in plans:
        n = len(p.cuts) - 1
        p.resolve(parities[at:at + n])
        at += n
    return plans


def _range_reader(path: str, cut0: int, state0: bool, cut1: int, state1: bool, options: Dict[str, Any],
                  first_options: Dict[str, Any], quote: str, schema: Any, formats: Dict[str, str]) -> Any:
    begin = _quiver._next_row_start(path, cut0, state0, quote)
    end = _quiver._next_row_start(path, cut1, state1, quote)
    end = max(begin, end)
    return _quiver._open_csv_range(path, begin, end, first_options if begin == 0 else options, schema, formats)


def _read_range(path: str, cut0: int, state0: bool, cut1: int, state1: bool, options: Dict[str, Any],
                first_options: Dict[str, Any], quote: str, schema: Any, formats: Dict[str, str]) -> pd.DataFrame:
    reader = _range_reader(path, cut0, state0, cut1, state1, options, first_options, quote, schema, formats)
    return _to_pandas(reader.read_all(), nullable=True)


def read_csv(paths_or_glob: Union[str, "os.PathLike[str]", Sequence[Any]], blocksize: int = DEFAULT_BLOCKSIZE,
             **options: Any) -> dd.DataFrame:
    """CSV files as a dask.dataframe, one partition per byte range of `blocksize` bytes of each
    file, cut on true row boundaries (quoted fields holding newlines are never split).

    Options are read_csv's (quiver.read_csv); column types are sniffed once from the first
    file's first block unless column_types= gives them, and every partition has them. Integer
    and boolean columns are pandas' nullable Int64/boolean in every partition.
    """
    plans = _plan(_expand(paths_or_glob), int(blocksize), options)
    schema = plans[0].schema
    meta = _to_pandas(_quiver._table_from_batches([], schema), nullable=True)
    parts = []
    for p in plans:
        for r in p.ranges():
            parts.append(dask.delayed(_read_range, pure=True)(p.path, *r, p.rest_options, p.first_options, p.quote,
                                                              schema, p.formats))
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


def _read_row_group(path: str, columns: Optional[List[str]], filter: Optional[tuple], group: int) -> pd.DataFrame:
    return _to_pandas(_quiver._scan_parquet(path, columns, filter, 0, [group]).read_all(), nullable=True)


def read_parquet(paths_or_glob: Union[str, "os.PathLike[str]", Sequence[Any]], columns: Optional[Sequence[str]] = None,
                 filter: Optional[Tuple[str, str, Any]] = None) -> dd.DataFrame:
    """Parquet files as a dask.dataframe, one partition per row group; row groups whose
    statistics rule the filter (column, op, value) out are not partitions at all, and each
    partition keeps only the matching rows (see quiver.read_parquet)."""
    cols = list(columns) if columns is not None else None
    flt = tuple(filter) if filter is not None else None
    parts = []
    meta = None
    for path in _expand(paths_or_glob):
        scan = _quiver._scan_parquet(path, cols, flt, 0)
        if meta is None:
            meta = _to_pandas(_quiver._table_from_batches([], scan.schema), nullable=True)
        for g in _quiver._scan_row_groups(scan):
            parts.append(dask.delayed(_read_row_group, pure=True)(path, cols, flt, g))
    if not parts:
        return dd.from_pandas(meta, npartitions=1)
    return dd.from_delayed(parts, meta=meta, verify_meta=False)


def _convert_range(path: str, cut0: int, state0: bool, cut1: int, state1: bool, options: Dict[str, Any],
                   first_options: Dict[str, Any], quote: str, schema: Any, formats: Dict[str, str], tasks_dir: str,
                   task: int, write_options: Dict[str, Any]) -> Tuple[int, str, int]:
    reader = _range_reader(path, cut0, state0, cut1, state1, options, first_options, quote, schema, formats)
    # Each attempt writes under its own name: a retried task (its worker lost) never meets the
    # files of an earlier attempt, and only the names returned are committed.
    name = f"task-{task:05d}-{uuid.uuid4().hex}"
    partitioned = bool(write_options.get("partition_by"))
    target = os.path.join(tasks_dir, name if partitioned else name + ".parquet")
    rows = _quiver._write(reader, target, dict(write_options, format="parquet"))
    return task, os.path.basename(target), rows


def _commit(tasks_dir: str, results: List[Tuple[int, str, int]], dataset_dir: str, partitioned: bool) -> int:
    os.mkdir(dataset_dir)
    total = 0
    for task, name, rows in sorted(results):
        total += rows
        src = os.path.join(tasks_dir, name)
        if not partitioned:
            if rows or task == 0:
                os.rename(src, os.path.join(dataset_dir, f"part-{task:05d}.parquet"))
            continue
        for root, _dirs, files in os.walk(src):
            rel = os.path.relpath(root, src)
            for f in sorted(files):
                out = os.path.join(dataset_dir, rel)
                os.makedirs(out, exist_ok=True)
                os.rename(os.path.join(root, f), os.path.join(out, f"part-{task:05d}-{f[len('part-'):]}"))
    return total


def convert(csv_paths_or_glob: Union[str, "os.PathLike[str]", Sequence[Any]], out_dir: Union[str, "os.PathLike[str]"],
            partition_by: Optional[Union[str, Sequence[str]]] = None, client: Any = None,
            blocksize: int = DEFAULT_BLOCKSIZE, **options: Any) -> int:
    """Convert CSV files to one Parquet dataset at out_dir on Dask: each task converts one byte
    range into part files (out_dir/part-00007.parquet, or out_dir/col=value/part-00007-00000.parquet
    with partition_by), and the whole dataset appears at out_dir only when every task succeeded
    (it is built in a hidden folder beside out_dir and renamed into place; a failed or cancelled
    run leaves nothing). DuckDB reads it with read_parquet('out_dir/**/*.parquet', hive_partitioning=true).

    client: a dask.distributed Client (default: the current one, else Dask's scheduler).
    options: read_csv's CSV options and convert's Parquet options (compression=, row_group_size=, ...).
    Returns the rows written.
    """
    from . import _CSV_KEYS

    out_dir = os.path.abspath(os.fspath(out_dir))
    if os.path.exists(out_dir):
        raise InvalidInputError(f"{out_dir}: already exists (convert replaces nothing)")
    csv_options = {k: v for k, v in options.items() if k in _CSV_KEYS}
    write_options = {k: v for k, v in options.items() if k not in _CSV_KEYS}
    if partition_by:
        write_options["partition_by"] = partition_by if isinstance(partition_by, str) else list(partition_by)
    plans = _plan(_expand(csv_paths_or_glob), int(blocksize), csv_options)
    staging = os.path.join(os.path.dirname(out_dir), f".{os.path.basename(out_dir)}.quiver-{uuid.uuid4().hex}")
    tasks_dir = os.path.join(staging, "tasks")
    os.makedirs(tasks_dir)
    try:
        tasks = []
        for p in plans:
            for r in p.ranges():
                tasks.append(dask.delayed(_convert_range, pure=False)(
                    p.path, *r, p.rest_options, p.first_options, p.quote, plans[0].schema, p.formats, tasks_dir,
                    len(tasks), write_options))
        if client is not None:
            results = client.gather(client.compute(tasks))
        else:
            results = list(dask.compute(*tasks))
        dataset_dir = os.path.join(staging, "dataset")
        rows = _commit(tasks_dir, results, dataset_dir, bool(partition_by))
        if os.path.exists(out_dir):
            raise InvalidInputError(f"{out_dir}: appeared while converting (convert replaces nothing)")
        os.rename(dataset_dir, out_dir)
        return rows
    finally:
        shutil.rmtree(staging, ignore_errors=True)
