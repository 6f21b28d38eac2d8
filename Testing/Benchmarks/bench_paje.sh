#!/usr/bin/env bash
# Benchmark of the Pajé parser (Readers/Paje) against pajeng's pj_dump.
#
#   Testing/Benchmarks/bench_paje.sh [BUILD_DIR]
#
# Writes three Pajé traces of N, 2N and 4N iterations of the SMPI stencil
# (Testing/SMPI/stencil.c on the flat two-cluster platform with platform
# tracing: states, links and host/link variables; N =
# MACROSCOPE_BENCH_PAJE_ITERATIONS, default 7500, about 2 M event lines),
# then on each, best wall time of MACROSCOPE_BENCH_REPETITIONS (default 3)
# processes of
#   ours     macroscope-paje-dump --parse-only: parse into the tables
#   pj_dump  pj_dump -q: reads and simulates the whole trace, dumps nothing
#   dump     pj_dump -l 9 > /dev/null: the same, printing every entity
#   reader   the Pajé reader proxy in pvpython (bench_paje_reader.py): parse
#            and fill the six outputs, timed inside pvpython (its start-up and
#            plugin loading excluded); its peak RSS includes ParaView's own
# and the peak RSS of each (/usr/bin/time %M). Prints ours / pj_dump -q
# speed ratios, and our peak RSS against the tables and the file (mapped,
# its pages count in the RSS). Exits 1 if ours is slower than pj_dump -q on
# any size, or if the RSS does not grow linearly: the increment from 2N to
# 4N must be 1.6 to 2.4 times the increment from N to 2N.
set -euo pipefail

build_dir="${1:-build}"
iterations="${MACROSCOPE_BENCH_PAJE_ITERATIONS:-7500}"
repetitions="${MACROSCOPE_BENCH_REPETITIONS:-3}"
source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ours="${build_dir}/bin/macroscope-paje-dump"
if [[ ! -x "${ours}" ]]; then
  echo "bench_paje: ${ours} not found; build the target macroscope-paje-dump first" >&2
  exit 2
fi
for tool in smpicc smpirun pj_dump /usr/bin/time; do
  if ! command -v "${tool}" > /dev/null; then
    echo "bench_paje: ${tool} not found (scripts/deps.sh installs libsimgrid-dev, pajeng, time)" >&2
    exit 2
  fi
done
ours="$(cd "$(dirname "${ours}")" && pwd)/$(basename "${ours}")"

work="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-paje.XXXXXX")"
trap 'rm -rf "${work}"' EXIT
smpi="${source_dir}/Testing/SMPI"
(cd "${work}" && smpicc -O1 "${smpi}/stencil.c" -o stencil)

# measure LABEL COMMAND...: best wall seconds and the peak RSS (kB) of that run.
measure() {
  local label="$1" best="" best_rss=""
  shift
  for ((r = 0; r < repetitions; ++r)); do
    /usr/bin/time -f "%e %M" -o "${work}/time" "$@" > /dev/null
    read -r seconds kb < "${work}/time"
    if [[ -z "${best}" ]] || awk -v a="${seconds}" -v b="${best}" 'BEGIN { exit !(a < b) }'; then
      best="${seconds}"
      best_rss="${kb}"
    fi
  done
  echo "${best} ${best_rss}"
}

pajeng_version="$(dpkg-query -W -f='${Version}' pajeng 2> /dev/null || echo unknown)"
echo "$(nproc) cores, $(uname -srm), pajeng ${pajeng_version}"
printf '%-6s %9s %8s | %8s %9s | %8s %9s | %8s %9s | %6s %6s\n' size lines "file MB" \
  "ours s" "ours kB" "pj -q s" "pj -q kB" "dump s" "dump kB" "ratio" "rss/io"
declare -a rss_list reader_rss_list
plugin=""
for candidate in "${build_dir}"/lib/paraview-*/plugins/Macroscope/Macroscope.so; do
  if [[ -f "${candidate}" ]]; then plugin="$(cd "$(dirname "${candidate}")" && pwd)/Macroscope.so"; fi
done
if [[ -z "${plugin}" ]]; then
  echo "bench_paje: the Macroscope plugin is not built in ${build_dir}" >&2
  exit 2
fi
status=0
for factor in 1 2 4; do
  trace="${work}/stencil-${factor}.paje"
  (cd "${work}" && smpirun -np 8 -platform "${smpi}/two-clusters-flat.xml" \
    -hostfile "${smpi}/hosts.txt" -trace -trace-file "${trace}" \
    --cfg=tracing/platform:yes --cfg=tracing/uncategorized:yes --cfg=tracing/precision:9 \
    --log=root.thres:warning ./stencil 4 $((iterations * factor)) 1024 > /dev/null)
  lines="$(wc -l < "${trace}")"
  file_bytes="$(stat -c %s "${trace}")"
  summary="$("${ours}" --parse-only "${trace}")"
  table_bytes="$(sed -n 's/.* table_bytes=\([0-9]*\).*/\1/p' <<< "${summary}")"
  read -r ours_s ours_kb <<< "$(measure ours "${ours}" --parse-only "${trace}")"
  read -r pj_s pj_kb <<< "$(measure pj_dump pj_dump -q "${trace}")"
  read -r dump_s dump_kb <<< "$(measure dump pj_dump -l 9 "${trace}")"
  reader_s=""
  for ((r = 0; r < repetitions; ++r)); do
    /usr/bin/time -f "%M" -o "${work}/reader-time" pvpython \
      "${source_dir}/Testing/Benchmarks/bench_paje_reader.py" "${plugin}" "${trace}" \
      > "${work}/reader-out" 2> /dev/null
    seconds="$(sed -n 's/^reader_seconds=\([0-9.]*\).*/\1/p' "${work}/reader-out")"
    if [[ -z "${reader_s}" ]] || awk -v a="${seconds}" -v b="${reader_s}" 'BEGIN { exit !(a < b) }'; then
      reader_s="${seconds}"
      reader_kb="$(cat "${work}/reader-time")"
    fi
  done
  reader_rss_list+=("${reader_kb}")
  rss_list+=("${ours_kb}")
  awk -v f="${factor}" -v lines="${lines}" -v fb="${file_bytes}" -v tb="${table_bytes}" \
      -v os="${ours_s}" -v ok="${ours_kb}" -v ps="${pj_s}" -v pk="${pj_kb}" \
      -v ds="${dump_s}" -v dk="${dump_kb}" 'BEGIN {
    printf "%-6s %9d %8.1f | %8.2f %9d | %8.2f %9d | %8.2f %9d | %6.1f %6.2f\n",
      f "N", lines, fb / 1e6, os, ok, ps, pk, ds, dk, ps / os, ok * 1024 / (tb + fb)
  }'
  echo "       ${summary}"
  awk -v rs="${reader_s}" -v rk="${reader_kb}" -v ps="${pj_s}" 'BEGIN {
    printf "       reader (pvpython): %.2f s, peak RSS %d kB; pj_dump -q / reader = %.1f\n", rs, rk, ps / rs
  }'
  if awk -v o="${ours_s}" -v r="${reader_s}" -v p="${pj_s}" 'BEGIN { exit !(o > p || r > p) }'; then
    echo "FAIL: the parser or the reader is slower than pj_dump -q at ${factor}N" >&2
    status=1
  fi
done
awk -v a="${rss_list[0]}" -v b="${rss_list[1]}" -v c="${rss_list[2]}" 'BEGIN {
  g = (c - b) / (b - a)
  printf "ratio = pj_dump -q time / ours; rss/io = our peak RSS / (tables + file)\n"
  printf "our peak RSS increments: N->2N %d kB, 2N->4N %d kB, ratio %.2f (linear: 2, required 1.6-2.4)\n",
    b - a, c - b, g
  exit (g >= 1.6 && g <= 2.4) ? 0 : 1
}' || status=1
awk -v a="${reader_rss_list[0]}" -v b="${reader_rss_list[1]}" -v c="${reader_rss_list[2]}" 'BEGIN {
  g = (c - b) / (b - a)
  printf "reader peak RSS increments: N->2N %d kB, 2N->4N %d kB, ratio %.2f (linear: 2, required 1.6-2.4)\n",
    b - a, c - b, g
  exit (g >= 1.6 && g <= 2.4) ? 0 : 1
}' || status=1
exit "${status}"
