"""Fixtures of the Python package's tests: the quiver program (the C++ reader the values are
checked against), small lineitem files it generates, the shared test corpora, and the project's
pinned DuckDB (tests/interop, installed by scripts/interop-setup.sh)."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SOURCE_DIR = Path(os.environ.get("QUIVER_SOURCE_DIR", HERE.parent.parent))


def _cli() -> str:
    cli = os.environ.get("QUIVER_CLI") or str(SOURCE_DIR / "build" / "release" / "quiver")
    if not os.access(cli, os.X_OK):
        pytest.skip(f"the quiver program is not built at {cli} (make release, or set QUIVER_CLI)")
    return cli


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([_cli(), *args], capture_output=True, text=True, check=False)


@pytest.fixture(scope="session")
def cli() -> str:
    return _cli()


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("data")


@pytest.fixture(scope="session")
def lineitem_csv(data_dir) -> Path:
    path = data_dir / "li.csv"
    r = run_cli("gen", "lineitem", "-n", "5000", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="session")
def messy_csv(data_dir) -> Path:
    """Quoted fields with quotes, delimiters and newlines inside (quiver gen lineitem --messy)."""
    path = data_dir / "messy.csv"
    r = run_cli("gen", "lineitem", "-n", "4000", "--messy", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return path


@pytest.fixture(scope="session")
def lineitem_parquet(data_dir, lineitem_csv) -> Path:
    path = data_dir / "li.parquet"
    r = run_cli("convert", str(lineitem_csv), str(path), "--row-group-size", "1000")
    assert r.returncode == 0, r.stderr
    return path


def corpora_dir() -> Path:
    d = os.environ.get("QUIVER_TESTDATA")
    return Path(d) if d else SOURCE_DIR.parent / "shared" / "testdata"


@pytest.fixture(scope="session")
def testdata() -> Path:
    d = corpora_dir()
    if not d.is_dir():
        pytest.skip(f"the shared test corpora are not at {d} (set QUIVER_TESTDATA)")
    return d


@pytest.fixture(scope="session")
def duckdb_compare():
    """compare(parquet_glob, csv) -> DuckDB's row counts and EXCEPT ALL differences; skips with
    the setup's message when node or the pinned DuckDB cannot be installed."""
    node_dir = Path(os.environ.get("QUIVER_INTEROP_DIR") or SOURCE_DIR / "build" / "release" / "interop")
    setup = subprocess.run(["bash", str(SOURCE_DIR / "scripts" / "interop-setup.sh"), str(node_dir)],
                           capture_output=True, text=True)
    if setup.returncode != 0:
        pytest.skip(f"DuckDB interop unavailable: {setup.stderr.strip() or setup.stdout.strip()}")
    script = node_dir / "python_duckdb_compare.mjs"
    tmp = node_dir / f".python_duckdb_compare.{os.getpid()}.tmp"
    shutil.copyfile(HERE / "duckdb_compare.mjs", tmp)
    os.replace(tmp, script)

    def compare(parquet_glob: str, csv: str) -> dict:
        r = subprocess.run(["node", str(script), parquet_glob, csv], capture_output=True, text=True, cwd=node_dir)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    return compare
