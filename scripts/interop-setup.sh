#!/usr/bin/env bash
# Installs the pinned npm packages of tests/interop (DuckDB, Polars, apache-arrow and its LZ4/ZSTD
# codecs) into DIR (default build/interop) with `npm ci`, beside copies of the check scripts
# (*.mjs). Exit 2 when node or npm is missing.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../tests/interop" && pwd)
DIR=${1:-build/interop}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "interop: node/npm not found; DuckDB/Polars/apache-arrow interop tests will be skipped" >&2
  exit 2
fi
mkdir -p "$DIR"
# Test processes run in parallel under ctest; one installs, the others wait.
exec 9>"$DIR/.lock"
flock 9
# Tests run these scripts while other test processes set up: a script is replaced only when it
# changed, and by a rename, so no reader ever sees it half written.
for f in "$SRC"/*.mjs; do
  name=$(basename "$f")
  if ! cmp -s "$f" "$DIR/$name"; then
    cp "$f" "$DIR/.$name.tmp" && mv -f "$DIR/.$name.tmp" "$DIR/$name"
  fi
done
# Reinstall only when the pinned versions changed.
if [ ! -d "$DIR/node_modules" ] || ! cmp -s "$SRC/package-lock.json" "$DIR/package-lock.json"; then
  cp "$SRC/package.json" "$SRC/package-lock.json" "$DIR/"
  (cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error)
fi
