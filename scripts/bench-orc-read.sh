#!/usr/bin/env bash
# Whole-file ORC read, quiver against Apache ORC C++ in one alternated run: for each FILE, quiver
# decodes every column into Arrow-layout arrays at 1 and 2 threads (`cat FILE --format none
# --threads N`, seconds inside the process) and `orc_read_bench FILE` reads every column into
# ColumnVectorBatches (its own in-process seconds); /usr/bin/time gives user/sys CPU and peak RSS.
# ROUNDS rounds alternate the engines; the min and median of each are printed. Runs under the
# build lock so no build competes.
#   scripts/bench-orc-read.sh ROUNDS FILE...     (e.g. 3 /tmp/orc-li/li.{zlib,zstd,snappy,none,dict}.orc)
# QUIVER (program), ORC_BIN (folder of orc_read_bench; ../shared/peers/orc/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${QUIVER_BENCH_LOCKED:-}" ] && command -v flock >/dev/null; then
  exec env QUIVER_BENCH_LOCKED=1 flock /tmp/quiver-build.lock "$0" "$@"
fi
ROUNDS=${1:?rounds}
shift
QUIVER=${QUIVER:-build/release/quiver}
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
    run "$b.q1" "$QUIVER" cat "$f" --format none --threads 1
    run "$b.q2" "$QUIVER" cat "$f" --format none --threads 2
  done
done
# min, median of the seconds; median user, sys, peak RSS.
summary() {
  sort -n "$1" | awk '{s[NR]=$1; u[NR]=$2; y[NR]=$3; m[NR]=$4} END {
    k=int((NR+1)/2); printf "min %.3f s  median %.3f s  (%.2f user %.2f sys, %d KB peak RSS)", s[1], s[k], u[k], y[k], m[k] }'
}
for f in "$@"; do
  b=$(basename "$f")
  o=$(sort -n "$TMP/$b.orc1" | head -1 | cut -d' ' -f1)
  q1=$(sort -n "$TMP/$b.q1" | head -1 | cut -d' ' -f1)
  q2=$(sort -n "$TMP/$b.q2" | head -1 | cut -d' ' -f1)
  echo "$b ($(stat -c %s "$f") bytes)"
  echo "  orc_read_bench   $(summary "$TMP/$b.orc1")"
  echo "  quiver 1 thread  $(summary "$TMP/$b.q1")"
  echo "  quiver 2 threads $(summary "$TMP/$b.q2")"
  awk -v o="$o" -v q1="$q1" -v q2="$q2" 'BEGIN { printf "  ORC C++ / quiver(1) = %.2fx; quiver(1) / quiver(2) = %.2fx\n", o / q1, q1 / q2 }'
done
