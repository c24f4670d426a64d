"""Every way quiver's Python API fails: each status code's exception class with the library's
message, bad options and input, Ctrl-C, and the memory limit."""
import _thread
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import quiver
from conftest import run_cli

CODES = [
    ("invalid", quiver.InvalidInputError, ValueError),
    ("io", quiver.FileError, OSError),
    ("out_of_memory", quiver.OutOfMemoryError, MemoryError),
    ("not_implemented", quiver.NotImplementedError, NotImplementedError),
    ("corrupt", quiver.CorruptFileError, quiver.Error),
    ("cancelled", quiver.CancelledError, quiver.Error),
]


@pytest.mark.parametrize("code,cls,base", CODES)
def test_each_status_code_raises_its_class(code, cls, base):
    with pytest.raises(cls) as e:
        quiver._quiver._raise_status(code, "the library's message")
    assert isinstance(e.value, base) and isinstance(e.value, quiver.Error)
    assert str(e.value) == "the library's message"
    assert type(e.value).__module__ == "quiver" and getattr(quiver, type(e.value).__name__) is type(e.value)


def test_missing_file(tmp_path):
    missing = str(tmp_path / "missing.csv")
    with pytest.raises(quiver.FileError) as e:
        quiver.read_csv(missing)
    assert str(e.value) == f"{missing}: No such file or directory"
    with pytest.raises(quiver.FileError):
        quiver.read_parquet(tmp_path / "missing.parquet")


def test_bad_value_names_line_and_column():
    with pytest.raises(quiver.InvalidInputError) as e:
        quiver.read_csv(b"a,b\n1,2\n3,x\n", column_types={"b": "int64"})
    assert str(e.value) == "<bytes>:3:2 'b': cannot convert to int64, got \"x\" (byte 10)"


def test_bad_options():
    with pytest.raises(quiver.InvalidInputError, match=r"^read_csv: unknown option\(s\) delimeter \(see help\(quiver.read_csv\)\)$"):
        quiver.read_csv(b"a\n1\n", delimeter=";")
    with pytest.raises(quiver.InvalidInputError,
                       match=r"^read_csv: delimiter must be one byte, or two of ', ' '; ' '\\t ' '\|\|', got ';;'$"):
        quiver.read_csv(b"a\n1\n", delimiter=";;")
    # The two-byte delimiters the CLI takes, through the same library call.
    t = quiver.read_csv(b"a, b\n1, x\n2, y\n", delimiter=", ")
    assert t.schema.names == ["a", "b"] and t.column("b").to_pylist() == ["x", "y"]
    with pytest.raises(quiver.InvalidInputError, match="^read_csv: on_error must be 'fail', 'skip' or 'null', got 'drop'$"):
        quiver.read_csv(b"a\n1\n", on_error="drop")
    with pytest.raises(quiver.InvalidInputError, match=r"^read_csv: option header='yes' has the wrong type$"):
        quiver.read_csv(b"a\n1\n", header="yes")
    with pytest.raises(quiver.InvalidInputError, match="^read_csv: threads must be 0"):
        quiver.read_csv(b"a\n1\n", threads=-1)
    with pytest.raises(quiver.InvalidInputError, match="column_types must be a dict"):
        quiver.read_csv(b"a\n1\n", column_types=["a"])
    with pytest.raises(quiver.InvalidInputError, match="^memory_limit must be a positive number of bytes, got 0$"):
        quiver.read_csv(b"a\n1\n", memory_limit=0)


def test_bad_parquet_arguments(lineitem_parquet, tmp_path):
    with pytest.raises(quiver.InvalidInputError, match="filter: unknown operator '~'"):
        quiver.read_parquet(lineitem_parquet, filter=("l_orderkey", "~", 1))
    with pytest.raises(quiver.InvalidInputError, match="filter: no column named 'nope'"):
        quiver.read_parquet(lineitem_parquet, filter=("nope", "=", 1))
    with pytest.raises(quiver.InvalidInputError, match="filter must be"):
        quiver.read_parquet(lineitem_parquet, filter=("l_orderkey", "="))
    with pytest.raises(quiver.InvalidInputError, match="l_orderkey"):
        quiver.read_parquet(lineitem_parquet, filter=("l_orderkey", "=", "abc"))
    with pytest.raises(quiver.InvalidInputError, match="nope"):
        quiver.read_parquet(lineitem_parquet, columns=["nope"])
    with pytest.raises(quiver.InvalidInputError, match="^convert: cannot tell the output format of"):
        quiver.convert(lineitem_parquet, tmp_path / "out.xyz")
    with pytest.raises(quiver.InvalidInputError, match="^convert: unknown option"):
        quiver.convert(lineitem_parquet, tmp_path / "out.parquet", compresion="zstd")
    with pytest.raises(quiver.InvalidInputError, match="codec"):
        quiver.convert(lineitem_parquet, tmp_path / "out.parquet", compression="lzma")
    assert not (tmp_path / "out.parquet").exists()


def test_corrupt_parquet(tmp_path, lineitem_parquet):
    bad = tmp_path / "cut.parquet"
    data = lineitem_parquet.read_bytes()
    bad.write_bytes(data[:100] + data[-8:])
    with pytest.raises(quiver.CorruptFileError) as e:
        quiver.read_parquet(bad)
    assert str(e.value).startswith(str(bad))
    with pytest.raises(quiver.CorruptFileError):
        quiver.metadata(bad)


def test_encrypted_parquet_reads_with_its_keys_only(testdata):
    # parquet-testing's keys (its data/README.md): the footer's, and one per encrypted column.
    path = testdata / "parquet-testing" / "data" / "encrypt_columns_and_footer.parquet.encrypted"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with pytest.raises(quiver.InvalidInputError, match="the footer is encrypted with AES_GCM_V1 and no footer key was given"):
        quiver.read_parquet(path)
    keys = {"footer": "0123456789012345", "double_field": "1234567890123450", "float_field": "1234567890123451"}
    t = quiver.read_parquet(path, decryption_keys=keys)
    assert t.num_rows == 50
    assert t.column("double_field").to_pylist() == [i * 1.1111111 for i in range(50)]
    assert t.column("float_field").to_pylist() == [float(np.float32(i) * np.float32(1.1)) for i in range(50)]  # float arithmetic
    with pytest.raises(quiver.InvalidInputError, match="'double_field'.*key") as e:
        quiver.read_parquet(path, decryption_keys={"footer": keys["footer"], "float_field": keys["float_field"]})
    assert "1234567890123450" not in str(e.value)
    wrong = dict(keys, footer="hex:" + "00" * 16)
    with pytest.raises(quiver.Error) as e:
        quiver.read_parquet(path, decryption_keys=wrong)
    assert "00000000" not in str(e.value)


def test_convert_encrypts_as_the_cli_does(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text("id,name\n1,a\n2,b\n3,\n")
    out = tmp_path / "out.parquet"
    key = "hex:000102030405060708090a0b0c0d0e0f"
    assert quiver.convert(src, out, encryption={"footer_key": key, "algorithm": "gcm-ctr"}) == 3
    with pytest.raises(quiver.InvalidInputError, match="no footer key was given"):
        quiver.read_parquet(out)
    t = quiver.read_parquet(out, decryption_keys={"footer": key})
    assert t.column("id").to_pylist() == [1, 2, 3] and t.column("name").to_pylist() == ["a", "b", None]
    # Parquet to Parquet: the encrypted input read with its key, written plain.
    plain = tmp_path / "plain.parquet"
    assert quiver.convert(out, plain, decryption_keys={"footer": key}) == 3
    assert quiver.read_parquet(plain).column("id").to_pylist() == [1, 2, 3]
    with pytest.raises(quiver.InvalidInputError, match="encryption applies to Parquet output"):
        quiver.convert(src, tmp_path / "x.csv", encryption={"footer_key": key})


MEMORY_CHILD = """
import sys, quiver
csv, parquet = sys.argv[1:]
for read, path in ((quiver.read_csv, csv), (quiver.read_parquet, parquet)):
    try:
        read(path, memory_limit=64 << 10)
        print("read")
    except quiver.OutOfMemoryError as e:
        print("OutOfMemoryError", "65536" in str(e) or "could not allocate" in str(e))
print(quiver.read_csv(csv).num_rows)
"""


def test_memory_limit(lineitem_csv, lineitem_parquet):
    # A fresh process: threads keep slack taken from the shared counters before a limit was set
    # (memory_limit is the process's limit while the call runs, not a per-call account).
    r = subprocess.run([sys.executable, "-c", MEMORY_CHILD, str(lineitem_csv), str(lineitem_parquet)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # The limit was the call's only: the last read, without one, succeeds.
    assert r.stdout.splitlines() == ["OutOfMemoryError True", "OutOfMemoryError True", "5000"]


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.csv"
    r = run_cli("gen", "lineitem", "-n", "600000", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return path


def interrupt_after(seconds):
    timer = threading.Timer(seconds, _thread.interrupt_main)
    timer.start()
    return timer


def test_ctrl_c_stops_a_read(big_csv):
    # The timed read is the second: quiver writes its outputs past the page cache (O_DIRECT), so
    # the first read of the new file comes from the disk and would time far more than the next.
    assert quiver.open_csv(big_csv, threads=1).read_all().num_rows == 600000
    reader = quiver.open_csv(big_csv, threads=1)
    t0 = time.perf_counter()
    assert reader.read_all().num_rows == 600000
    whole = time.perf_counter() - t0
    reader = quiver.open_csv(big_csv, threads=1)
    timer = interrupt_after(whole / 5)
    with pytest.raises(KeyboardInterrupt):
        reader.read_all()
    timer.join()
    # Stopped between batches, not at the end of the file.
    assert 0 < reader.stats["rows_read"] < 600000


def test_ctrl_c_stops_a_convert_and_leaves_nothing(big_csv, tmp_path):
    out = tmp_path / "out.parquet"
    t0 = time.perf_counter()
    quiver.convert(big_csv, out, threads=1)
    whole = time.perf_counter() - t0
    os.remove(out)
    timer = interrupt_after(whole / 10)
    with pytest.raises(KeyboardInterrupt):
        quiver.convert(big_csv, out, threads=1)
    timer.join()
    assert os.listdir(tmp_path) == []


def test_block_size_below_one_is_refused_by_the_library(tmp_path):
    p = tmp_path / "a.csv"
    p.write_text("a\n1\n")
    for bad in (0, -5):
        with pytest.raises(quiver.InvalidInputError) as e:
            quiver.read_csv(str(p), block_size=bad)
        assert str(e.value) == f"{p}: block_size must be at least 1, got {bad}"
