#!/bin/sh
# Benchmark of the Timeline (Gantt) representation (Representations/
# vtkMacroscopeTimelineRepresentation, laid out by vtkMacroscopeTimelineLayout)
# in pvbatch under Xvfb, on a synthesized trace of at least 1M states
# (2 clusters x 4 nodes x 8 ranks x 2 threads = 128 locations, stencil3d,
# 900 iterations: 1,048,640 states, 259,200 messages).
#
#   time    each run in its own process (MACROSCOPE_BENCH_REPETITIONS, default
#           3): reading the archive (the baseline), then the whole trace from
#           Show to the PNG written (geometry + render, cold: the layout's
#           per-trace index is built there too) and its steps, a window of 1%
#           of the trace and the whole trace again (zoom in and out, the index
#           kept), and the Timeline Layout filter alone (geometry without
#           rendering).
#   memory  each case cold in its own process: a 1 us window in the middle
#           of the trace ("empty": the baseline, holding the per-trace index
#           and the view's fixed cost), 1%, 10% and the whole trace. The peak
#           RSS added from Show to the PNG, and what was drawn (cells, points
#           of the layout's polydata).
#
# Fails if the best whole-trace Show-to-PNG time is above 5 s, if the trace
# holds fewer than 1M states, if a PNG is blank (< 20% non-white pixels or
# < 8 colours), if memory is not linear in what is drawn (the bytes per drawn
# point above the empty window, of the whole trace and of the 10% window,
# differ by more than 2x; they would differ about 4.5x if memory followed
# the states in the window: 1.41 states per drawn point for the whole trace,
# 0.31 for the 10% window) or if the empty window costs more than 1.5 times
# the trace's tables (it holds the layout's index, built once per trace, and
# the view's fixed cost).
#
# Usage: Testing/Benchmarks/bench_timeline.sh [BUILD_DIR]
#   BUILD_DIR                    build tree holding bin/macroscope-synth and
#                                lib/paraview-*/plugins/Macroscope (default: ./build)
#   MACROSCOPE_BENCH_ITERATIONS  solver iterations of the trace (default: 900)
#   MACROSCOPE_BENCH_REPETITIONS time runs (default: 3)
#   MACROSCOPE_BENCH_PNG_DIR     keep the PNGs there (default: a temporary directory)
#   PVBATCH                      pvbatch to run (default: pvbatch from PATH)
set -eu

build_dir=${1:-build}
iterations=${MACROSCOPE_BENCH_ITERATIONS:-900}
repetitions=${MACROSCOPE_BENCH_REPETITIONS:-3}
pvbatch=${PVBATCH:-pvbatch}
max_seconds=5
min_states=1000000
max_point_ratio=2
max_empty_tables=1.5
min_nonwhite=0.2
min_colours=8

here=$(cd "$(dirname "$0")" && pwd)
driver="$here/bench_timeline.py"
bench_name=bench_timeline
. "$here/bench_pvbatch_setup.sh"
png_dir=${MACROSCOPE_BENCH_PNG_DIR:-$work/png}
mkdir -p "$png_dir"

set -- "$synth" --output "$work/trace" --clusters 2 --nodes-per-cluster 4 --ranks-per-node 8 \
  --threads-per-rank 2 --iterations "$iterations" --pattern stencil3d --quiet
echo "command: $*"
"$@"
anchor="$work/trace/traces.otf2"
echo "archive: $(du -sm "$work/trace" | cut -f1) MB, $(nproc) cores, $(uname -srm), $("$pvbatch" --version 2>&1 | tail -n 1)"

status=0
# fail MESSAGE
fail() {
  echo "FAIL: $1" >&2
  status=1
}
# field NAME FILE: the value of a "name: value" line of the driver's output
field() { sed -n "s/^$1: //p" "$2"; }
# run OUT MODE [ARGS...]: the driver in pvbatch, its figures in OUT
run() {
  out=$1
  shift
  if ! "$pvbatch" "$driver" "$plugin" "$anchor" "$png_dir" "$@" > "$out" 2> "$out.err"; then
    cat "$out" "$out.err" >&2
    echo "FAIL: pvbatch $driver ... $* failed" >&2
    exit 1
  fi
}
# check_png PREFIX FILE WHAT
check_png() {
  nonwhite=$(field "$1_png_nonwhite" "$2")
  colours=$(field "$1_png_colours" "$2")
  if awk -v n="$nonwhite" -v c="$colours" -v mn="$min_nonwhite" -v mc="$min_colours" \
    'BEGIN { exit !(n < mn || c < mc) }'; then
    fail "$3 PNG is blank: $nonwhite of the pixels non-white, $colours colours"
  fi
}

echo "== time: whole trace from Show to the PNG (cold), 1% window, whole again"
best=
i=1
while [ "$i" -le "$repetitions" ]; do
  out="$work/time$i.txt"
  run "$out" time
  check_png whole "$out" "whole-trace"
  check_png window "$out" "1%-window"
  if [ "$i" -eq 1 ]; then
    awk -F': ' '
      $1 == "states" { s = $2 } $1 == "messages" { m = $2 } $1 == "locations" { l = $2 }
      $1 == "trace_seconds" { t = $2 } $1 == "tables_mb" { mb = $2 }
      $1 == "window_states" { w = $2 } $1 == "window" { win = $2 }
      END {
        printf "trace: %d states, %d messages, %d locations, %.3f s; tables %.1f MB\n", s, m, l, t, mb
        printf "1%% window: [%s] s, %d states (%.2f%%)\n", win, w, 100 * w / s
      }' "$out"
    printf '%3s %7s | %6s %6s %6s %6s %7s %7s | %8s %8s %7s | %7s %7s %8s\n' \
      run read show update render png "total" "/read" "1%" "whole" "ratio" \
      "lay.1st" "lay.all" "lay.1%"
  fi
  awk -F': ' -v run="$i" '{ v[$1] = $2 } END {
    printf "%3d %7.3f | %6.3f %6.3f %6.3f %6.3f %7.3f %6.1fx | %8.3f %8.3f %7.3f | %7.3f %7.3f %8.4f\n",
      run, v["read_s"], v["whole_cold_show_s"], v["whole_cold_update_s"], v["whole_cold_render_s"],
      v["whole_cold_png_s"], v["whole_cold_total_s"], v["whole_cold_total_s"] / v["read_s"],
      v["window_warm_s"], v["whole_warm_s"], v["window_warm_s"] / v["whole_warm_s"],
      v["layout_whole_cold_s"], v["layout_whole_warm_s"], v["layout_window_warm_s"]
  }' "$out"
  total=$(field whole_cold_total_s "$out")
  if [ -z "$best" ] || awk -v t="$total" -v b="$best" 'BEGIN { exit !(t < b) }'; then
    best=$total
    best_out=$out
  fi
  i=$((i + 1))
done
echo "(seconds; total = show + update (layout, delivery, upload) + render (rasterization)"
echo " + png (render again, read back, write); 1% and whole: zoom in and out, index kept;"
echo " lay.*: the Timeline Layout filter alone, cold (index built), whole trace, 1% window)"
awk -F': ' '{ v[$1] = $2 } END {
  printf "best run: re-render of the whole trace %.3f s, %.3f s without the messages\n",
    v["whole_rerender_s"], v["whole_rerender_no_messages_s"]
  printf "drawn, whole trace: %d cells (%d marks, %d messages, %d hatching lines), %d points, %.1f MB\n",
    v["whole_cells"], v["whole_marks_cells"], v["whole_messages_cells"], v["whole_hatching_cells"],
    v["whole_points"], v["whole_geometry_mb"]
  printf "drawn, 1%% window:  %d cells (%d marks, %d messages, %d hatching lines), %d points, %.1f MB\n",
    v["window_cells"], v["window_marks_cells"], v["window_messages_cells"], v["window_hatching_cells"],
    v["window_points"], v["window_geometry_mb"]
  printf "layout 1%% window / whole: %.3f of the time for %.4f of the states\n",
    v["layout_window_warm_s"] / v["layout_whole_warm_s"], v["window_states"] / v["states"]
}' "$best_out"

states=$(field states "$best_out")
if [ "$states" -lt "$min_states" ]; then
  fail "the trace holds $states states, fewer than $min_states"
fi
if awk -v t="$best" -v max="$max_seconds" 'BEGIN { exit !(t > max) }'; then
  fail "whole trace from Show to the PNG took $best s (best of $repetitions), more than $max_seconds s"
else
  printf 'OK: whole trace (%s states) from Show to the PNG in %.3f s (best of %s) <= %s s\n' \
    "$states" "$best" "$repetitions" "$max_seconds"
fi

echo "== memory: peak RSS added from Show to the PNG, each case cold in its own process"
printf '%-6s %9s %8s %8s %9s | %9s %9s | %8s %8s | %7s\n' case states cells points "geom.MB" \
  "update.MB" "peak.MB" "upd.B/pt" "B/point" "seconds"
for case in empty:0.000001 1%:0.01 10%:0.1 whole:1; do
  name=${case%%:*}
  out="$work/memory-$name.txt"
  run "$out" memory "${case#*:}"
  check_png memory "$out" "$name"
  if [ "$name" = empty ]; then
    empty_update=$(field growth_update_mb "$out")
    empty_growth=$(field growth_mb "$out")
    empty_points=$(field drawn_points "$out")
    tables=$(field tables_mb "$out")
  fi
  awk -F': ' -v name="$name" -v u0="$empty_update" -v g0="$empty_growth" -v p0="$empty_points" '
  { v[$1] = $2 } END {
    p = v["drawn_points"] - p0
    upd = (name == "empty") ? "-" : sprintf("%.0f", (v["growth_update_mb"] - u0) * 1e6 / p)
    per = (name == "empty") ? "-" : sprintf("%.0f", (v["growth_mb"] - g0) * 1e6 / p)
    printf "%-6s %9d %8d %8d %9.1f | %9.1f %9.1f | %8s %8s | %7.3f\n", name, v["window_states"],
      v["drawn_cells"], v["drawn_points"], v["drawn_geometry_mb"], v["growth_update_mb"],
      v["growth_mb"], upd, per, v["total_s"]
  }' "$out"
done
echo "(update.MB: after the first render (layout, upload); peak.MB: to the PNG, rasterization"
echo " included; B/point: peak.MB above the empty window per drawn point above it, upd.B/pt"
echo " the same of update.MB;"
echo " seconds: Show to the PNG, cold, with TimeWindow set before the first render)"

awk -F': ' '{ v[$1] = $2 } END {
  printf "whole-trace process: peak RSS %.1f MB, %.1f MB before Show (ParaView, the view, the %.1f MB of tables)\n",
    v["peak_rss_mb"], v["rss_before_show_mb"], v["tables_mb"] }' "$work/memory-whole.txt"

per_point() {
  awk -F': ' -v g0="$empty_growth" -v p0="$empty_points" '{ v[$1] = $2 } END {
    printf "%.1f", (v["growth_mb"] - g0) * 1e6 / (v["drawn_points"] - p0) }' "$1"
}
whole_per=$(per_point "$work/memory-whole.txt")
tenth_per=$(per_point "$work/memory-10%.txt")
if awk -v a="$whole_per" -v b="$tenth_per" -v max="$max_point_ratio" \
  'BEGIN { r = a > b ? a / b : b / a; printf "bytes per drawn point: whole %.0f, 10%% %.0f, ratio %.2f (required <= %s)\n", a, b, r, max; exit !(r > max) }'; then
  fail "memory is not linear in what is drawn"
fi
if awk -v e="$empty_growth" -v t="$tables" -v max="$max_empty_tables" -v s="$states" \
  'BEGIN { printf "empty window (per-trace index and view): %.1f MB = %.2f x the %.1f MB of tables, %.0f bytes per state (required <= %s x)\n", e, e / t, t, e * 1e6 / s, max; exit !(e > max * t) }'; then
  fail "the empty window costs more than $max_empty_tables times the trace's tables"
fi
if [ "$status" -eq 0 ]; then
  echo "OK: memory linear in what is drawn"
fi
exit $status
