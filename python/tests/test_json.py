"""quiver.read_json / open_json: JSON Lines and top-level arrays, nested values, declared types,
errors with their place."""
import datetime

import pytest

import quiver


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_read_json_nested_values(tmp_path):
    p = write(tmp_path, "e.jsonl",
              '{"a":1,"n":{"k":[1,2]},"s":"x"}\n{"a":2,"n":null,"s":"caf\\u00e9"}\n')
    t = quiver.read_json(p)
    assert t.num_rows == 2
    assert t.column("a").to_pylist() == [1, 2]
    assert t.column("n").to_pylist() == [{"k": [1, 2]}, None]
    assert t.column("s").to_pylist() == ["x", "café"]


def test_read_json_array_and_declared_types(tmp_path):
    p = write(tmp_path, "e.json", '[{"d":"2024-01-02","v":1},{"d":null,"v":"x"}]')
    t = quiver.read_json(p, types={"d": "date", "v": "string"})
    assert t.column("d").to_pylist() == [datetime.date(2024, 1, 2), None]
    assert t.column("v").to_pylist() == ["1", "x"]
    t2 = quiver.read_json(p, types="d=date,v=string", columns=["v"])
    assert t2.column("v").to_pylist() == ["1", "x"]


def test_read_json_errors_name_their_place(tmp_path):
    p = write(tmp_path, "bad.jsonl", '{"a":1}\n{"a":[1,\n')
    with pytest.raises(quiver.InvalidInputError) as e:
        quiver.read_json(p)
    assert str(e.value).endswith("bad.jsonl:2:9: malformed JSON: the text ends inside a value, "
                                 "found the end of the line (byte 16 of the input)")
    late = write(tmp_path, "late.jsonl", '{"a":1}\n{"a":1,"z":2}\n')
    with pytest.raises(quiver.InvalidInputError, match=r"late.jsonl:2: key 'z' is not in the schema"):
        quiver.read_json(late, infer_rows=1)
    with pytest.raises(quiver.InvalidInputError, match="unknown option"):
        quiver.read_json(late, delimiter=";")


def test_convert_json_to_parquet(tmp_path):
    p = write(tmp_path, "e.jsonl", '{"a":1,"b":{"c":"x"}}\n{"a":2,"b":null}\n')
    out = tmp_path / "e.parquet"
    assert quiver.convert(p, out) == 2
    assert quiver.read_parquet(out).column("b").to_pylist() == [{"c": "x"}, None]


def test_generators_and_sniff_match_the_cli(tmp_path):
    # The same generators and the same detection as `quiver gen` and `quiver sniff`.
    from conftest import run_cli
    for name, kwargs, args in [("logs.jsonl", None, ["gen", "logs", "-n", "300"]),
                               ("li.jsonl", {"format": "jsonl"}, ["gen", "lineitem", "--format", "jsonl", "-n", "300"])]:
        mine, theirs = tmp_path / ("py-" + name), tmp_path / ("cli-" + name)
        if kwargs is None:
            quiver.generate_logs(mine, 300)
        else:
            quiver.generate_lineitem(mine, 300, **kwargs)
        r = run_cli(*args, "-o", str(theirs))
        assert r.returncode == 0, r.stderr
        assert mine.read_bytes() == theirs.read_bytes()
    s = quiver.sniff(tmp_path / "py-logs.jsonl")
    assert s["format"] == "json" and s["shape"] == "lines"
    cli = run_cli("sniff", str(tmp_path / "py-logs.jsonl"))
    assert [f"  {c['name']}: {c['type']}" for c in s["columns"]] == cli.stdout.splitlines()[2:]
    two = write(tmp_path, "two.csv", "a, b, c\n1, x, 2024-01-02\n2, y, 2024-01-03\n3, z, 2024-01-04\n")
    d = quiver.sniff(two)
    assert d["format"] == "csv" and d["delimiter"] == ", " and [c["name"] for c in d["columns"]] == ["a", "b", "c"]
    assert d["second_table_line"] is None
    with pytest.raises(quiver.InvalidInputError, match="generate_lineitem: format must be 'csv' or 'jsonl'"):
        quiver.generate_lineitem(tmp_path / "x", 1, format="xml")


def test_convert_writes_and_reads_orc(tmp_path):
    p = write(tmp_path, "e.jsonl", '{"a":1,"s":"x"}\n{"a":2,"s":null}\n')
    orc = tmp_path / "e.orc"
    assert quiver.convert(p, orc, compression="zstd") == 2
    back = tmp_path / "back.jsonl"
    assert quiver.convert(orc, back) == 2
    assert back.read_text() == '{"a":1,"s":"x"}\n{"a":2,"s":null}\n'


def test_skip_and_rejects_match_the_cli(tmp_path):
    from conftest import run_cli
    p = write(tmp_path, "s.jsonl", '{"a":1,"b":"x"}\n{"a":"bad","b":"z"}\n{"a":4,"b"\n\n{"a":5,"b":"w"}\n')
    rejects = tmp_path / "py-rejects.csv"
    t = quiver.read_json(p, types="a=int64", on_error="skip", rejects=str(rejects))
    assert (t.column("a").to_pylist(), t.column("b").to_pylist()) == ([1, 5], ["x", "w"])
    cli_rejects = tmp_path / "cli-rejects.csv"
    r = run_cli("cat", str(p), "--types", "a=int64", "--on-error", "skip", "--rejects", str(cli_rejects),
                "--format", "none")
    assert r.returncode == 0, r.stderr
    assert rejects.read_bytes() == cli_rejects.read_bytes()
    assert rejects.read_text().splitlines()[1].startswith("2,\"'a' is int64, got a string: bad\"")
    # convert writes the rejects as well, once the whole input is read.
    rejects.unlink()
    assert quiver.convert(p, tmp_path / "s.parquet", types="a=int64", on_error="skip", rejects=str(rejects)) == 2
    assert rejects.read_bytes() == cli_rejects.read_bytes()
    with pytest.raises(quiver.InvalidInputError) as e:
        quiver.read_json(p, types="a=int64", rejects=str(rejects))
    assert str(e.value) == "read_json: rejects needs on_error='skip'"
    with pytest.raises(quiver.InvalidInputError) as e:
        quiver.read_json(p, on_error="null")
    assert str(e.value) == "read_json: on_error must be 'fail' or 'skip' for JSON, got 'null'"


def test_csv_rejects_match_the_cli(tmp_path):
    from conftest import run_cli
    p = tmp_path / "r.csv"
    p.write_text("id,v\n1,10\n2,x\n3,30\n4,4.5.6\n")
    rejects, cli_rejects = tmp_path / "py.csv", tmp_path / "cli.csv"
    t = quiver.read_csv(p, column_types={"id": "int64", "v": "int64"}, on_error="skip", rejects=str(rejects))
    assert (t.column("id").to_pylist(), t.column("v").to_pylist()) == ([1, 3], [10, 30])
    r = run_cli("cat", str(p), "--types", "id=int64,v=int64", "--on-error", "skip", "--rejects", str(cli_rejects),
                "--format", "none")
    assert r.returncode == 0, r.stderr
    assert rejects.read_bytes() == cli_rejects.read_bytes()
    assert len(rejects.read_text().splitlines()) == 3
