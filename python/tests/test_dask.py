"""quiver.dask: byte-range partitions of a quote-heavy lineitem CSV whose ranges cut inside
quoted newlines (equal to the whole file read at once for every range size from 1 KiB up, where
dask.dataframe.read_csv returns wrong rows), Parquet row-group partitions, and conversion on a
LocalCluster of 2 worker processes, with a worker killed mid-run."""
import os
import signal
import threading
import time

import pytest

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")
import pandas as pd  # noqa: E402

import quiver  # noqa: E402
import quiver.dask as qd  # noqa: E402
from conftest import run_cli  # noqa: E402


def sweep_sizes(file_size):
    """1 KiB up to the whole file: every KiB to 16 KiB, then growing by half."""
    sizes = list(range(1 << 10, 16 << 10, 1 << 10))
    s = 16 << 10
    while s < file_size:
        sizes.append(s)
        s = s * 3 // 2
    return sizes + [file_size + 1]


def frame(t):
    return t.to_pandas(nullable=True)


@pytest.fixture(scope="module")
def messy_whole(messy_csv):
    return frame(quiver.read_csv(messy_csv))


def test_ranges_cut_inside_quoted_newlines(messy_csv):
    plans = qd._plan([str(messy_csv)], 1 << 10, {})
    states = plans[0].states
    data = messy_csv.read_bytes()
    assert b'"' in data and data.count(b"\n") > 4001  # newlines inside quoted fields
    assert sum(states) > 10, "some 1 KiB cuts lie inside quoted fields"


def test_every_range_size_reads_the_file_exactly(messy_csv, messy_whole):
    size = os.path.getsize(messy_csv)
    with dask.config.set(scheduler="synchronous"):
        for bs in sweep_sizes(size):
            got = qd.read_csv(messy_csv, blocksize=bs)
            assert got.npartitions == -(-size // bs)
            df = got.compute().reset_index(drop=True)
            pd.testing.assert_frame_equal(df, messy_whole, obj=f"blocksize {bs}")


def test_dasks_own_read_csv_returns_wrong_rows_on_the_same_file(messy_csv):
    """Dask cuts at the first newline after each range start, quotes or not: a range cut inside
    a quoted field fails to parse ("EOF inside string"), and with the options that get past
    that error (engine="python", on_bad_lines="skip") rows are lost without an error."""
    import warnings

    size = os.path.getsize(messy_csv)
    truth = pd.read_csv(messy_csv, dtype=str, keep_default_na=False)
    outcomes = {"default": {}, "skip": {}}
    with dask.config.set(scheduler="synchronous"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for bs in sweep_sizes(size):
            for mode, kw in (("default", {}), ("skip", {"engine": "python", "on_bad_lines": "skip"})):
                try:
                    df = dd.read_csv(messy_csv, blocksize=bs, dtype=str, keep_default_na=False, **kw).compute()
                except Exception:  # noqa: BLE001 - a parse error is one of the ways it fails
                    outcomes[mode][bs] = "error"
                    continue
                df = df.reset_index(drop=True)
                outcomes[mode][bs] = "right" if df.shape == truth.shape and df.equals(truth) else "wrong rows"
    counts = {m: {k: list(o.values()).count(k) for k in ("right", "wrong rows", "error")} for m, o in outcomes.items()}
    print(f"dask.dataframe.read_csv over {len(outcomes['skip'])} range sizes: {counts}")
    # Cuts inside quotes at every small size: Dask fails, or returns wrong rows and no error.
    small = [bs for bs in outcomes["skip"] if bs <= 16 << 10]
    assert all(outcomes["default"][bs] == "error" for bs in small)
    assert all(outcomes["skip"][bs] == "wrong rows" for bs in small)
    # The whole file as one range is read right: the comparison itself is sound.
    assert outcomes["default"][size + 1] == outcomes["skip"][size + 1] == "right"


def test_read_parquet_partitions_are_row_groups_pruned_by_statistics(lineitem_parquet):
    whole = frame(quiver.read_parquet(lineitem_parquet))
    with dask.config.set(scheduler="synchronous"):
        d = qd.read_parquet(lineitem_parquet)
        assert d.npartitions == 5
        pd.testing.assert_frame_equal(d.compute().reset_index(drop=True), whole)
        f = qd.read_parquet(lineitem_parquet, columns=["l_orderkey", "l_tax"], filter=("l_orderkey", ">=", 4000))
        want = whole[whole.l_orderkey >= 4000][["l_orderkey", "l_tax"]].reset_index(drop=True)
        assert f.npartitions < 5  # the row groups below 4000 are not partitions
        pd.testing.assert_frame_equal(f.compute().reset_index(drop=True), want)


def test_bad_arguments(tmp_path, messy_csv, lineitem_csv):
    with pytest.raises(quiver.InvalidInputError, match="^no file matches '/nonexistent/\\*.csv'$"):
        qd.read_csv("/nonexistent/*.csv")
    with pytest.raises(quiver.InvalidInputError, match="^blocksize must be a positive number of bytes, got 0$"):
        qd.read_csv(messy_csv, blocksize=0)
    with pytest.raises(quiver.InvalidInputError, match="lenient=True is not supported across byte ranges"):
        qd.read_csv(messy_csv, lenient=True)
    gz = tmp_path / "x.csv.gz"
    gz.write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 20)
    with pytest.raises(quiver.InvalidInputError, match="compressed CSV cannot be cut into byte ranges"):
        qd.read_csv(gz)
    unclosed = tmp_path / "open.csv"
    unclosed.write_bytes(b"a,b\n1,\"x\n2,y\n")
    with pytest.raises(quiver.InvalidInputError):
        qd.read_csv(unclosed, blocksize=4, quote='"')
    other = tmp_path / "other.csv"
    other.write_bytes(b"x,y\n1,2\n")
    with pytest.raises(quiver.InvalidInputError, match="its columns differ from"):
        qd.read_csv([str(lineitem_csv), str(other)])
    out = tmp_path / "exists"
    out.mkdir()
    with pytest.raises(quiver.InvalidInputError, match="already exists"):
        qd.convert(messy_csv, out)


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as c, Client(c) as client:
        yield client


def test_convert_on_two_workers_equals_the_csv_in_duckdb(tmp_path, messy_csv, cluster, duckdb_compare):
    out = tmp_path / "ds"
    rows = qd.convert(messy_csv, out, partition_by="l_shipmode", client=cluster, blocksize=16 << 10,
                      compression="zstd")
    assert rows == 4000
    assert sorted(os.listdir(out))[:2] == ["l_shipmode=AIR", "l_shipmode=FOB"]
    names = os.listdir(out / "l_shipmode=AIR")
    assert all(n.startswith("part-") and n.endswith(".parquet") for n in names) and len(names) > 10
    assert [n for n in os.listdir(tmp_path) if n != "ds"] == []  # the staging folder is gone
    r = duckdb_compare(f"{out}/**/*.parquet", str(messy_csv))
    assert (r["parquet_rows"], r["csv_rows"], r["only_parquet"], r["only_csv"]) == (4000, 4000, 0, 0)
    flat = tmp_path / "flat"
    assert qd.convert(messy_csv, flat, client=cluster, blocksize=64 << 10) == 4000
    assert sorted(os.listdir(flat))[0] == "part-00000.parquet"
    r = duckdb_compare(f"{flat}/*.parquet", str(messy_csv))
    assert (r["parquet_rows"], r["only_parquet"], r["only_csv"]) == (4000, 0, 0)


def test_a_failed_run_leaves_nothing(tmp_path, messy_csv, cluster):
    out = tmp_path / "ds"
    with pytest.raises(quiver.InvalidInputError, match="cannot convert to date"):
        qd.convert(messy_csv, out, client=cluster, blocksize=16 << 10, column_types={"l_comment": "date"})
    assert os.listdir(tmp_path) == []


@pytest.fixture(scope="module")
def bigger_messy(data_dir):
    path = data_dir / "messy-big.csv"
    r = run_cli("gen", "lineitem", "-n", "300000", "--messy", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return path


def _results_held(dask_scheduler):
    """Per worker, how many conversion results it holds in memory (lost if it dies)."""
    return {ws.address: sum("_convert_range" in str(ts.key) for ts in ws.has_what)
            for ws in dask_scheduler.workers.values()}


def test_a_worker_killed_mid_run(tmp_path, bigger_messy, cluster, duckdb_compare):
    client = cluster
    pids = client.run(os.getpid)
    out = tmp_path / "ds"
    result = {}

    def run():
        try:
            result["rows"] = qd.convert(bigger_messy, out, client=client, blocksize=256 << 10, partition_by="l_returnflag")
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            result["error"] = e

    t = threading.Thread(target=run)
    t.start()
    killed = None
    deadline = time.time() + 60
    # Killed while it converts a range and holds finished ones: those are run again elsewhere,
    # and their first attempts' files must not be committed beside the second ones.
    while killed is None and time.time() < deadline and t.is_alive():
        processing = client.processing()
        held = client.run_on_scheduler(_results_held)
        for addr, tasks in processing.items():
            if any("_convert_range" in str(k) for k in tasks) and held.get(addr, 0) >= 2 and addr in pids:
                os.kill(pids[addr], signal.SIGKILL)
                killed = addr
                break
        time.sleep(0.005)
    t.join(120)
    assert killed is not None, "no worker was seen converting while it held finished ranges"
    assert "error" not in result, result.get("error")
    assert result["rows"] == 300000
    r = duckdb_compare(f"{out}/**/*.parquet", str(bigger_messy))
    assert (r["parquet_rows"], r["csv_rows"], r["only_parquet"], r["only_csv"]) == (300000, 300000, 0, 0)
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it
