#!/usr/bin/env bash
# Whole-file ORC read, quiver against Apache ORC C++ in one alternated run: for each FILE, quiver
# decodes every column into Arrow-layout arrays at 1 and 2 threads (`cat FILE --format none
# --threads N`, seconds inside the process) and `orc_read_bench FILE` reads every column into
# ColumnVectorBatches (its own in-process seconds), and `orc_decompress_floor FILE` only expands
# every compressed chunk of the data streams with the decoders quiver uses (no reader that
# expands them can be faster); /usr/bin/time gives user/sys CPU and peak RSS.
# ROUNDS rounds alternate the engines; the min and median of each are printed. Runs under the
# build lock so no build competes.
#   scripts/bench-orc-read.sh ROUNDS FILE...     (e.g. 3 /tmp/orc-li/li.{zlib,zstd,snappy,none,zdict}.orc)
# Making the files: ../shared/peers/orc/README.md (csv-import, orc_recompress).
# QUIVER (program), FLOOR (orc_decompress_floor), ORC_BIN (folder of orc_read_bench; ../shared/peers/orc/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${QUIVER_BENCH_LOCKED:-}" ] && command -v flock >/dev/null; then
  exec env QUIVER_BENCH_LOCKED=1 flock /tmp/quiver-build.lock "$0" "$@"
fi
ROUNDS=${1:?rounds}
shift
QUIVER=${QUIVER:-build/release/quiver}
FLOOR=${FLOOR:-build/release/bench/orc_decompress_floor}
ORC_BIN=${ORC_BIN:-../shared/peers/orc/bin}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# run KEY CMD...: appends "seconds user sys rss_kib" to $TMP/KEY.
run() {
  local key=$1
  shift
  /usr/bin/time -f '%U %S %M' "$@" >"$TMP/out" 2>"$TMP/time" || { cat "$TMP/out" "$TMP/time" >&2; return 1; }
  local s
  s=$(grep -o '"seconds":[0-9.]*' "$TMP/out" | tail -1 | cut -d: -f2)
  echo "$s $(tail -1 "$TMP/time")" >>"$TMP/$key"
}

for ((r = 1; r <= ROUNDS; r++)); do
  for f in "$@"; do
    b=$(basename "$f")
    run "$b.orc1" "$ORC_BIN/orc_read_bench" "$f"
    run "$b.floor" "$FLOOR" "$f"
    run "$b.q1" "$QUIVER" cat "$f" --format none --threads 1
    run "$b.q2" "$QUIVER" cat "$f" --format none --threads 2
  done
done
# One table: per file and engine, min and median of the in-process seconds, median user and
# system CPU seconds and peak RSS; then the ratios the acceptance asks for, on min and median.
/usr/bin/python3 - "$TMP" "$@" <<'PY'
import os, statistics, sys
tmp, files = sys.argv[1], sys.argv[2:]
def load(key):
    rows = [list(map(float, l.split())) for l in open(os.path.join(tmp, key)) if l.strip()]
    secs = [r[0] for r in rows]
    return dict(min=min(secs), med=statistics.median(secs), user=statistics.median(r[1] for r in rows),
                sys=statistics.median(r[2] for r in rows), rss=statistics.median(r[3] for r in rows) / 1024)
print(f"{'file':<18} {'engine':<18} {'min s':>7} {'median s':>8} {'user s':>7} {'sys s':>6} {'peak MB':>8}")
ratios = []
for f in files:
    b = os.path.basename(f)
    o, fl, q1, q2 = load(b + '.orc1'), load(b + '.floor'), load(b + '.q1'), load(b + '.q2')
    for name, s in (('orc_read_bench', o), ('decompress only', fl), ('quiver 1 thread', q1), ('quiver 2 threads', q2)):
        print(f"{b:<18} {name:<18} {s['min']:7.3f} {s['med']:8.3f} {s['user']:7.2f} {s['sys']:6.2f} {s['rss']:8.0f}")
    ratios.append((b, o['min'] / q1['min'], o['med'] / q1['med'], q1['min'] / q2['min'], q1['med'] / q2['med'],
                   fl['med'] / o['med']))
print()
# The last column: the decompression floor as a share of Apache ORC C++'s whole read (medians);
# above 0.5, no reader expanding every chunk with these libraries reads 2x faster than it.
print(f"{'file':<18} {'ORC C++/quiver(1) min':>22} {'median':>7} {'quiver(1)/quiver(2) min':>24} {'median':>7} {'floor/ORC C++':>14}")
for b, a, am, c, cm, fo in ratios:
    print(f"{b:<18} {a:21.2f}x {am:6.2f}x {c:23.2f}x {cm:6.2f}x {fo:13.2f}")
PY
