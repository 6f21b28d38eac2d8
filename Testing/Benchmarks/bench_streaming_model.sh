#!/usr/bin/env bash
# Benchmark of the streaming microscopic model (docs/streaming-model.md):
# synthesizes a large archive, then builds its model (exclusive state
# duration, 1000 slices) two ways, each in its own process:
#   tables  ReadTrace to tables, then SliceTrace on them (the baseline)
#   stream  StreamTrace + StreamingTimeSlicer, no tables
# Prints the wall time and the peak RSS (/usr/bin/time -f %M) of each, their
# ratios, and checks that both built the same model (sums within 1e-9).
#
#   Testing/Benchmarks/bench_streaming_model.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS  events to synthesize (default 2e7)
#   MACROSCOPE_BENCH_SLICES  slices (default 1000)
#   MACROSCOPE_BENCH_MODES   modes to run (default "tables stream"; "stream"
#                            alone for traces whose tables do not fit)
#   MACROSCOPE_BENCH_MAX_SECONDS / _MAX_RSS_KB  limits for the stream mode
#                            (default: none); exit 1 when exceeded
set -euo pipefail

build_dir="${1:-build}"
events="${MACROSCOPE_BENCH_EVENTS:-2e7}"
slices="${MACROSCOPE_BENCH_SLICES:-1000}"
modes="${MACROSCOPE_BENCH_MODES:-tables stream}"
synth="${build_dir}/bin/macroscope-synth"
bench="${build_dir}/bin/macroscope-stream-model-bench"
for tool in "${synth}" "${bench}" /usr/bin/time; do
  if [[ ! -x "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done

workdir="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-stream.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT

start=$(date +%s.%N)
"${synth}" --output "${workdir}" --events "${events}" --quiet
echo "synthesized ${events} events in $(awk -v s="${start}" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s:" \
  "$(du -sh "${workdir}" | cut -f1) on disk, $(nproc) cores, $(uname -srm)"
anchor="${workdir}/traces.otf2"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

declare -A wall rss sum
for mode in ${modes}; do
  line="$(/usr/bin/time -f "time_rss_kb=%M time_wall=%e" "${bench}" "${mode}" "${anchor}" "${slices}" 2>"${workdir}/time.${mode}")"
  timing="$(tail -n 1 "${workdir}/time.${mode}")"
  wall[${mode}]="$(field time_wall "${timing}")"
  rss[${mode}]="$(field time_rss_kb "${timing}")"
  sum[${mode}]="$(field model_sum "${line}")"
  printf '%-6s %12s events  %8s s wall  %10s events/s  peak RSS %9s kB  model sum %s\n' \
    "${mode}" "$(field events "${line}")" "${wall[${mode}]}" "$(field events_per_second "${line}")" \
    "${rss[${mode}]}" "${sum[${mode}]}"
done

status=0
if [[ -n "${sum[tables]:-}" && -n "${sum[stream]:-}" ]]; then
  awk -v t="${wall[tables]}" -v s="${wall[stream]}" -v rt="${rss[tables]}" -v rs="${rss[stream]}" \
    'BEGIN { printf "stream / tables: time %.2f, peak RSS %.3f\n", s / t, rs / rt }'
  if ! awk -v a="${sum[tables]}" -v b="${sum[stream]}" \
    'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; exit !(d <= 1e-9 * m) }'; then
    echo "FAIL: the streamed model differs from the table model (sums ${sum[stream]} vs ${sum[tables]})" >&2
    status=1
  fi
fi
if [[ -n "${MACROSCOPE_BENCH_MAX_SECONDS:-}" ]] &&
  awk -v s="${wall[stream]}" -v m="${MACROSCOPE_BENCH_MAX_SECONDS}" 'BEGIN { exit !(s > m) }'; then
  echo "FAIL: streaming took ${wall[stream]} s > ${MACROSCOPE_BENCH_MAX_SECONDS} s" >&2
  status=1
fi
if [[ -n "${MACROSCOPE_BENCH_MAX_RSS_KB:-}" && "${rss[stream]}" -gt "${MACROSCOPE_BENCH_MAX_RSS_KB}" ]]; then
  echo "FAIL: streaming peak RSS ${rss[stream]} kB > ${MACROSCOPE_BENCH_MAX_RSS_KB} kB" >&2
  status=1
fi
exit "${status}"
