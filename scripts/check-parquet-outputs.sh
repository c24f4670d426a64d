#!/usr/bin/env bash
# The test suite's last test: DuckDB (the pinned one of tests/interop) reads every Parquet file
# the tests kept in DIR (tests/testing/keep_parquet.h) and the test fails naming any it
# rejects. Exit 77 (skipped) when node or npm is missing.
#   check-parquet-outputs.sh DIR NODE_DIR
set -uo pipefail
DIR=$1
NODE_DIR=$2
if ! out=$(bash "$(dirname "$0")/interop-setup.sh" "$NODE_DIR" 2>&1); then
  echo "DuckDB unavailable, the Parquet files the tests wrote are not checked: $out"
  exit 77
fi
exec node "$NODE_DIR/check_files.mjs" "$DIR"
