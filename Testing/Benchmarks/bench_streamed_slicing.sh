#!/usr/bin/env bash
# Benchmark of Streamed Time Slicing in ParaView (docs/streaming-model.md,
# docs/mpi.md): synthesizes a large OTF2 archive, then
#   1. builds its model (exclusive state duration, 1000 slices, no cache) in
#      pvbatch on 1 rank and on 2 MPI ranks, one reading thread each
#      (MACROSCOPE_READ_THREADS=1), alternately, best of
#      MACROSCOPE_BENCH_REPEAT runs each, and prints the speed-up; then
#      1 rank reading on every core (the default), for comparison;
#   2. reads it once into a model cache, then times rebuilding a model from
#      the cache in a fresh pvbatch (the cache's load, rebin and outputs).
# Times are the source's UpdatePipeline inside pvbatch (the plugin's load and
# MPI's start-up are excluded) plus the whole process's wall and peak RSS.
#
#   Testing/Benchmarks/bench_streamed_slicing.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_EVENTS       events to synthesize (default 5e7)
#   MACROSCOPE_BENCH_REPEAT       runs per rank count (default 3)
#   MACROSCOPE_BENCH_MIN_SPEEDUP  exit 1 when 1-rank / 2-rank time is lower (default 1.6)
#   MACROSCOPE_BENCH_MAX_CACHE_SECONDS  exit 1 when the cached rebuild is slower (default 1)
set -euo pipefail

build_dir="$(cd "${1:-build}" && pwd)"
events="${MACROSCOPE_BENCH_EVENTS:-5e7}"
repeat="${MACROSCOPE_BENCH_REPEAT:-3}"
min_speedup="${MACROSCOPE_BENCH_MIN_SPEEDUP:-1.6}"
max_cache="${MACROSCOPE_BENCH_MAX_CACHE_SECONDS:-1}"
here="$(cd "$(dirname "$0")" && pwd)"
driver="${here}/bench_streamed_slicing.py"
synth="${build_dir}/bin/macroscope-synth"
plugin="${build_dir}/lib/paraview-5.11/plugins/Macroscope/Macroscope.so"
for tool in "${synth}" "${plugin}" /usr/bin/time; do
  if [[ ! -e "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done
for tool in pvbatch mpiexec; do
  command -v "${tool}" >/dev/null || { echo "error: ${tool} is not installed" >&2; exit 2; }
done

workdir="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-streamed.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT
"${synth}" --output "${workdir}/trace" --events "${events}" --quiet
anchor="${workdir}/trace/traces.otf2"
echo "synthesized ${events} events: $(du -sh "${workdir}/trace" | cut -f1) on disk," \
  "$(nproc) cores, $(uname -srm)"

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $2"; }
# run NAME COMMAND...: prints the driver's line with the process's wall and RSS.
run() {
  local name="$1"
  shift
  local line
  line="$(/usr/bin/time -f "process_wall=%e process_rss_kb=%M" "$@" 2>"${workdir}/time.${name}" | grep '^ranks=')"
  echo "${line} $(tail -n 1 "${workdir}/time.${name}")"
}
mpi=(mpiexec --allow-run-as-root --oversubscribe -np 2 pvbatch --symmetric)

best1=""
best2=""
for ((i = 1; i <= repeat; i++)); do
  # One reading thread per rank, so that the ranks are what scales; the
  # threads of one rank are timed on their own below.
  one="$(MACROSCOPE_READ_THREADS=1 run one pvbatch "${driver}" "${plugin}" "${anchor}" 1000 -)"
  two="$(MACROSCOPE_READ_THREADS=1 run two "${mpi[@]}" "${driver}" "${plugin}" "${anchor}" 1000 -)"
  threads="$(run threads pvbatch "${driver}" "${plugin}" "${anchor}" 1000 -)"
  echo "run ${i}: 1 rank, 1 thread:   ${one}"
  echo "run ${i}: 2 ranks, 1 thread:  ${two}"
  echo "run ${i}: 1 rank, $(nproc) threads:  ${threads}"
  s1="$(field seconds "${one}")"
  s2="$(field seconds "${two}")"
  best1="$(awk -v a="${best1}" -v b="${s1}" 'BEGIN { print (a == "" || b < a) ? b : a }')"
  best2="$(awk -v a="${best2}" -v b="${s2}" 'BEGIN { print (a == "" || b < a) ? b : a }')"
done
speedup="$(awk -v a="${best1}" -v b="${best2}" 'BEGIN { printf "%.2f", a / b }')"
echo "best of ${repeat}: 1 rank ${best1} s, 2 ranks ${best2} s: speed-up ${speedup} (target >= ${min_speedup})"

# The cache: one read writes it, a fresh process rebuilds from it.
"${synth}" --output "${workdir}/wide" --clusters 5 --nodes-per-cluster 10 --ranks-per-node 10 \
  --threads-per-rank 2 --iterations 5 --quiet
wide="${workdir}/wide/traces.otf2"
written="$(run cache-write pvbatch "${driver}" "${plugin}" "${wide}" 1000 "${workdir}/cache")"
echo "cache written: ${written}"
echo "cache file: $(du -h "${workdir}"/cache/*.mcache | cut -f1)"
loaded=""
for ((i = 1; i <= repeat; i++)); do
  line="$(run cache-load pvbatch "${driver}" "${plugin}" "${wide}" 1000 "${workdir}/cache")"
  echo "cache loaded:  ${line}"
  if [[ -z "${loaded}" ]] || awk -v a="$(field seconds "${line}")" -v b="$(field seconds "${loaded}")" 'BEGIN { exit !(a < b) }'; then
    loaded="${line}"
  fi
done
echo "best cached rebuild: $(field seconds "${loaded}") s for a model of $(field model "${loaded}") (target <= ${max_cache} s)"

status=0
if [[ "$(field origin "${loaded}")" != "cache" ]]; then
  echo "FAIL: the second run did not use the cache" >&2
  status=1
fi
if ! awk -v s="${speedup}" -v m="${min_speedup}" 'BEGIN { exit !(s >= m) }'; then
  echo "FAIL: 2 ranks are only ${speedup} times faster than 1 (target ${min_speedup})" >&2
  status=1
fi
if ! awk -v s="$(field seconds "${loaded}")" -v m="${max_cache}" 'BEGIN { exit !(s <= m) }'; then
  echo "FAIL: rebuilding from the cache took more than ${max_cache} s" >&2
  status=1
fi
exit "${status}"
