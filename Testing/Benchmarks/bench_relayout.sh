#!/bin/sh
# Benchmark of the Macroscope Chart View's re-layout
# (docs/views.md, docs/performance.md): on the 1M-state trace of
# bench_timeline.sh (2 clusters x 4 nodes x 8 ranks x 2 threads, stencil3d,
# 900 iterations: 1,048,640 states), in one pvbatch process under Xvfb,
#   resize  the chart view's ViewSize toggled 1600x1000 <-> 1400x900: the
#           size pushed to the Timeline and its layout made again;
#   zoom    one wheel step in over the middle, then one out
#           (macroscope.navigation.wheel): the TimeWindow changed and the
#           layout re-aggregated;
# each timed from the change to the end of the view's Update (the layout,
# no rasterization; the Render after it is reported apart). The baseline,
# in the same process: the same re-layouts asked the former way, the
# display's explicit ViewSize or TimeWindow set in a plain Render View.
# Prints the ratios chart view / baseline.
#
# Fails if the median re-layout after a resize or a zoom step is above
# 0.1 s or the trace holds fewer than 1M states.
#
# Usage: Testing/Benchmarks/bench_relayout.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_REPETITIONS  re-layouts of each kind (default: 10)
#   PVBATCH                       pvbatch to run (default: pvbatch from PATH)
set -eu

build_dir=${1:-build}
repetitions=${MACROSCOPE_BENCH_REPETITIONS:-10}
pvbatch=${PVBATCH:-pvbatch}
max_seconds=0.1
min_states=1000000

here=$(cd "$(dirname "$0")" && pwd)
bench_name=bench_relayout
. "$here/bench_pvbatch_setup.sh"

set -- "$synth" --output "$work/trace" --clusters 2 --nodes-per-cluster 4 --ranks-per-node 8 \
  --threads-per-rank 2 --iterations 900 --pattern stencil3d --quiet
echo "command: $*"
"$@"
echo "machine: $(nproc) cores, $(uname -srm), $("$pvbatch" --version 2>&1 | tail -n 1)"

out="$work/figures"
if ! "$pvbatch" "$here/bench_relayout.py" "$plugin" "$work/trace/traces.otf2" "$repetitions" \
  > "$out" 2> "$out.err"; then
  cat "$out" "$out.err" >&2
  echo "FAIL: pvbatch bench_relayout.py failed" >&2
  exit 1
fi
grep -E '^[a-z_]+: ' "$out"
field() { sed -n "s/^$1: //p" "$out"; }
status=0
states=$(field states)
if [ "$states" -lt "$min_states" ]; then
  echo "FAIL: $states states, fewer than $min_states" >&2
  status=1
fi
for kind in resize zoom; do
  median=$(field "${kind}_median")
  if awk -v m="$median" -v max="$max_seconds" 'BEGIN { exit !(m > max) }'; then
    echo "FAIL: the median re-layout after a $kind took $median s (limit $max_seconds s)" >&2
    status=1
  fi
done
exit $status
