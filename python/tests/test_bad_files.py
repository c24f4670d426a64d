"""Every file of the shared corpora through the Python API in a child process: each read either
succeeds or raises a quiver.Error, and the process never crashes."""
import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import corpora_dir

CHILD = r"""
import os, sys
import quiver
for path in sys.stdin.read().splitlines():
    print("FILE", path, flush=True)
    try:
        if path.endswith(".parquet") or "parquet" in os.path.basename(path):
            t = quiver.read_parquet(path, memory_limit=1 << 30)
            quiver.metadata(path)
        elif path.endswith((".arrow_file", ".stream")):
            fmt = "arrow" if path.endswith(".arrow_file") else "arrows"
            t = quiver._quiver._open(path, {"format": fmt}).read_all()
        else:
            t = quiver.read_csv(path, memory_limit=1 << 30)
        for b in t.to_batches()[:2]:
            b[:50].to_pydict()
            quiver.from_arrow(b)
        print("OK", t.num_rows, flush=True)
    except quiver.Error as e:
        print("ERROR", type(e).__name__, flush=True)
"""


def test_no_crash_on_any_file_of_the_corpora(testdata):
    files = []
    for sub, exts in (("parquet-testing", (".parquet", ".parquet.encrypted")), ("arrow-ipc", (".arrow_file", ".stream")),
                      ("duckdb-csv", None), ("csv-spectrum", (".csv",)), ("commons-csv", None), ("csvw-tests", (".csv",))):
        for root, _, names in os.walk(testdata / sub):
            for n in sorted(names):
                if (exts is None and not n.endswith((".json", ".md", ".txt", ".jsonld", ".tsv", ".gz", ".zst", ".test"))
                        or exts is not None and n.endswith(exts)):
                    files.append(os.path.join(root, n))
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", CHILD], input="\n".join(files), capture_output=True, text=True, env=env,
                       timeout=900)
    lines = r.stdout.splitlines()
    last = next((line for line in reversed(lines) if line.startswith("FILE ")), None)
    assert r.returncode == 0, f"the child died ({r.returncode}) on {last}: {r.stderr[-2000:]}"
    outcomes = [line.split()[0] for line in lines if not line.startswith("FILE ")]
    assert len(outcomes) == len(files)
    assert outcomes.count("OK") > len(files) // 2
    print(f"{len(files)} files: {outcomes.count('OK')} read, {outcomes.count('ERROR')} refused with quiver.Error")
