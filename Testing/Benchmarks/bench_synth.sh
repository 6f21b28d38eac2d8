#!/bin/sh
# Benchmark of macroscope-synth. Two cases, each writing an archive of at
# least 10^7 events into a temporary directory under /usr/bin/time -v and
# reporting wall time, peak RSS, events, events/s and archive size:
#
#   default    the default platform (16 ranks x 2 threads = 32 locations),
#              written in one pass;
#   many-locs  4 clusters x 8 nodes x 16 ranks x 2 threads = 1024 locations
#              with the default --memory-budget (256 MB), written in several
#              passes over the simulation.
#
# Fails if a case takes more than 30 s, peaks above 500 MB or writes fewer
# events than asked for.
#
# Usage: Testing/Benchmarks/bench_synth.sh [BUILD_DIR]
#   BUILD_DIR     build tree holding bin/macroscope-synth (default: ./build)
#   BENCH_EVENTS  minimum number of events per case (default: 10000000)
set -eu

build_dir=${1:-build}
events=${BENCH_EVENTS:-10000000}
max_seconds=30
max_megabytes=500

synth="$build_dir/bin/macroscope-synth"
if [ ! -x "$synth" ]; then
  echo "bench_synth: $synth not found; build the project first" >&2
  exit 2
fi
if [ ! -x /usr/bin/time ]; then
  echo "bench_synth: /usr/bin/time is required (Debian: apt-get install time)" >&2
  exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/bench_synth.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

status=0

# run_case NAME [extra macroscope-synth options...]
run_case() {
  name=$1
  shift
  run="$work/$name"
  set -- "$synth" --output "$run" --events "$events" --pattern stencil3d \
    --perturbation slow-node --perturb-target 1 --perturb-window 2 6 --quiet "$@"
  echo "== $name"
  echo "command: $*"
  if ! /usr/bin/time -v "$@" 2> "$work/time.txt"; then
    cat "$work/time.txt" >&2
    echo "FAIL ($name): macroscope-synth failed" >&2
    status=1
    return
  fi

  # "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:01.23"
  wall=$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$work/time.txt" |
    awk -F: '{ s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; printf "%.2f", s }')
  rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
  rss_mb=$(awk -v kb="$rss_kb" 'BEGIN { printf "%.1f", kb / 1024 }')
  total=$(sed -n 's/^  "total_events": \([0-9]*\),*$/\1/p' "$run/summary.json")
  locations=$(sed -n 's/^  "locations": \([0-9]*\),*$/\1/p' "$run/summary.json")
  size=$(du -sm "$run" | cut -f1)
  rate=$(awk -v n="$total" -v s="$wall" 'BEGIN { printf "%.0f", (s > 0 ? n / s : n / 0.01) }')

  echo "locations:     $locations"
  echo "wall seconds:  $wall"
  echo "peak RSS (MB): $rss_mb"
  echo "events:        $total"
  echo "events/s:      $rate"
  echo "archive (MB):  $size"

  if awk -v s="$wall" -v max="$max_seconds" 'BEGIN { exit !(s > max) }'; then
    echo "FAIL ($name): took more than $max_seconds s" >&2
    status=1
  fi
  if awk -v m="$rss_mb" -v max="$max_megabytes" 'BEGIN { exit !(m > max) }'; then
    echo "FAIL ($name): peak RSS above $max_megabytes MB" >&2
    status=1
  fi
  if [ "$total" -lt "$events" ]; then
    echo "FAIL ($name): only $total events were written" >&2
    status=1
  fi
  rm -rf "$run"
}

run_case default
run_case many-locs --clusters 4 --nodes-per-cluster 8 --ranks-per-node 16 --threads-per-rank 2
exit $status
