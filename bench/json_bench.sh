#!/usr/bin/env bash
# JSON Lines → Parquet and JSON Lines parsed into memory: quiver against DuckDB and Polars,
# alternated, ROUNDS rounds, 2 threads; wall time and peak RSS from /usr/bin/time -v, and the
# peers' in-process seconds. Run under the machine-wide lock:
#   flock /tmp/quiver-build.lock bash bench/json_bench.sh IN.jsonl [ROUNDS]
# Needs build/release/quiver and build/release/interop (scripts/interop-setup.sh) with bench/peers.mjs.
set -euo pipefail
IN=$1
ROUNDS=${2:-2}
Q=${QUIVER:-build/release/quiver}
NODE_DIR=${NODE_DIR:-build/release/interop}
cp bench/peers.mjs "$NODE_DIR/peers.mjs"
OUT=$(mktemp -d /tmp/json-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
run() {  # label, command...
  local label=$1
  shift
  /usr/bin/time -v -o "$OUT/time" "$@" > "$OUT/stdout" 2> "$OUT/stderr" || { cat "$OUT/stderr"; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$OUT/time")
  rss=$(awk -F': ' '/Maximum resident set size/ {print int($2/1024)}' "$OUT/time")
  local o; o=$(head -c 300 "$OUT/stdout" | tr -d "\n"); echo "{\"job\":\"$label\",\"wall_s\":$wall,\"peak_rss_mib\":$rss,\"out\":${o:-null}}"
  rm -f "$OUT"/*.parquet
}
for r in $(seq "$ROUNDS"); do
  run quiver-json2pq "$Q" convert "$IN" "$OUT/q.parquet" --threads 2 --compression snappy
  run duckdb-json2pq node "$NODE_DIR/peers.mjs" duckdb json2pq "$IN" "$OUT/d.parquet" --threads 2
  run polars-json2pq env POLARS_MAX_THREADS=2 node "$NODE_DIR/peers.mjs" polars json2pq "$IN" "$OUT/p.parquet"
  run quiver-jsonread "$Q" cat "$IN" --format none --threads 2
  run duckdb-jsonread node "$NODE_DIR/peers.mjs" duckdb jsonread "$IN" --threads 2
  run polars-jsonread env POLARS_MAX_THREADS=2 node "$NODE_DIR/peers.mjs" polars jsonread "$IN"
done
