#!/usr/bin/env bash
# Benchmark of the streamed microscopic model of Pajé traces
# (docs/streaming-model.md, "Pajé traces"): synthesizes a run written as a
# Pajé trace, then builds its model (exclusive state duration, 1000 slices)
# two ways, each in its own process:
#   tables  ReadTrace to tables, then SliceTrace on them (the baseline)
#   stream  a definitions-only scan, then StreamModel(): no tables
# Prints the wall time and the peak RSS (/usr/bin/time -f %M) of each, their
# ratios, and checks that both built the same model (sums within 1e-9).
#
#   Testing/Benchmarks/bench_paje_streaming_model.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS  events to synthesize (default 2e6: ~5M lines)
#   MACROSCOPE_BENCH_SLICES  slices (default 1000)
#   MACROSCOPE_BENCH_MODES   modes to run (default "tables stream")
set -euo pipefail

build_dir="${1:-build}"
events="${MACROSCOPE_BENCH_EVENTS:-2e6}"
slices="${MACROSCOPE_BENCH_SLICES:-1000}"
modes="${MACROSCOPE_BENCH_MODES:-tables stream}"
synth="${build_dir}/bin/macroscope-synth"
bench="${build_dir}/bin/macroscope-paje-stream-bench"
for tool in "${synth}" "${bench}" /usr/bin/time; do
  if [[ ! -x "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done

workdir="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-paje-stream.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT

trace="${workdir}/run.paje"
start=$(date +%s.%N)
"${synth}" --output "${workdir}/run" --events "${events}" --paje "${trace}" --quiet
echo "synthesized ${events} events in $(awk -v s="${start}" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s:" \
  "$(wc -l <"${trace}") Pajé lines, $(du -h "${trace}" | cut -f1), $(nproc) cores, $(uname -srm)"
rm -rf "${workdir}/run" # the OTF2 archive is not needed

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

declare -A wall rss sum
for mode in ${modes}; do
  line="$(/usr/bin/time -f "time_rss_kb=%M time_wall=%e" "${bench}" "${mode}" "${trace}" "${slices}" 2>"${workdir}/time.${mode}")"
  timing="$(tail -n 1 "${workdir}/time.${mode}")"
  wall[${mode}]="$(field time_wall "${timing}")"
  rss[${mode}]="$(field time_rss_kb "${timing}")"
  sum[${mode}]="$(field model_sum "${line}")"
  printf '%-6s %10s lines  %7s s wall  %9s lines/s  peak RSS %9s kB  model sum %s\n' \
    "${mode}" "$(field lines "${line}")" "${wall[${mode}]}" "$(field lines_per_second "${line}")" \
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
exit "${status}"
