#!/usr/bin/env bash
# Whole-file Parquet read, quiver against DuckDB and Polars in one run: each engine decodes every
# column of FILE into memory in a fresh process and reports the seconds inside the process
# (quiver: `cat FILE --format none --materialize`; peers: `peers.mjs duckdb|polars pqread`), and
# /usr/bin/time -v gives its peak RSS. Runs under the build lock so no build competes.
#   scripts/bench-parquet-read.sh [FILE] [ROUNDS]      (defaults: /tmp/li8m_duck.parquet, 1)
# QUIVER (program), QUIVER_B (a second program, e.g. a build from before a change: each quiver run
# is followed by the same run of it, for an A/B in one run), PEERS (peers folder), COLD=1 (evict FILE from the page cache before every
# run, with posix_fadvise DONTNEED on that file only), SETTLE=S (sleep S seconds before every run:
# on this VM memory freed by the previous process is cheap to take again for about 2 s, after
# which fresh memory costs host faults again; 3 makes every run pay that the same way).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${QUIVER_BENCH_LOCKED:-}" ] && command -v flock >/dev/null; then
  exec env QUIVER_BENCH_LOCKED=1 flock /tmp/quiver-build.lock "$0" "$@"
fi
FILE=${1:-/tmp/li8m_duck.parquet}
ROUNDS=${2:-1}
QUIVER=${QUIVER:-build/release/quiver}
PEERS=${PEERS:-/root/peers}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

evict() {
  python3 -c 'import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$FILE"
}

# run LABEL CMD...: prints "LABEL seconds peak_rss_kib minor_faults user+system CPU seconds" and
# keeps the seconds. The CPU seconds tell the work from the wait: on this VM first-touched memory
# is system time (the kernel zeroing pages the host must back first).
declare -A SECS
run() {
  local label=$1
  shift
  [ "${COLD:-0}" = 1 ] && evict
  sleep "${SETTLE:-0}"
  /usr/bin/time -v "$@" >"$TMP/out" 2>"$TMP/time" || { cat "$TMP/out" "$TMP/time" >&2; return 1; }
  local s rss faults usr sys
  s=$(grep -o '"seconds":[0-9.]*' "$TMP/out" | tail -1 | cut -d: -f2)
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time")
  faults=$(awk -F': ' '/Minor \(reclaiming a frame\) page faults/ {print $2}' "$TMP/time")
  usr=$(awk -F': ' '/User time \(seconds\)/ {print $2}' "$TMP/time")
  sys=$(awk -F': ' '/System time \(seconds\)/ {print $2}' "$TMP/time")
  printf '%-18s %8.3f s  %10s KiB peak RSS  %9s minor faults  %5.2f user %5.2f sys\n' "$label" "$s" "$rss" "$faults" "$usr" "$sys"
  SECS[$label]=$s
}

echo "file: $FILE ($(stat -c %s "$FILE") bytes); $(uptime | sed 's/.*load/load/')"
for ((r = 1; r <= ROUNDS; r++)); do
  run "quiver 1 thread" "$QUIVER" cat "$FILE" --format none --materialize --threads 1
  [ -n "${QUIVER_B:-}" ] && run "B 1 thread" "$QUIVER_B" cat "$FILE" --format none --materialize --threads 1
  run "quiver 2 threads" "$QUIVER" cat "$FILE" --format none --materialize --threads 2
  [ -n "${QUIVER_B:-}" ] && run "B 2 threads" "$QUIVER_B" cat "$FILE" --format none --materialize --threads 2
  run "polars" node "$PEERS/peers.mjs" polars pqread "$FILE"
  run "duckdb 1 thread" node "$PEERS/peers.mjs" duckdb pqread "$FILE" --threads 1
  run "duckdb 2 threads" node "$PEERS/peers.mjs" duckdb pqread "$FILE" --threads 2
  awk -v q1="${SECS[quiver 1 thread]}" -v q2="${SECS[quiver 2 threads]}" -v p="${SECS[polars]}" \
      -v d1="${SECS[duckdb 1 thread]}" -v d2="${SECS[duckdb 2 threads]}" 'BEGIN {
    printf "ratios: polars / quiver(2) = %.2fx, duckdb(2) / quiver(2) = %.2fx, duckdb(1) / quiver(1) = %.2fx\n",
           p / q2, d2 / q2, d1 / q1 }'
done
echo "$(uptime | sed 's/.*load/load/')"
