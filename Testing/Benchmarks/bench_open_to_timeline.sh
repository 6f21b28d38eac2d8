#!/bin/sh
# a 20M-event trace from File > Open to the first readable Timeline
# in <= 5 s on the 2-core machine. Synthesizes the archive (macroscope-synth
# --events 2e7 --perturbation slow-node, the default platform of 32
# locations), then runs, each in its own pvbatch process under Xvfb
# (bench_open_to_timeline.py), alternately:
#   this build   File > Open, Show as Timeline at its defaults in a 1600 x 900
#                view, Render, fit, PNG (the first readable Timeline)
#   baseline     the same with another build of the plugin (default: the main
#                checkout's, /work/main/build), in the same invocation, for
#                the ratio; skipped when MACROSCOPE_BENCH_BASELINE_PLUGIN is
#                empty or missing
# then, once per plugin, where the time goes: the reader's tables alone and
# the Timeline Layout filter alone (cold, then warm). Fails when the best run
# of this build misses MACROSCOPE_BENCH_MAX_SECONDS.
#
# Usage: Testing/Benchmarks/bench_open_to_timeline.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS            events (default 20000000)
#   MACROSCOPE_BENCH_REPETITIONS       runs per plugin (default 3)
#   MACROSCOPE_BENCH_MAX_SECONDS       target (default 5)
#   MACROSCOPE_BENCH_BASELINE_PLUGIN   baseline plugin (default: main's build)
#   MACROSCOPE_BENCH_PNG_DIR           keep the PNGs there
#   PVBATCH                            pvbatch to run (default: from PATH)
set -eu

build_dir=${1:-build}
events=${MACROSCOPE_BENCH_EVENTS:-20000000}
repetitions=${MACROSCOPE_BENCH_REPETITIONS:-3}
max_seconds=${MACROSCOPE_BENCH_MAX_SECONDS:-5}
baseline=${MACROSCOPE_BENCH_BASELINE_PLUGIN-/work/main/build/lib/paraview-5.11/plugins/Macroscope/Macroscope.so}
pvbatch=${PVBATCH:-pvbatch}

here=$(cd "$(dirname "$0")" && pwd)
driver="$here/bench_open_to_timeline.py"
bench_name=bench_open_to_timeline
. "$here/bench_pvbatch_setup.sh"
png_dir=${MACROSCOPE_BENCH_PNG_DIR:-$work}
mkdir -p "$png_dir"

"$synth" --output "$work/trace" --events "$events" --perturbation slow-node --perturb-target 1 \
  --perturb-window 2 6 --quiet
anchor="$work/trace/traces.otf2"
echo "archive: $(du -sm "$work/trace" | cut -f1) MB, $(sed -n 's/.*"total_events": *\([0-9]*\).*/\1/p' "$work/trace/summary.json") events;" \
  "$(nproc) cores, $(uname -srm), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"
plugins="this"
if [ -n "$baseline" ] && [ -f "$baseline" ]; then
  plugins="this baseline"
  echo "baseline: $baseline"
else
  echo "baseline: none"
fi

field() { sed -n "s/^$1: //p" "$2"; }
# run OUT WHICH MODE
run() {
  so=$plugin
  [ "$2" = baseline ] && so=$baseline
  if ! "$pvbatch" "$driver" "$so" "$anchor" "$png_dir/timeline-$2.png" "$3" > "$1" 2> "$1.err"; then
    cat "$1" "$1.err" >&2
    echo "FAIL: pvbatch $driver ($2) $3 failed" >&2
    exit 1
  fi
}
printf '%-8s %3s | %6s %6s %13s %7s | %9s | %7s\n' plugin run open show layout+render picture "1st.tl" RSS.MB
best_this=
best_baseline=
i=1
while [ "$i" -le "$repetitions" ]; do
  for which in $plugins; do
    out="$work/$which-$i.txt"
    run "$out" "$which" timeline
    awk -F': ' -v which="$which" -v run="$i" '{ v[$1] = $2 } END {
      printf "%-8s %3d | %6.3f %6.3f %13.3f %7.3f | %9.3f | %7.0f\n", which, run, v["open_s"], v["show_s"],
        v["layout_render_s"], v["picture_s"], v["first_timeline_s"], v["peak_rss_mb"] }' "$out"
    total=$(field first_timeline_s "$out")
    eval "best=\$best_$which"
    if [ -z "$best" ] || awk -v t="$total" -v b="$best" 'BEGIN { exit !(t < b) }'; then
      eval "best_$which=$total"
    fi
  done
  i=$((i + 1))
done
echo "(seconds; open: the reader's proxy; show: Show, which reads the tables; layout+render:"
echo " the first Render, the layout, its polydata and their upload; picture: fit, render, PNG)"

echo "== where the time goes (each plugin once, its own process)"
printf '%-8s | %7s %10s %10s | %8s %8s %8s\n' plugin read "layout.1st" "layout.2nd" marks messages hatching
for which in $plugins; do
  out="$work/$which-parts.txt"
  run "$out" "$which" parts
  awk -F': ' -v which="$which" '{ v[$1] = $2 } END {
    printf "%-8s | %7.3f %10.3f %10.3f | %8d %8d %8d\n", which, v["read_s"], v["layout_cold_s"],
      v["layout_warm_s"], v["marks_cells"], v["messages_cells"], v["hatching_cells"] }' "$out"
done
echo "(read: the reader's tables; layout.1st: the Timeline Layout filter cold (index + layout +"
echo " polydata); layout.2nd: another window, the index kept; cells drawn by the whole trace)"

status=0
if [ -n "$best_baseline" ]; then
  awk -v t="$best_this" -v b="$best_baseline" 'BEGIN {
    printf "best first Timeline: this build %.3f s, baseline %.3f s: %.2f x faster\n", t, b, b / t }'
fi
if awk -v t="$best_this" -v max="$max_seconds" 'BEGIN { exit !(t > max) }'; then
  echo "FAIL: the first Timeline took $best_this s (best of $repetitions), more than $max_seconds s" >&2
  status=1
else
  echo "OK: first readable Timeline of the 20M-event trace in $best_this s (best of $repetitions) <= $max_seconds s"
fi
exit $status
