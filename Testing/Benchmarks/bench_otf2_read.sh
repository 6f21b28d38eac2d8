#!/usr/bin/env bash
# Benchmark of the OTF2 decoder (Readers/OTF2) against bare OTF2 reading loops.
#
#   Testing/Benchmarks/bench_otf2_read.sh [BUILD_DIR]
#
# Synthesizes a ~10M-event archive (MACROSCOPE_BENCH_EVENTS overrides) into a
# temporary directory, then reads it, each in its own process and best of
# MACROSCOPE_BENCH_REPETITIONS (default 3) runs:
#   global  OTF2's global event reader, callbacks that do nothing
#   local   one OTF2 event reader per location, callbacks that do nothing
#   decode  macroscope::otf2::readTrace to tables (per-location readers)
# Prints events/s of each, the decoder's ratio to the faster bare loop, and
# the peak RSS of the decoder against the size of the tables it produced.
# Exits 1 if the ratio is below 0.7.
set -euo pipefail

build_dir="${1:-build}"
events="${MACROSCOPE_BENCH_EVENTS:-1e7}"
repetitions="${MACROSCOPE_BENCH_REPETITIONS:-3}"
synth="${build_dir}/bin/macroscope-synth"
bench="${build_dir}/bin/macroscope-otf2-bench"
for tool in "${synth}" "${bench}"; do
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

declare -A rate seconds rss
for mode in global local decode; do
  line="$("${bench}" "${mode}" "${anchor}" "${repetitions}")"
  rate[${mode}]="$(field events_per_second "${line}")"
  seconds[${mode}]="$(field seconds "${line}")"
  rss[${mode}]="$(field peak_rss_kb "${line}")"
  read_events="$(field events "${line}")"
  [[ "${mode}" == decode ]] && table_bytes="$(field table_bytes "${line}")"
  printf '%-7s %12s events in %8.3f s  %12s events/s  peak RSS %8s kB\n' \
    "${mode}" "${read_events}" "${seconds[${mode}]}" "${rate[${mode}]}" "${rss[${mode}]}"
done

awk -v d="${rate[decode]}" -v g="${rate[global]}" -v l="${rate[local]}" \
    -v rss="${rss[decode]}" -v base="${rss[local]}" -v tables="${table_bytes}" '
BEGIN {
  best = (g > l) ? g : l
  printf "decode / global loop  %.3f\n", d / g
  printf "decode / local loop   %.3f\n", d / l
  printf "decode / faster loop  %.3f  (required >= 0.70)\n", d / best
  printf "tables %.1f MB; decoder peak RSS %.1f MB = %.2f x tables (%.2f x above the bare loop)\n",
    tables / 1e6, rss * 1024 / 1e6, rss * 1024 / tables, (rss - base) * 1024 / tables
  exit (d / best < 0.7) ? 1 : 0
}'
