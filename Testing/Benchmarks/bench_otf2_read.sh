#!/usr/bin/env bash
# Benchmark of the OTF2 decoder (Readers/OTF2) and of the VTK reader against
# bare OTF2 reading loops.
#
#   Testing/Benchmarks/bench_otf2_read.sh [BUILD_DIR]
#
# Synthesizes a ~10M-event archive (MACROSCOPE_BENCH_EVENTS overrides) into a
# temporary directory, then reads it, each in its own process and best of
# MACROSCOPE_BENCH_REPETITIONS (default 3) runs:
#   global  OTF2's global event reader, callbacks that do nothing
#   local   one OTF2 event reader per location, callbacks that do nothing
#   decode  macroscope::otf2::ReadTrace to tables (per-location readers)
#   reader  vtkMacroscopeOTF2Reader to vtkTables (decode, then the hand-over)
# Prints events/s of each, the ratios of decode and reader to the faster
# bare loop, and the peak RSS of each against the size of the tables it
# produced. Exits 1 if a ratio is below 0.7 or a peak RSS above 1.5 times
# the tables.
set -euo pipefail

build_dir="${1:-build}"
events="${MACROSCOPE_BENCH_EVENTS:-1e7}"
repetitions="${MACROSCOPE_BENCH_REPETITIONS:-3}"
synth="${build_dir}/bin/macroscope-synth"
bench="${build_dir}/bin/macroscope-otf2-bench"
bench_vtk="${build_dir}/bin/macroscope-otf2-bench-vtk"
for tool in "${synth}" "${bench}" "${bench_vtk}"; do
  if [[ ! -x "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done

workdir="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-otf2.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT

"${synth}" --output "${workdir}" --events "${events}" --quiet
anchor="${workdir}/traces.otf2"
echo "archive: $(du -sh "${workdir}" | cut -f1) on disk, $(nproc) cores, $(uname -srm)"

# field NAME LINE: the value of NAME=... in a result line.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }

declare -A rate seconds rss tables
for mode in global local decode reader; do
  if [[ "${mode}" == reader ]]; then
    line="$("${bench_vtk}" "${anchor}" "${repetitions}")"
  else
    line="$("${bench}" "${mode}" "${anchor}" "${repetitions}")"
  fi
  rate[${mode}]="$(field events_per_second "${line}")"
  seconds[${mode}]="$(field seconds "${line}")"
  rss[${mode}]="$(field peak_rss_kb "${line}")"
  tables[${mode}]="$(field table_bytes "${line}")"
  read_events="$(field events "${line}")"
  printf '%-7s %12s events in %8.3f s  %12s events/s  peak RSS %8s kB\n' \
    "${mode}" "${read_events}" "${seconds[${mode}]}" "${rate[${mode}]}" "${rss[${mode}]}"
done

awk -v g="${rate[global]}" -v l="${rate[local]}" \
    -v d="${rate[decode]}" -v drss="${rss[decode]}" -v dtables="${tables[decode]}" \
    -v r="${rate[reader]}" -v rrss="${rss[reader]}" -v rtables="${tables[reader]}" '
BEGIN {
  best = (g > l) ? g : l
  printf "decode / global loop  %.3f\n", d / g
  printf "decode / local loop   %.3f\n", d / l
  printf "decode / faster loop  %.3f  (required >= 0.70)\n", d / best
  printf "reader / faster loop  %.3f  (required >= 0.70)\n", r / best
  printf "decode: tables %.1f MB, peak RSS %.1f MB = %.2f x tables (required <= 1.5)\n",
    dtables / 1e6, drss * 1024 / 1e6, drss * 1024 / dtables
  printf "reader: tables %.1f MB, peak RSS %.1f MB = %.2f x tables (required <= 1.5)\n",
    rtables / 1e6, rrss * 1024 / 1e6, rrss * 1024 / rtables
  ok = d / best >= 0.7 && r / best >= 0.7 && drss * 1024 <= 1.5 * dtables && rrss * 1024 <= 1.5 * rtables
  exit ok ? 0 : 1
}'
