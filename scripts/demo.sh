#!/usr/bin/env bash
# `make demo`: generate a lineitem-shaped sample and run quiver's main job on it.
set -euo pipefail
QUIVER=${1:-build/release/quiver}
ROWS=${DEMO_ROWS:-1000000}
mkdir -p demo
echo "== quiver $("$QUIVER" --version | cut -d' ' -f2): generating $ROWS lineitem rows"
"$QUIVER" gen lineitem --rows "$ROWS" -o demo/lineitem.csv
echo
echo "== first lines of demo/lineitem.csv"
head -n 4 demo/lineitem.csv
echo
if "$QUIVER" --help | grep -qE "^  convert "; then
  echo "== quiver convert demo/lineitem.csv demo/lineitem.parquet"
  "$QUIVER" convert demo/lineitem.csv demo/lineitem.parquet
  echo
  echo "== quiver schema demo/lineitem.parquet"
  "$QUIVER" schema demo/lineitem.parquet
  echo
  echo "== quiver meta demo/lineitem.parquet"
  # Through a file: `head` closing the pipe early would kill meta with SIGPIPE under pipefail.
  "$QUIVER" meta demo/lineitem.parquet > demo/lineitem.meta.txt
  head -n 40 demo/lineitem.meta.txt
else
  echo "== available commands (conversion lands with the Parquet writer)"
  "$QUIVER" --help
fi
