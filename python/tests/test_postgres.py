"""quiver.load into a PostgreSQL 15 server of the test's own (Debian's binaries, initdb in a
temporary folder, run as 'nobody' when the tests run as root, on a Unix socket only)."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import quiver

BIN = Path("/usr/lib/postgresql/15/bin")


@pytest.fixture(scope="module")
def pg():
    if not (BIN / "initdb").exists() or not (BIN / "pg_ctl").exists():
        pytest.skip(f"PostgreSQL 15 binaries missing under {BIN} (install postgresql-15: make deps)")
    d = tempfile.mkdtemp(prefix="quiver-pypg-")
    prefix = []
    if os.geteuid() == 0:
        shutil.chown(d, "nobody", "nogroup")
        prefix = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    run = lambda *a: subprocess.run(prefix + list(a), cwd="/", capture_output=True, text=True, check=True)
    run(str(BIN / "initdb"), "-D", f"{d}/data", "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8")
    run(str(BIN / "pg_ctl"), "-D", f"{d}/data", "-l", f"{d}/log", "-w", "start",
        "-o", f"-k {d} -c listen_addresses='' -c fsync=off")
    try:
        yield f"host={d} user=postgres dbname=postgres", d
    finally:
        run(str(BIN / "pg_ctl"), "-D", f"{d}/data", "-m", "fast", "-w", "stop")
        shutil.rmtree(d, ignore_errors=True)


def psql(d: str, sql: str) -> str:
    return subprocess.run(["psql", "-X", "-A", "-t", "-h", d, "-U", "postgres", "-d", "postgres", "-c", sql],
                          capture_output=True, text=True, check=True).stdout.strip()


def test_load_modes_and_errors(pg, tmp_path):
    conninfo, d = pg
    src = tmp_path / "a.csv"
    src.write_text("id,name,price\n1,x,1.50\n2,ü,-2.25\n")
    assert quiver.load(src, conninfo, table="py_t", column_types={"price": "decimal(10,2)"}) == 2
    assert psql(d, "SELECT string_agg(id || ':' || name || ':' || price, ' ' ORDER BY id) FROM py_t") == \
        "1:x:1.50 2:ü:-2.25"
    assert quiver.load(src, conninfo, table="py_t", mode="append", connections=1,
                       column_types={"price": "decimal(10,2)"}) == 2
    assert psql(d, "SELECT count(*) FROM py_t") == "4"
    with pytest.raises(quiver.InvalidInputError,
                       match=r'^postgres: table "public"."py_t" already exists \(use --append, --truncate or --replace\)$'):
        quiver.load(src, conninfo, table="py_t")
    with pytest.raises(quiver.Error, match="password authentication failed|cannot connect"):
        quiver.load(src, f"host={d} user=nosuchuser password=Top-Secret dbname=postgres", table="x")
    with pytest.raises(quiver.InvalidInputError, match="mode must be create, append, replace or truncate"):
        quiver.load(src, conninfo, table="py_t", mode="upsert")
    assert psql(d, "SELECT count(*) FROM pg_class WHERE relname LIKE 'quiver_staging%'") == "0"
