#!/usr/bin/env bash
# `make bench-report`: the benchmark page, bench/report/index.md with its PNG plots. Builds
# quiver and bench/lineitem_queries, installs the pinned DuckDB and Polars of tests/interop into
# build/bench-peers (scripts/interop-setup.sh) beside bench/peers.mjs, generates lineitem CSV at
# 1M and 8M rows (and a quote-heavy 1M variant), has DuckDB write the Parquet file the read jobs
# use, then runs every job ROUNDS times, the engines one after another within each round (so
# they meet the same machine state), each in a fresh process under /usr/bin/time, all holding
# the build lock so no build competes. bench/report.py writes the page from the results.
#   ROUNDS (5), DATA (build/bench-data: the generated files, kept for the next run), SIZES ("1000000 8000000"),
#   MESSY_SIZE (1000000: the size that also gets the quote-heavy variant)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
ROUNDS=${ROUNDS:-5}
DATA=${DATA:-build/bench-data}
SIZES=${SIZES:-"1000000 8000000"}
MESSY_SIZE=${MESSY_SIZE:-1000000}
OUT=bench/report
LOCK=""
command -v flock >/dev/null && LOCK="flock /tmp/quiver-build.lock"
[ -f build/release/build.ninja ] || cmake --preset release
$LOCK cmake --build build/release -j "$(nproc)" --target quiver lineitem_queries
Q=$ROOT/build/release/quiver
LQ=$ROOT/build/release/bench/lineitem_queries
PEERS=$ROOT/build/bench-peers
if ! bash scripts/interop-setup.sh "$PEERS" >&2; then
  echo "bench-report: the peers (node, npm) could not be installed; the page needs them" >&2
  exit 1
fi
cp bench/peers.mjs "$PEERS/bench-peers.mjs"
P="node $PEERS/bench-peers.mjs"
ORC_BIN=$ROOT/../shared/peers/orc/bin
mkdir -p "$DATA" "$OUT"
RESULTS=$DATA/results.jsonl
: >"$RESULTS"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run SIZE JOB ENGINE ROUND CMD...: one fresh process; its JSON line's seconds (else quiver
# convert's "N s" on stderr, else the wall time), wall, user, sys and peak RSS go to RESULTS.
run() {
  local size=$1 job=$2 engine=$3 round=$4
  shift 4
  if ! /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err"; then
    echo "bench-report: $job/$engine failed: $*" >&2
    cat "$TMP/out" "$TMP/err" >&2
    exit 1
  fi
  /usr/bin/python3 - "$size" "$job" "$engine" "$round" "$TMP/out" "$TMP/err" "$TMP/time" >>"$RESULTS" <<'PY'
import json, re, sys
size, job, engine, rnd, out, err, tm = sys.argv[1:]
wall, user, system, kib = open(tm).read().split()[-4:]
line = [l for l in open(out).read().splitlines() if l.startswith('{')]
rec = json.loads(line[-1]) if line else {}
secs = rec.get('seconds')
if secs is None:
    m = re.search(r' ([0-9.]+) s, ', open(err).read())
    secs = float(m.group(1)) if m else float(wall)
extra = {k: rec[k] for k in ('decoded_bytes', 'revenue', 'groups', 'rows', 'bytes', 'fault_floor_seconds') if k in rec}
print(json.dumps(dict(size=int(size), job=job, engine=engine, round=int(rnd), seconds=float(secs),
                      wall=float(wall), user=float(user), sys=float(system), peak_kib=int(kib), **extra)))
PY
  tail -1 "$RESULTS" | cut -c1-160 >&2
}

# orc_jobs SIZE ROUND CSV: ORC full read, quiver at 1 and 2 threads against Apache ORC C++'s
# orc_read_bench (../shared/peers/orc/bin; skipped without it), over a zlib ORC copy of the CSV
# that quiver writes once.
orc_jobs() {
  local size=$1 r=$2 csv=$3 orc=$DATA/li$1.orc
  [ -x "$ORC_BIN/orc_read_bench" ] || return 0
  [ -s "$orc" ] || { "$Q" convert "$csv" "$orc" --compression zlib >/dev/null 2>&1 && sync; }
  run "$size" orcread quiver-1t "$r" "$Q" cat "$orc" --format none --threads 1
  run "$size" orcread quiver-2t "$r" "$Q" cat "$orc" --format none --threads 2
  run "$size" orcread apache-orc "$r" "$ORC_BIN/orc_read_bench" "$orc"
}

measure() {
  date +%s >"$DATA/measure-start"
  for size in $SIZES; do
    local csv=$DATA/li$size.csv duck=$DATA/li${size}_duck.parquet
    [ -s "$csv" ] || "$Q" gen lineitem --rows "$size" -o "$csv"
    [ -s "$duck" ] || $P duckdb csv2pq "$csv" "$duck" >/dev/null
    local messy=""
    if [ "$size" = "$MESSY_SIZE" ]; then
      messy=$DATA/messy$size.csv
      [ -s "$messy" ] || "$Q" gen lineitem --rows "$size" --messy -o "$messy"
    fi
    # The files just generated are still being written back to disk; that is not the work
    # measured, so it is done before the first round rather than during it.
    sync
    for ((r = 1; r <= ROUNDS; r++)); do
      run "$size" csv2pq quiver "$r" "$Q" convert "$csv" "$TMP/q.parquet"
      run "$size" csv2pq duckdb "$r" $P duckdb csv2pq "$csv" "$TMP/d.parquet"
      run "$size" csv2pq polars "$r" $P polars csv2pq "$csv" "$TMP/p.parquet"
      rm -f "$TMP"/*.parquet
      run "$size" csvread quiver "$r" "$Q" cat "$csv" --format none
      # The same two jobs on one thread: the page gives the second thread's speed-up and CPU.
      run "$size" csv2pq quiver-1t "$r" "$Q" convert "$csv" "$TMP/q.parquet" --threads 1
      rm -f "$TMP"/*.parquet
      run "$size" csvread quiver-1t "$r" "$Q" cat "$csv" --format none --threads 1
      run "$size" csvread duckdb "$r" $P duckdb csvread "$csv"
      run "$size" csvread polars "$r" $P polars csvread "$csv"
      if [ -n "$messy" ]; then
        run "$size" messy-csv2pq quiver "$r" "$Q" convert "$messy" "$TMP/q.parquet"
        run "$size" messy-csv2pq duckdb "$r" $P duckdb csv2pq "$messy" "$TMP/d.parquet"
        run "$size" messy-csv2pq polars "$r" $P polars csv2pq "$messy" "$TMP/p.parquet"
        rm -f "$TMP"/*.parquet
      fi
      run "$size" pqread quiver "$r" "$Q" cat "$duck" --format none --materialize
      local decoded
      decoded=$(tail -1 "$RESULTS" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["decoded_bytes"])')
      run "$size" fault-floor quiver "$r" "$LQ" fault-floor "$decoded"
      run "$size" readall quiver "$r" "$LQ" readall "$duck"
      run "$size" pqread duckdb "$r" $P duckdb pqread "$duck"
      run "$size" pqread polars "$r" $P polars pqread "$duck"
      run "$size" scan quiver "$r" "$Q" cat "$duck" --format none
      run "$size" q6 quiver "$r" "$LQ" q6 "$duck"
      run "$size" q6 duckdb "$r" $P duckdb q6 "$duck"
      run "$size" q1 quiver "$r" "$LQ" q1 "$duck"
      run "$size" q1 duckdb "$r" $P duckdb q1 "$duck"
      orc_jobs "$size" "$r" "$csv"
    done
  done
}

if [ -n "$LOCK" ]; then
  export -f run measure orc_jobs
  export Q LQ P DATA RESULTS TMP ROUNDS SIZES MESSY_SIZE ORC_BIN
  flock /tmp/quiver-build.lock bash -c measure
else
  measure
fi
{
  echo "machine=$(lscpu | sed -n 's/^Model name: *//p') ($(nproc) cores), $(free -g | awk '/Mem:/ {print $2}') GB RAM, $(uname -sr)"
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "quiver=$(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes') ($($Q --version 2>/dev/null | head -1))"
  echo "peers=$($P versions)"
  echo "rounds=$ROUNDS"
  echo "seconds=$(( $(date +%s) - $(cat "$DATA/measure-start") ))"
} >"$DATA/meta.txt"
/usr/bin/python3 bench/report.py "$RESULTS" "$DATA/meta.txt" "$OUT"
echo "bench-report: $OUT/index.md"
