"""Reading and writing through the package, values checked against the quiver program's own
reading of the same files (`quiver cat --format jsonl`) and against DuckDB."""
import datetime
import decimal
import io
import json
import os

import numpy as np
import pytest

import quiver
from conftest import run_cli


def cli_rows(path, *args):
    r = run_cli("cat", str(path), "--format", "jsonl", *args)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def as_json(v):
    """A Python value as `quiver cat --format jsonl` writes it."""
    if isinstance(v, (datetime.date, datetime.datetime)):
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    if isinstance(v, decimal.Decimal):
        return float(v)
    return v


def test_read_csv_values_match_the_program(lineitem_csv):
    t = quiver.read_csv(lineitem_csv)
    assert t.num_rows == 5000 and len(t) == 5000
    assert t.column_names[:3] == ["l_orderkey", "l_partkey", "l_suppkey"]
    expected = cli_rows(lineitem_csv)
    got = [dict(zip(t.column_names, row)) for row in zip(*(t.column(c).to_pylist() for c in t.column_names))]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert {k: as_json(v) for k, v in g.items()} == e


def test_read_csv_from_bytes_and_file_object_equals_path(lineitem_csv):
    by_path = quiver.read_csv(lineitem_csv)
    data = lineitem_csv.read_bytes()
    assert quiver.read_csv(data).equals(by_path)
    assert quiver.read_csv(io.BytesIO(data)).equals(by_path)
    assert quiver.read_csv(io.StringIO(data.decode())).equals(by_path)


def test_csv_options_reach_the_reader():
    data = b"a;b;c\n1;x;2024-01-02\n;y;\n3;NA;2024-03-04\n"
    t = quiver.read_csv(data, delimiter=";", null_values=["", "NA"], column_types={"a": "float64", "c": "date"})
    assert t.schema.types == ["double", "string", "date32"]
    assert t.column("a").to_pylist() == [1.0, None, 3.0]
    assert t.column("b").to_pylist() == ["x", "y", None]
    assert t.column("c").to_pylist() == [datetime.date(2024, 1, 2), None, datetime.date(2024, 3, 4)]
    t = quiver.read_csv(b"1,2\n3,4\n", header=False, column_names=["x", "y"])
    assert t.column_names == ["x", "y"] and t.column("y").to_pylist() == [2, 4]
    t = quiver.read_csv(b"d\n03/02/2024\n", column_types={"d": "date:%d/%m/%Y"})
    assert t.column("d").to_pylist() == [datetime.date(2024, 2, 3)]
    skipped = quiver.open_csv(b"n\n1\nx\n3\n", column_types={"n": "int64"}, on_error="skip")
    assert skipped.read_all().column("n").to_pylist() == [1, 3]
    assert skipped.stats["rows_rejected"] == 1


def test_open_csv_yields_batches_of_batch_rows(lineitem_csv):
    reader = quiver.open_csv(lineitem_csv, batch_rows=1000)
    assert reader.schema.names[0] == "l_orderkey"
    sizes = [b.num_rows for b in reader]
    assert sum(sizes) == 5000 and max(sizes) <= 1000


def test_read_parquet_matches_the_program_and_filters(lineitem_parquet):
    t = quiver.read_parquet(lineitem_parquet)
    expected = cli_rows(lineitem_parquet)
    assert t.num_rows == len(expected) == 5000
    assert [as_json(v) for v in t.column("l_shipdate").to_pylist()] == [r["l_shipdate"] for r in expected]
    f = quiver.read_parquet(lineitem_parquet, columns=["l_orderkey", "l_quantity"], filter=("l_orderkey", ">=", 4000))
    assert f.column_names == ["l_orderkey", "l_quantity"]
    want = [r for r in expected if r["l_orderkey"] >= 4000]
    assert f.column("l_orderkey").to_pylist() == [r["l_orderkey"] for r in want]
    assert [as_json(v) for v in f.column("l_quantity").to_pylist()] == [r["l_quantity"] for r in want]
    d = quiver.read_parquet(lineitem_parquet, filter=("l_shipdate", "=", datetime.date(1996, 7, 3)))
    assert d.num_rows == sum(1 for r in expected if r["l_shipdate"] == "1996-07-03") > 0


def test_scan_parquet_is_one_batch_per_row_group(lineitem_parquet):
    batches = list(quiver.scan_parquet(lineitem_parquet, columns=["l_comment"]))
    assert [b.num_rows for b in batches] == [1000] * 5
    assert batches[0].column_names == ["l_comment"]


def test_convert_takes_the_programs_options(tmp_path, lineitem_csv):
    out = tmp_path / "li.parquet"
    rows = quiver.convert(lineitem_csv, out, compression="zstd", row_group_size=2000, bloom_filter=["l_orderkey"])
    assert rows == 5000
    meta = quiver.metadata(out)
    assert [g["num_rows"] for g in meta["row_groups"]] == [2000, 2000, 1000]
    # Chunks the codec does not shrink are kept uncompressed (the writer's rule); the others are zstd.
    assert {c["codec"] for g in meta["row_groups"] for c in g["columns"]} <= {"ZSTD", "UNCOMPRESSED"}
    assert meta["row_groups"][0]["columns"][15]["codec"] == "ZSTD"
    assert "bloom_filter_offset" in meta["row_groups"][0]["columns"][0]
    assert quiver.read_parquet(out).equals(quiver.read_csv(lineitem_csv))
    back = tmp_path / "back.csv"
    assert quiver.convert(out, back, columns=["l_orderkey", "l_comment"]) == 5000
    assert quiver.read_csv(back).column("l_comment").to_pylist() == quiver.read_csv(lineitem_csv).column("l_comment").to_pylist()


def test_convert_partitioned_dataset_equals_the_csv_in_duckdb(tmp_path, lineitem_csv, duckdb_compare):
    out = tmp_path / "ds"
    assert quiver.convert(lineitem_csv, out, partition_by="l_shipmode") == 5000
    assert sorted(os.listdir(out))[0] == "l_shipmode=AIR"
    r = duckdb_compare(f"{out}/**/*.parquet", str(lineitem_csv))
    assert (r["parquet_rows"], r["csv_rows"], r["only_parquet"], r["only_csv"]) == (5000, 5000, 0, 0)


def test_write_takes_tables_and_batches(tmp_path, lineitem_csv):
    t = quiver.read_csv(lineitem_csv)
    assert quiver.write(t, tmp_path / "t.parquet") == 5000
    assert quiver.write(t.to_batches()[0][:10], tmp_path / "b.arrow") == 10
    assert quiver.read_parquet(tmp_path / "t.parquet").equals(t)
    assert quiver.schema(tmp_path / "b.arrow")["fields"][0] == {"name": "l_orderkey", "quiver_type": "int64", "nullable": True}


def test_schema_and_metadata_are_the_programs_json(lineitem_parquet):
    for fn, cmd in ((quiver.schema, "schema"), (quiver.metadata, "meta")):
        r = run_cli(cmd, "--json", str(lineitem_parquet))
        assert r.returncode == 0, r.stderr
        assert fn(str(lineitem_parquet)) == json.loads(r.stdout)


def test_generate_lineitem_writes_what_the_program_writes(tmp_path, messy_csv):
    quiver.generate_lineitem(tmp_path / "m.csv", 4000, messy=True)
    assert (tmp_path / "m.csv").read_bytes() == messy_csv.read_bytes()
    with pytest.raises(quiver.InvalidInputError, match="^generate_lineitem: rows must be 0 or more, got -1$"):
        quiver.generate_lineitem(tmp_path / "x.csv", -1)


def test_sniff(messy_csv):
    s = quiver.sniff(messy_csv)
    assert (s["delimiter"], s["quote"], s["escape"], s["doubled_quote"], s["header"]) == (",", '"', None, True, True)
    assert s["columns"][0] == {"name": "l_orderkey", "type": "int64", "format": None}
    assert s["columns"][10]["type"] == "date32"


def test_table_shape_slicing_and_repr(lineitem_csv):
    t = quiver.read_csv(lineitem_csv, batch_rows=1500)
    assert t.num_columns == 16 and len(t.to_batches()) == 4
    s = t[1400:1600]
    assert len(s) == 200 and s.column("l_orderkey").num_chunks == 2
    assert s.column("l_partkey").to_pylist() == t.column("l_partkey").to_pylist()[1400:1600]
    assert t.slice(4990).num_rows == 10
    b = t.to_batches()[0]
    assert b[5:7].column("l_suppkey").to_pylist() == b.column("l_suppkey").to_pylist()[5:7]
    assert b["l_suppkey"][0] == b.column(2).to_pylist()[0]
    assert repr(t).startswith("quiver.Table: 5000 rows, 16 columns\n")
    assert "l_orderkey" in repr(t.schema) and repr(b).startswith("quiver.RecordBatch: 1500 rows\n")
    with pytest.raises(KeyError, match="no column named 'nope'; columns: l_orderkey, "):
        t.column("nope")
    with pytest.raises(IndexError):
        t.column(16)


def test_to_numpy_shares_fixed_width_columns(lineitem_csv):
    t = quiver.read_csv(lineitem_csv).combine_chunks()
    col = t.column("l_orderkey")
    a = col.to_numpy(zero_copy_only=True)
    assert a.dtype == np.int64 and not a.flags.writeable
    # The same memory twice: no copy was made.
    assert a.__array_interface__["data"][0] == col.to_numpy().__array_interface__["data"][0]
    assert a.tolist() == col.to_pylist()
    with pytest.raises(quiver.InvalidInputError, match="^to_numpy\\(zero_copy_only=True\\): a column of type string cannot be shared without a copy; pass zero_copy_only=False$"):
        t.column("l_comment").to_numpy(zero_copy_only=True)
    n = quiver.read_csv(b"i,f,ts\n1,1.5,2024-01-01 00:00:00\n,,\n").column("i")
    with pytest.raises(quiver.InvalidInputError, match="a column of type int64 with nulls cannot be shared"):
        n.to_numpy(zero_copy_only=True)
    assert np.isnan(n.to_numpy()[1]) and n.to_numpy()[0] == 1.0


def test_to_pandas(lineitem_csv):
    pd = pytest.importorskip("pandas")
    t = quiver.read_csv(lineitem_csv).combine_chunks()
    df = t.to_pandas()
    assert list(df.columns) == t.column_names and len(df) == 5000
    assert df["l_orderkey"].dtype == np.int64 and df["l_shipdate"].dtype == "datetime64[ns]"
    assert df["l_comment"].tolist() == t.column("l_comment").to_pylist()
    n = quiver.read_csv(b"i,b,ts\n1,true,2024-01-01T00:00:00Z\n,,\n").to_pandas()
    assert str(n["i"].dtype) == "Int64" and n["i"].isna().tolist() == [False, True]
    assert str(n["b"].dtype) == "boolean"
    assert str(n["ts"].dtype) == "datetime64[ns, UTC]"


def test_orc_schema_and_metadata_are_the_programs_json(testdata):
    orc = testdata / "orc-examples" / "examples" / "over1k_bloom.orc"
    for fn, cmd in ((quiver.schema, "schema"), (quiver.metadata, "meta")):
        r = run_cli(cmd, "--json", str(orc))
        assert r.returncode == 0, r.stderr
        assert fn(str(orc)) == json.loads(r.stdout)
    assert quiver.schema(orc)["fields"][7] == {"name": "_col7", "column_id": 8, "orc_type": "string", "quiver_type": "string"}
    assert quiver.metadata(orc)["postscript"]["compression"] == "ZLIB"
