#!/usr/bin/env bash
# The largest target: 10^9 events streamed into a model in <= 60 s at
# <= 1 GB peak memory (docs/performance.md, "10^9 events").
#
# 1. Probes the archive's size with a 1/100 synthesis and extrapolates; stops
#    when the archive would not fit in 80 % of the free space of the work
#    directory's disk.
# 2. Synthesizes MACROSCOPE_BENCH_EVENTS events (default 1e9) with
#    macroscope-synth (default platform: 32 locations), timed.
# 3. Reads it, each run its own process under /usr/bin/time -v (wall, peak RSS):
#      bare     OTF2's per-location event readers with empty callbacks
#               (macroscope-otf2-bench local): the floor any decoder pays
#      1 thread Streamed Time Slicing in pvbatch (exclusive state duration,
#               1000 slices, no cache), MACROSCOPE_READ_THREADS=1: the
#               baseline, one location at a time as before
#      threads  the same with the default, every core
#      main     (when MACROSCOPE_BENCH_BASELINE_PLUGIN names another build's
#               Macroscope.so, e.g. main's) the same source in that build
#    and prints events/s, peak RSS, the speed-up over the 1-thread run and
#    the decoding cost per event above the bare loop.
# 4. Removes the archive (also on failure or interruption).
#
#   Testing/Benchmarks/bench_billion_stream.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS     events (default 1e9)
#   MACROSCOPE_BENCH_WORKDIR    where the archive goes (default ${TMPDIR:-/tmp})
#   MACROSCOPE_BENCH_MAX_SECONDS / MACROSCOPE_BENCH_MAX_RSS_KB  the targets for
#                               the "threads" run (default 60 and 1048576);
#                               exit 1 when missed
#   MACROSCOPE_BENCH_BASELINE_PLUGIN  another Macroscope.so to time too
#   MACROSCOPE_BENCH_SKIP_BARE=1      skip the bare loop
set -euo pipefail

build_dir="$(cd "${1:-build}" && pwd)"
events="${MACROSCOPE_BENCH_EVENTS:-1e9}"
max_seconds="${MACROSCOPE_BENCH_MAX_SECONDS:-60}"
max_rss_kb="${MACROSCOPE_BENCH_MAX_RSS_KB:-1048576}"
baseline="${MACROSCOPE_BENCH_BASELINE_PLUGIN:-}"
here="$(cd "$(dirname "$0")" && pwd)"
driver="${here}/bench_streamed_slicing.py"
synth="${build_dir}/bin/macroscope-synth"
bare="${build_dir}/bin/macroscope-otf2-bench"
plugin="${build_dir}/lib/paraview-5.11/plugins/Macroscope/Macroscope.so"
for tool in "${synth}" "${bare}" "${plugin}" /usr/bin/time; do
  if [[ ! -e "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done
command -v pvbatch >/dev/null || { echo "error: pvbatch is not installed" >&2; exit 2; }

workdir="$(mktemp -d "${MACROSCOPE_BENCH_WORKDIR:-${TMPDIR:-/tmp}}/macroscope-bench-billion.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT
trap 'exit 1' INT TERM
echo "$(nproc) cores, $(uname -srm), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%F %H:%M') UTC"

# 1. The size, from a synthesis 100 times smaller.
probe_events="$(awk -v e="${events}" 'BEGIN { printf "%.0f", e / 100 }')"
"${synth}" --output "${workdir}/probe" --events "${probe_events}" --quiet
probe_kb="$(du -sk "${workdir}/probe" | cut -f1)"
rm -rf "${workdir}/probe"
expected_kb=$((probe_kb * 100))
free_kb="$(df -Pk "${workdir}" | awk 'NR == 2 { print $4 }')"
echo "probe: ${probe_events} events take ${probe_kb} kB: ${events} events need about" \
  "$((expected_kb / 1024 / 1024)) GB; $((free_kb / 1024 / 1024)) GB free"
if ((expected_kb > free_kb * 8 / 10)); then
  echo "FAIL: not enough disk space for the archive in ${workdir}" >&2
  exit 2
fi

# 2. The archive.
start=$(date +%s.%N)
"${synth}" --output "${workdir}/trace" --events "${events}" --quiet
anchor="${workdir}/trace/traces.otf2"
total="$(sed -n 's/.*"total_events": *\([0-9]*\).*/\1/p' "${workdir}/trace/summary.json")"
echo "synthesized ${total} events in $(awk -v s="${start}" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s:" \
  "$(du -sh "${workdir}/trace" | cut -f1), $(sed -n 's/.*"locations": *\([0-9]*\).*/\1/p' "${workdir}/trace/summary.json") locations"

# 3. The reads. timed NAME COMMAND...: runs it under /usr/bin/time -v and
# sets wall[NAME] (seconds) and rss[NAME] (kB); the command's stdout is in
# ${workdir}/NAME.out.
declare -A wall rss inside cpu
timed() {
  local name="$1"
  shift
  /usr/bin/time -v "$@" >"${workdir}/${name}.out" 2>"${workdir}/${name}.time"
  wall[${name}]="$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
    for (i = 1; i <= n; ++i) s = s * 60 + p[i]; print s }' "${workdir}/${name}.time")"
  rss[${name}]="$(awk -F': ' '/Maximum resident set size/ { print $2 }' "${workdir}/${name}.time")"
  cpu[${name}]="$(awk -F': ' '/User time|System time/ { s += $2 } END { print s }' "${workdir}/${name}.time")"
}
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $(cat "$2")"; }

if [[ "${MACROSCOPE_BENCH_SKIP_BARE:-0}" != 1 ]]; then
  timed bare "${bare}" local "${anchor}" 1
  inside[bare]="$(field seconds "${workdir}/bare.out")"
fi
MACROSCOPE_READ_THREADS=1 timed one pvbatch "${driver}" "${plugin}" "${anchor}" 1000 -
inside[one]="$(field seconds "${workdir}/one.out")"
timed threads pvbatch "${driver}" "${plugin}" "${anchor}" 1000 -
inside[threads]="$(field seconds "${workdir}/threads.out")"
if [[ -n "${baseline}" ]]; then
  timed main pvbatch "${driver}" "${baseline}" "${anchor}" 1000 -
  inside[main]="$(field seconds "${workdir}/main.out")"
fi

printf '%-8s %10s %10s %10s %14s %12s  %s\n' run "read s" "process s" "CPU s" "events/s" "peak RSS MB" what
for name in bare one threads main; do
  [[ -n "${wall[${name}]:-}" ]] || continue
  case "${name}" in
    bare) what="OTF2 per-location readers, empty callbacks" ;;
    one) what="Streamed Time Slicing, 1 reading thread" ;;
    threads) what="Streamed Time Slicing, default threads ($(nproc) cores)" ;;
    main) what="Streamed Time Slicing of ${baseline}" ;;
  esac
  awk -v n="${name}" -v i="${inside[${name}]}" -v w="${wall[${name}]}" -v r="${rss[${name}]}" \
    -v c="${cpu[${name}]}" -v e="${total}" -v what="${what}" \
    'BEGIN { printf "%-8s %10.2f %10.2f %10.2f %14.3g %12.1f  %s\n", n, i, w, c, e / i, r / 1024, what }'
done
awk -v a="${inside[one]}" -v b="${inside[threads]}" 'BEGIN { printf "speed-up of the threads over 1 thread: %.2f\n", a / b }'
echo "CPU time is the process's user + system time (pvbatch's start-up included): the work" \
  "done, whatever the other jobs on the machine took; load now $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ -n "${inside[bare]:-}" ]]; then
  awk -v a="${inside[one]}" -v b="${inside[bare]}" -v e="${total}" 'BEGIN {
    printf "1 thread / bare loop: %.2f; decoding and slicing above OTF2 itself: %.1f ns per event (bare %.1f ns)\n",
      a / b, 1e9 * (a - b) / e, 1e9 * b / e }'
fi
if [[ -n "${inside[main]:-}" ]]; then
  awk -v a="${inside[main]}" -v b="${inside[threads]}" 'BEGIN { printf "speed-up over the baseline plugin: %.2f\n", a / b }'
fi
for name in one threads main; do
  [[ -f "${workdir}/${name}.out" ]] && echo "${name}: $(cat "${workdir}/${name}.out")"
done

status=0
if awk -v s="${inside[threads]}" -v m="${max_seconds}" 'BEGIN { exit !(s > m) }'; then
  echo "FAIL: ${total} events took ${inside[threads]} s to stream into a model (target ${max_seconds} s)" >&2
  status=1
fi
if ((rss[threads] > max_rss_kb)); then
  echo "FAIL: peak RSS ${rss[threads]} kB (target ${max_rss_kb} kB)" >&2
  status=1
fi
exit "${status}"
