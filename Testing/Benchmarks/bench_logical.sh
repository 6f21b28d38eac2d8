#!/bin/sh
# Benchmark of logical time (Core/LogicalTime.cxx): builds the
# logical trace of an in-memory stencil of 64 ranks (4 x 4 x 4 grid, Isends
# and a Waitall per iteration, an Allreduce every 10th) with about 1M logical
# events, best of 3, and fails if BuildLogicalTrace takes more than 5 s.
#
# Usage: Testing/Benchmarks/bench_logical.sh [BUILD_DIR]
#   BUILD_DIR        build tree holding bin/macroscope-logical-bench (default: ./build)
#   BENCH_EVENTS     logical events (default: 1000000)
#   BENCH_MAX_SECONDS  allowed time of BuildLogicalTrace (default: 5)
set -eu

build_dir=${1:-build}
events=${BENCH_EVENTS:-1000000}
max_seconds=${BENCH_MAX_SECONDS:-5}

bench="$build_dir/bin/macroscope-logical-bench"
if [ ! -x "$bench" ]; then
  echo "bench_logical: $bench not found; build the project first" >&2
  exit 2
fi

set -- "$bench" --ranks 64 --events "$events" --repeat 3
echo "command: $*"
out=$("$@") || { echo "$out"; echo "FAIL: the benchmark driver failed" >&2; exit 1; }
echo "$out"

seconds=$(echo "$out" | sed -n 's/^build_seconds: //p')
if [ -z "$seconds" ]; then
  echo "FAIL: no build time in the output" >&2
  exit 1
fi
if awk -v s="$seconds" -v max="$max_seconds" 'BEGIN { exit !(s > max) }'; then
  echo "FAIL: BuildLogicalTrace took $seconds s, more than $max_seconds s" >&2
  exit 1
fi
echo "OK: BuildLogicalTrace took $seconds s <= $max_seconds s"
