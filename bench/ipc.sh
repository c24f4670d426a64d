#!/usr/bin/env bash
# Arrow IPC against Polars in one run (issue 18, item 5), on the lineitem CSV: CSV -> Arrow file,
# Parquet -> Arrow file, and reading the Arrow file (quiver `cat --format none` over its memory
# mapping; Polars scanIPC, also mapped); plus quiver's CSV -> Parquet, the reference of the
# acceptance figure (CSV -> .arrow at least 1.5x faster than CSV -> .parquet). Each run is a
# fresh process, alternated with the others round by round; /usr/bin/time gives wall, user and
# system seconds and peak RSS (Polars' include node's start-up, its own seconds are shown
# beside). Ends with min and median per run. Holds the build lock so no build competes.
#   bench/ipc.sh [CSV] [ROUNDS]        (defaults: /tmp/li8m.csv from `quiver gen lineitem`, 3)
# QUIVER (program, default build/release/quiver), INTEROP (where scripts/interop-setup.sh put
# nodejs-polars, default build/release/interop), OUT (folder for the outputs, default a
# temporary one, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${QUIVER_BENCH_LOCKED:-}" ] && command -v flock >/dev/null; then
  exec env QUIVER_BENCH_LOCKED=1 flock /tmp/quiver-build.lock "$0" "$@"
fi
CSV=${1:-/tmp/li8m.csv}
ROUNDS=${2:-3}
QUIVER=${QUIVER:-build/release/quiver}
export INTEROP=${INTEROP:-build/release/interop}
[ -d "$INTEROP/node_modules/nodejs-polars" ] || bash scripts/interop-setup.sh "$INTEROP" >/dev/null
TMP=${OUT:-$(mktemp -d)}
mkdir -p "$TMP"
[ -z "${OUT:-}" ] && trap 'rm -rf "$TMP"' EXIT
export QUIVER_PROGRESS=0

# The Parquet input (not timed): quiver's own, snappy, default row groups. Then one untimed
# Polars run, so that no timed run loads its 100 MB native library from disk.
"$QUIVER" convert "$CSV" "$TMP/in.parquet" >/dev/null 2>&1
node bench/ipc_polars.mjs pq2ipc "$TMP/in.parquet" "$TMP/p2.arrow" >/dev/null

declare -A RUNS
# run LABEL CMD...: one timed run; prints its line and keeps its wall seconds.
run() {
  local label=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >"$TMP/out" 2>"$TMP/err" || { cat "$TMP/out" "$TMP/err" >&2; return 1; }
  read -r wall usr sys rss <"$TMP/time"
  local inside
  inside=$(grep -o '"seconds":[0-9.]*' "$TMP/out" | cut -d: -f2 || true)
  printf '%-24s %6.2f s  %5.2f user %5.2f sys  %8d KB peak%s\n' "$label" "$wall" "$usr" "$sys" "$rss" \
    "${inside:+  (inside: $inside s)}"
  RUNS[$label]="${RUNS[$label]:-} $wall"
}

echo "input: $CSV ($(stat -c %s "$CSV") bytes), $ROUNDS rounds; $(uptime | sed 's/.*load/load/')"
for ((r = 1; r <= ROUNDS; r++)); do
  echo "-- round $r"
  run "quiver csv->arrow" "$QUIVER" convert "$CSV" "$TMP/q.arrow"
  run "polars csv->arrow" node bench/ipc_polars.mjs csv2ipc "$CSV" "$TMP/p.arrow"
  run "quiver csv->parquet" "$QUIVER" convert "$CSV" "$TMP/q.parquet"
  run "quiver parquet->arrow" "$QUIVER" convert "$TMP/in.parquet" "$TMP/q2.arrow"
  run "polars parquet->arrow" node bench/ipc_polars.mjs pq2ipc "$TMP/in.parquet" "$TMP/p2.arrow"
  # Both read from the page cache: convert drops its output's pages as they reach the disk.
  cat "$TMP/q.arrow" >/dev/null
  run "quiver read arrow" "$QUIVER" cat "$TMP/q.arrow" --format none
  run "polars read arrow" node bench/ipc_polars.mjs ipcread "$TMP/q.arrow"
done
echo "-- min / median wall seconds"
stats() { tr ' ' '\n' <<<"${RUNS[$1]}" | grep . | sort -n | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.2f %.2f", v[1], m}'; }
for label in "quiver csv->arrow" "polars csv->arrow" "quiver csv->parquet" "quiver parquet->arrow" \
             "polars parquet->arrow" "quiver read arrow" "polars read arrow"; do
  read -r mn md <<<"$(stats "$label")"
  printf '%-24s min %6.2f  median %6.2f\n' "$label" "$mn" "$md"
done
read -r _ qa <<<"$(stats "quiver csv->arrow")"
read -r _ qp <<<"$(stats "quiver csv->parquet")"
read -r _ pa <<<"$(stats "polars csv->arrow")"
awk -v qa="$qa" -v qp="$qp" -v pa="$pa" 'BEGIN {
  printf "medians: quiver csv->parquet / csv->arrow = %.2fx (acceptance: >= 1.5x); polars / quiver csv->arrow = %.2fx\n", qp / qa, pa / qa }'
echo "$(uptime | sed 's/.*load/load/')"
