#!/bin/sh
# a 20M-event trace from File > Open to its first overview in
# <= 3 s. Synthesizes the archive (macroscope-synth --events 2e7, the default
# platform of 32 locations), then, each run its own pvbatch process under
# Xvfb (bench_open_to_overview.py), times File > Open (the reader's
# information pass) and the first overview:
#   stream  the Overview toolbar action's path, macroscope.overview():
#           Streamed Time Slicing at its defaults (a first open: the model
#           cache is removed before each run) -> the aggregation -> shown in
#           a view fitted to it -> a PNG
#   tables  the baseline in the same invocation: Apply on the reader (its
#           tables), Time Slicing at its defaults -> the same aggregation
#           and picture
# for the spatiotemporal and the temporal overview, alternating the paths.
# Prints every stage and the best of each; fails when the best stream run of
# a kind misses MACROSCOPE_BENCH_MAX_SECONDS.
#
# Usage: Testing/Benchmarks/bench_open_to_overview.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS       events (default 20000000)
#   MACROSCOPE_BENCH_REPETITIONS  runs per path and kind (default 3)
#   MACROSCOPE_BENCH_KINDS        default "spatiotemporal temporal"
#   MACROSCOPE_BENCH_MAX_SECONDS  target (default 3)
#   PVBATCH                       pvbatch to run (default: from PATH)
set -eu

build_dir=${1:-build}
events=${MACROSCOPE_BENCH_EVENTS:-20000000}
repetitions=${MACROSCOPE_BENCH_REPETITIONS:-3}
kinds=${MACROSCOPE_BENCH_KINDS:-spatiotemporal temporal}
max_seconds=${MACROSCOPE_BENCH_MAX_SECONDS:-3}
pvbatch=${PVBATCH:-pvbatch}

here=$(cd "$(dirname "$0")" && pwd)
driver="$here/bench_open_to_overview.py"
bench_name=bench_open_to_overview
. "$here/bench_pvbatch_setup.sh"

"$synth" --output "$work/trace" --events "$events" --quiet
anchor="$work/trace/traces.otf2"
echo "archive: $(du -sm "$work/trace" | cut -f1) MB, $(sed -n 's/.*"total_events": *\([0-9]*\).*/\1/p' "$work/trace/summary.json") events;" \
  "$(nproc) cores, $(uname -srm), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"

field() { sed -n "s/^$1: //p" "$2"; }
printf '%-7s %-15s %3s | %6s %6s %9s %6s %7s | %8s | %8s %6s %7s\n' path kind run open model aggregate render picture "1st.ovw" model parts RSS.MB
status=0
for kind in $kinds; do
  best_stream=
  best_tables=
  i=1
  while [ "$i" -le "$repetitions" ]; do
    for path in stream tables; do
      rm -f "$work"/trace/*.mcache
      out="$work/$path-$kind-$i.txt"
      if ! "$pvbatch" "$driver" "$plugin" "$anchor" "$path" "$kind" "$work/$path-$kind.png" > "$out" 2> "$out.err"; then
        cat "$out" "$out.err" >&2
        echo "FAIL: pvbatch $driver $path $kind failed" >&2
        exit 1
      fi
      awk -F': ' -v path="$path" -v kind="$kind" -v run="$i" '{ v[$1] = $2 } END {
        printf "%-7s %-15s %3d | %6.3f %6.3f %9.3f %6.3f %7.3f | %8.3f | %8s %6d %7.0f\n", path, kind, run,
          v["open_s"], v["model_s"], v["aggregate_s"], v["render_s"], v["picture_s"], v["first_overview_s"],
          v["model"], v["parts"], v["peak_rss_mb"] }' "$out"
      total=$(field first_overview_s "$out")
      if [ "$path" = stream ]; then
        if [ -z "$best_stream" ] || awk -v t="$total" -v b="$best_stream" 'BEGIN { exit !(t < b) }'; then best_stream=$total; fi
      else
        if [ -z "$best_tables" ] || awk -v t="$total" -v b="$best_tables" 'BEGIN { exit !(t < b) }'; then best_tables=$total; fi
      fi
    done
    i=$((i + 1))
  done
  awk -v s="$best_stream" -v t="$best_tables" -v k="$kind" -v m="$max_seconds" 'BEGIN {
    printf "%s: best stream %.3f s, best tables %.3f s (tables / stream %.2f); target <= %s s\n", k, s, t, t / s, m }'
  if awk -v s="$best_stream" -v m="$max_seconds" 'BEGIN { exit !(s > m) }'; then
    echo "FAIL: the $kind overview took $best_stream s from File > Open (target $max_seconds s)" >&2
    status=1
  fi
done
echo "pictures: $work/stream-*.png (removed at exit)"
exit $status
