#!/bin/sh
# The progress inventory (docs/progress.md): synthesizes a BENCH_EVENTS-record
# OTF2 archive (default 4M, 64 locations) and its Pajé twin (a quarter of the
# records), runs every reader, filter and layout of the plugin once on it,
# and prints how long each took and how many distinct progress values it
# reported, with the largest step between them and the longest silence.
# The aggregation filters run on a 10,000-slice model, the spatiotemporal one
# on a 60-slice model (as in Python.Progress).
# Usage: Testing/Benchmarks/bench_progress.sh [BUILD_DIR]
set -eu
build_dir=${1:-build}
events=${BENCH_EVENTS:-4000000}
bench_name=bench_progress
. "$(dirname "$0")/bench_plugin_setup.sh"
"$synth" --output "$work/trace" --events "$events" --nodes-per-cluster 4 --quiet
"$synth" --output "$work/paje" --events $((events / 4)) --paje "$work/trace.paje" --quiet
echo "command: pvpython Testing/Benchmarks/bench_progress.py (BENCH_EVENTS=$events)"
pvpython "$(dirname "$0")/bench_progress.py" "$plugin" "$work/trace/traces.otf2" "$work/trace.paje" "$work"
