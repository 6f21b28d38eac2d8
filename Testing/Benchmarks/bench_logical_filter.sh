#!/bin/sh
# Benchmark of the Logical Time filter in pvpython: synthesizes a 3D-stencil
# archive (64 ranks, 1 thread, BENCH_EVENTS records, default 4M), reads it
# (the baseline, timed in the same run) and builds its logical time, then
# changes the metric (which reuses the logical trace and reclusters).
# Usage: Testing/Benchmarks/bench_logical_filter.sh [BUILD_DIR]
set -eu
build_dir=${1:-build}
events=${BENCH_EVENTS:-4000000}
bench_name=bench_logical_filter
. "$(dirname "$0")/bench_plugin_setup.sh"
"$synth" --output "$work/trace" --events "$events" --pattern stencil3d --clusters 2 \
  --nodes-per-cluster 4 --ranks-per-node 8 --threads-per-rank 1 --quiet
echo "command: pvpython Testing/Benchmarks/bench_logical_filter.py (BENCH_EVENTS=$events)"
pvpython "$(dirname "$0")/bench_logical_filter.py" "$plugin" "$work/trace/traces.otf2"
