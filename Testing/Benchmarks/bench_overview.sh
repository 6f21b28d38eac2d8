#!/bin/sh
# Benchmark of an overview's pipeline end to end, in pvbatch under Xvfb: a
# 10M-event archive (macroscope-synth --events 10000000, the default platform
# of 32 locations, stencil3d, a slow node in [2, 6] s so that the aggregation
# has something to find) read by the OTF2 Trace Reader, sliced by Time
# Slicing (100 slices, state duration), aggregated by Temporal Aggregation,
# the Partition table fetched and shown as a Temporal Overview (rendered and
# saved as a PNG), each stage timed in one pvbatch process
# (bench_overview.py). Then changing p: the first update (qualities,
# optimisation, quality curves) against 20 changes of p, each re-rendered,
# and the Partition table's QualityComputations, which must stay 1.
#
# Each run is its own process (MACROSCOPE_BENCH_REPETITIONS, default 3). Fails
# if the best end-to-end time is above 20 s or if changing p recomputed the
# qualities.
#
# Usage: Testing/Benchmarks/bench_overview.sh [BUILD_DIR]
#   BUILD_DIR                    build tree holding bin/macroscope-synth and
#                                lib/paraview-*/plugins/Macroscope (default: ./build)
#   MACROSCOPE_BENCH_EVENTS      events of the archive (default: 10000000)
#   MACROSCOPE_BENCH_SLICES      Time Slicing's slices (default: 100)
#   MACROSCOPE_BENCH_REPETITIONS runs (default: 3)
#   PVBATCH                      pvbatch to run (default: pvbatch from PATH)
set -eu

build_dir=${1:-build}
events=${MACROSCOPE_BENCH_EVENTS:-10000000}
slices=${MACROSCOPE_BENCH_SLICES:-100}
repetitions=${MACROSCOPE_BENCH_REPETITIONS:-3}
pvbatch=${PVBATCH:-pvbatch}
changes=20
max_seconds=20

here=$(cd "$(dirname "$0")" && pwd)
driver="$here/bench_overview.py"
bench_name=bench_overview
. "$here/bench_pvbatch_setup.sh"
# VTK's own parallel loops on threads too (Debian's VTK defaults to
# Sequential); the driver also sets it through vtkSMPTools.
VTK_SMP_BACKEND_IN_USE=STDThread
export VTK_SMP_BACKEND_IN_USE

set -- "$synth" --output "$work/trace" --events "$events" --pattern stencil3d \
  --perturbation slow-node --perturb-target 1 --perturb-window 2 6 --quiet
echo "command: $*"
"$@"
anchor="$work/trace/traces.otf2"
echo "archive: $(du -sm "$work/trace" | cut -f1) MB, $(sed -n 's/.*"total_events": *\([0-9]*\).*/\1/p' "$work/trace/summary.json") events;" \
  "$(nproc) cores, $(uname -srm), $("$pvbatch" --version 2>&1 | tail -n 1), load $(cut -d' ' -f1-3 /proc/loadavg)"

status=0
# field NAME FILE: the value of a "name: value" line of the driver's output
field() { sed -n "s/^$1: //p" "$2"; }

echo "== one pvbatch process per run: read -> Time Slicing ($slices) -> Temporal Aggregation -> Partition fetched -> Temporal Overview rendered"
printf '%3s | %7s %7s %9s %7s %7s %7s | %7s | %8s %8s %8s %8s %7s %8s | %3s %6s %5s\n' \
  run read slice aggregate fetch render total process "1st.upd" "p.upd" "p.fetch" "p.render" ratio "agg/upd" qc "RSS.MB" load
best=
i=1
while [ "$i" -le "$repetitions" ]; do
  out="$work/run$i.txt"
  begin=$(date +%s.%N)
  if ! "$pvbatch" "$driver" "$plugin" "$anchor" "$slices" "$changes" > "$out" 2> "$out.err"; then
    cat "$out" "$out.err" >&2
    echo "FAIL: pvbatch $driver failed" >&2
    exit 1
  fi
  process=$(awk -v b="$begin" -v e="$(date +%s.%N)" 'BEGIN { printf "%.3f", e - b }')
  awk -F': ' -v run="$i" -v process="$process" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
    { v[$1] = $2 } END {
    printf "%3d | %7.3f %7.3f %9.4f %7.4f %7.3f %7.3f | %7.3f | %8.4f %8.4f %8.4f %8.4f %6.1fx %7.1fx | %3d %6.0f %5s\n",
      run, v["read_s"], v["slice_s"], v["aggregate_s"], v["fetch_s"], v["render_s"], v["total_s"], process,
      v["first_update_s"], v["p_change_update_mean_s"], v["p_change_fetch_mean_s"], v["p_change_render_mean_s"],
      v["first_update_s"] / v["p_change_mean_s"], v["aggregate_s"] / v["p_change_update_mean_s"],
      v["quality_computations"], v["peak_rss_mb"], load
  }' "$out"
  total=$(field total_s "$out")
  if [ -z "$best" ] || awk -v t="$total" -v b="$best" 'BEGIN { exit !(t < b) }'; then
    best=$total
    best_out=$out
  fi
  if [ "$(field quality_computations "$out")" != 1 ]; then
    echo "FAIL: run $i: QualityComputations is $(field quality_computations "$out") after $changes changes of p, not 1" >&2
    status=1
  fi
  i=$((i + 1))
done
echo "(seconds; total = read + slice + aggregate + fetch + render, trace to overview picture; process: the"
echo " pvbatch process from start to exit (ParaView's start-up, the plugin, the $changes changes of p);"
echo " 1st.upd: aggregate + fetch (qualities, optimisation, quality curves, table);"
echo " p.upd, p.fetch, p.render: mean of $changes changes of p, filter update, table fetch, re-render;"
echo " ratio: 1st.upd / (p.upd + p.fetch); agg/upd: the filter alone, aggregate / p.upd;"
echo " qc: QualityComputations after them; RSS.MB: peak; load: 1-minute load average after the run)"
awk -F': ' '{ v[$1] = $2 } END {
  printf "best run: %d states on %d locations over %.3f s; %d distinct partitions, %d parts at p = 0.5;",
    v["states"], v["locations"], v["trace_seconds"], v["partitions"], v["parts"]
  printf " SMP backend %s (%d threads); plugin loaded in %.3f s\n", v["smp_backend"], v["smp_threads"],
    v["load_plugin_s"]
}' "$best_out"

if awk -v t="$best" -v max="$max_seconds" 'BEGIN { exit !(t > max) }'; then
  echo "FAIL: trace to overview picture took $best s (best of $repetitions), more than $max_seconds s" >&2
  status=1
else
  printf 'OK: trace to overview picture in %.3f s (best of %s) <= %s s\n' "$best" "$repetitions" "$max_seconds"
fi
exit $status
