#!/bin/sh
# Benchmark of the per-phase clustering (Core/LogicalClustering.cxx):
# one phase of 16 384 members x 40 steps (12 group profiles with noise, 30%
# of the steps without an event, fixed seed), CLARA with k = 20 and the
# default samples (5) and sample size (40 + 2k), then single linkage of the
# 20 clusters; best of 3, beside a baseline timed in the same run (every
# member against the 20 medoids with the reference TimelineDistance). Fails
# if CLARA + single linkage take more than 2 s.
#
# Usage: Testing/Benchmarks/bench_clustering.sh [BUILD_DIR]
#   BUILD_DIR     build tree holding bin/macroscope-clustering-bench (default: ./build)
#   BENCH_MAX_S   allowed clustering time in seconds (default: 2)
set -eu

build_dir=${1:-build}
max_s=${BENCH_MAX_S:-2}

bench="$build_dir/bin/macroscope-clustering-bench"
if [ ! -x "$bench" ]; then
  echo "bench_clustering: $bench not found; build the project first" >&2
  exit 2
fi

set -- "$bench" --members 16384 --steps 40 --clusters 20 --groups 12 --gap 30 --repeat 3 --seed 4
echo "command: $*"
out=$("$@") || { echo "$out"; echo "FAIL: the benchmark driver failed" >&2; exit 1; }
echo "$out"

t=$(echo "$out" | sed -n 's/^time_clustering_s: //p')
if [ -z "$t" ]; then
  echo "FAIL: no clustering time in the output" >&2
  exit 1
fi
if awk -v t="$t" -v max="$max_s" 'BEGIN { exit !(t > max) }'; then
  echo "FAIL: clustering 16 384 members took $t s > $max_s s" >&2
  exit 1
fi
echo "OK: clustering 16 384 members in $t s <= $max_s s"
