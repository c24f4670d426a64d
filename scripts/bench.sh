#!/usr/bin/env bash
# `make bench`: every Google Benchmark binary, holding the build lock so no build competes
# for the cores. Extra arguments go to each binary (e.g. --benchmark_filter=Alloc).
set -euo pipefail
cd "$(dirname "$0")/.."
LOCK=""
command -v flock >/dev/null && LOCK="flock /tmp/quiver-build.lock"
for b in build/release/bench/*_bench; do
  [ -x "$b" ] || continue
  echo "== $b"
  $LOCK "$b" --benchmark_min_time=0.5 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true "$@"
done
