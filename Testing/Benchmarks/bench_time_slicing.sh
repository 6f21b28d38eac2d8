#!/bin/sh
# Benchmark of the Time-Slice algorithm (Core/TimeSlicing.cxx): slices
# an in-memory state table (64 leaves, 16M nested states, 1000 slices,
# exclusive StateDuration) with 1 and 2 threads, best of 3 each, and fails if
# the 2-thread rate is below 20M states/s.
#
# Usage: Testing/Benchmarks/bench_time_slicing.sh [BUILD_DIR]
#   BUILD_DIR     build tree holding bin/macroscope-time-slicing-bench (default: ./build)
#   BENCH_STATES  number of states (default: 16000000)
#   BENCH_MIN_RATE  required 2-thread states/s (default: 20000000)
set -eu

build_dir=${1:-build}
states=${BENCH_STATES:-16000000}
min_rate=${BENCH_MIN_RATE:-20000000}

bench="$build_dir/bin/macroscope-time-slicing-bench"
if [ ! -x "$bench" ]; then
  echo "bench_time_slicing: $bench not found; build the project first" >&2
  exit 2
fi

set -- "$bench" --leaves 64 --states "$states" --slices 1000 --repeat 3
echo "command: $*"
out=$("$@") || { echo "$out"; echo "FAIL: the benchmark driver failed" >&2; exit 1; }
echo "$out"

rate=$(echo "$out" | sed -n 's/^rate_2threads_states_per_s: //p')
if [ -z "$rate" ]; then
  echo "FAIL: no 2-thread rate in the output" >&2
  exit 1
fi
if awk -v r="$rate" -v min="$min_rate" 'BEGIN { exit !(r < min) }'; then
  echo "FAIL: 2-thread rate $rate states/s is below $min_rate states/s" >&2
  exit 1
fi
echo "OK: 2-thread rate $rate states/s >= $min_rate states/s"
