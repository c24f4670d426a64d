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
