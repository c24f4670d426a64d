#!/usr/bin/python3
"""The Python package against the quiver program on the same work, and quiver.dask.convert on a
LocalCluster of 1 and 2 workers. Each run is a fresh process under /usr/bin/time; the kinds of
run alternate round by round, and min and median are printed per kind. Not a test: run it by
hand, holding the machine's build lock so that nothing else competes:

    flock /tmp/quiver-build.lock /usr/bin/python3 bench/python/bench.py /tmp/li8m.csv --rounds 3

with PYTHONPATH=build/release/python (or the package installed) and QUIVER_CLI naming the
program (default build/release/quiver). The CSV must be comma-delimited with a header.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Each Python run prints one JSON line with the seconds of the work alone.
PY = {
    "py_read_csv": """
import time, quiver
t0 = time.perf_counter(); t = quiver.read_csv({csv!r}); s = time.perf_counter() - t0
print({{"rows": t.num_rows, "seconds": s}})""",
    "py_open_csv": """
import time, quiver
t0 = time.perf_counter(); rows = sum(b.num_rows for b in quiver.open_csv({csv!r})); s = time.perf_counter() - t0
print({{"rows": rows, "seconds": s}})""",
    "py_read_parquet": """
import time, quiver
t0 = time.perf_counter(); t = quiver.read_parquet({parquet!r}); s = time.perf_counter() - t0
print({{"rows": t.num_rows, "seconds": s}})""",
    "py_convert": """
import time, quiver
t0 = time.perf_counter(); rows = quiver.convert({csv!r}, {out!r}); s = time.perf_counter() - t0
print({{"rows": rows, "seconds": s}})""",
    "dask_convert_1": """
import time, quiver.dask
from distributed import Client, LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as c, Client(c) as client:
        t0 = time.perf_counter(); rows = quiver.dask.convert({csv!r}, {out!r}, client=client); s = time.perf_counter() - t0
    print({{"rows": rows, "seconds": s}})""",
    "dask_convert_2": """
import time, quiver.dask
from distributed import Client, LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as c, Client(c) as client:
        t0 = time.perf_counter(); rows = quiver.dask.convert({csv!r}, {out!r}, client=client); s = time.perf_counter() - t0
    print({{"rows": rows, "seconds": s}})""",
}


def timed(cmd, env):
    r = subprocess.run(["/usr/bin/time", "-f", "TIME %e %U %S %M", *cmd], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{cmd}: {r.stderr}")
    wall, user, sys_, rss = r.stderr.strip().splitlines()[-1].split()[1:]
    inner = None
    for line in r.stdout.splitlines():
        if line.startswith("{"):
            inner = json.loads(line.replace("'", '"')).get("seconds")
    return {"wall": float(wall), "user": float(user), "sys": float(sys_), "rss_mb": int(rss) / 1024, "inner": inner}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated kinds to run")
    args = ap.parse_args()
    cli = os.environ.get("QUIVER_CLI", os.path.join(ROOT, "build", "release", "quiver"))
    env = dict(os.environ)
    env.setdefault("PYTHONPATH", os.path.join(ROOT, "build", "release", "python"))
    work = tempfile.mkdtemp(prefix="python-bench-", dir="/tmp")
    try:
        parquet = os.path.join(work, "in.parquet")
        subprocess.run([cli, "convert", args.csv, parquet], check=True, capture_output=True)
        out = os.path.join(work, "out")
        kinds = {
            "cli_cat_csv": [cli, "cat", args.csv, "--format", "none"],
            "cli_cat_parquet": [cli, "cat", parquet, "--format", "none"],
            "cli_convert": [cli, "convert", args.csv, out + ".parquet"],
        }
        for name, code in PY.items():
            kinds[name] = [sys.executable, "-c", code.format(csv=args.csv, parquet=parquet,
                                                               out=out + ("" if name.startswith("dask") else ".parquet"))]
        if args.only:
            kinds = {k: v for k, v in kinds.items() if k in args.only.split(",")}
        results = {k: [] for k in kinds}
        for _ in range(args.rounds):
            for name, cmd in kinds.items():
                results[name].append(timed(cmd, env))
                shutil.rmtree(out, ignore_errors=True)
                if os.path.exists(out + ".parquet"):
                    os.remove(out + ".parquet")
        size = os.path.getsize(args.csv)
        print(f"{args.csv}: {size / 1e9:.2f} GB, {args.rounds} rounds; seconds: min / median")
        print(f"{'run':18} {'wall':>13} {'in-process':>13} {'user':>7} {'sys':>6} {'peak RSS':>9} {'MB/s':>6}")
        for name, rs in results.items():
            w = [r["wall"] for r in rs]
            i = [r["inner"] for r in rs if r["inner"] is not None]
            inner = f"{min(i):5.2f} / {statistics.median(i):5.2f}" if i else "-"
            print(f"{name:18} {min(w):5.2f} / {statistics.median(w):5.2f} {inner:>13} "
                  f"{statistics.median(r['user'] for r in rs):7.2f} {statistics.median(r['sys'] for r in rs):6.2f} "
                  f"{max(r['rss_mb'] for r in rs):7.0f}MB {size / 1e6 / max(min(w), 1e-3):6.0f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
