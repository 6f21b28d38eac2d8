#!/bin/sh
# Benchmark of the Topology-Time Scene filter in pvpython: synthesizes a
# 3D-stencil archive (BENCH_RANKS ranks of 1 thread, default 256, and
# BENCH_EVENTS records, default 2M) with its network.dot, reads it (the
# baseline, timed in the same run) and builds the 3D scene of the whole
# trace on each base, then of a 10% window (details on demand).
# Usage: Testing/Benchmarks/bench_topology.sh [BUILD_DIR]
set -eu
build_dir=${1:-build}
events=${BENCH_EVENTS:-2000000}
ranks=${BENCH_RANKS:-256}
bench_name=bench_topology
. "$(dirname "$0")/bench_plugin_setup.sh"
"$synth" --output "$work/trace" --events "$events" --pattern stencil3d --clusters 4 \
  --nodes-per-cluster $((ranks / 32)) --ranks-per-node 8 --threads-per-rank 1 --dot --quiet
echo "command: pvpython Testing/Benchmarks/bench_topology.py (BENCH_EVENTS=$events BENCH_RANKS=$ranks)"
pvpython "$(dirname "$0")/bench_topology.py" "$plugin" "$work/trace/traces.otf2" "$work/trace/network.dot"
