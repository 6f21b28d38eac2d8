#!/usr/bin/env bash
# Benchmark of the README's snippet (docs/performance.md): on the
# demo's sample trace (examples/demo.py: 64 locations, 100 iterations of a 3D
# stencil, a slow node), in one pvbatch process:
#   1. reader -> Time Slicing (Slices=200) -> Spatiotemporal Aggregation
#      (Parameter=0.6) -> the Partition fetched, from nothing (target <= 2 s);
#   2. Parameter moved to 0.5 and the Partition fetched again (<= 0.1 s);
#   3. the baseline: the same aggregation with its sweep over every p forced
#      (its Quality Curves fetched), i.e. what every execution did before the
#      asked partition came first; the ratio baseline / step 1's aggregation.
#
#   Testing/Benchmarks/bench_readme_snippet.sh [BUILD_DIR]
#   MACROSCOPE_BENCH_SLICES    slices of the model (default 200)
#   MACROSCOPE_BENCH_BASELINE  1 runs the baseline (default), 0 skips it
#                              (it takes minutes on 200 slices)
#   MACROSCOPE_BENCH_MAX_SNIPPET / MACROSCOPE_BENCH_MAX_MOVE  exit 1 above
#                              these seconds (default 2 and 0.1)
set -euo pipefail

build_dir="$(cd "${1:-build}" && pwd)"
slices="${MACROSCOPE_BENCH_SLICES:-200}"
baseline="${MACROSCOPE_BENCH_BASELINE:-1}"
max_snippet="${MACROSCOPE_BENCH_MAX_SNIPPET:-2}"
max_move="${MACROSCOPE_BENCH_MAX_MOVE:-0.1}"
here="$(cd "$(dirname "$0")" && pwd)"
synth="${build_dir}/bin/macroscope-synth"
plugin="${build_dir}/lib/paraview-5.11/plugins/Macroscope/Macroscope.so"
for tool in "${synth}" "${plugin}"; do
  if [[ ! -e "${tool}" ]]; then
    echo "error: ${tool} not found; build the project first (BUILD_DIR=${build_dir})" >&2
    exit 2
  fi
done
command -v pvbatch >/dev/null || { echo "error: pvbatch is not installed" >&2; exit 2; }

workdir="$(mktemp -d "${TMPDIR:-/tmp}/macroscope-bench-readme.XXXXXX")"
trap 'rm -rf "${workdir}"' EXIT
"${synth}" --output "${workdir}/trace" --clusters 2 --nodes-per-cluster 4 --ranks-per-node 4 \
  --threads-per-rank 2 --iterations 100 --pattern stencil3d --imbalance 0.2 --compute-time 0.001 \
  --perturbation slow-node --perturb-target 5 --perturb-window 0.02 0.06 --perturb-factor 3 \
  --seed 42 --quiet
echo "demo sample: $(du -sh "${workdir}/trace" | cut -f1) on disk, $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -srm)"

line="$(pvbatch "${here}/bench_readme_snippet.py" "${plugin}" "${workdir}/trace/traces.otf2" \
  "${slices}" "${baseline}" 2>&1 | grep '^slices=')"
echo "${line}"
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" ${line}"; }
echo "snippet (reader to fetched Partition): $(field snippet) s (target <= ${max_snippet} s);" \
  "its aggregation $(field aggregation) s; Parameter change: $(field move) s (target <= ${max_move} s)"
if [[ "${baseline}" == "1" ]]; then
  echo "baseline (the sweep forced): $(field baseline) s for $(field partitions) partitions," \
    "$(field dps) DP runs: $(field ratio) x the asked partition"
fi

status=0
if [[ "$(field sweeps)" != "0" || "$(field move_sweeps)" != "0" || "$(field move_qualities)" != "1" ]]; then
  echo "FAIL: the Partition alone swept, or moving p recomputed the qualities" >&2
  status=1
fi
if ! awk -v s="$(field snippet)" -v m="${max_snippet}" 'BEGIN { exit !(s <= m) }'; then
  echo "FAIL: the snippet took more than ${max_snippet} s" >&2
  status=1
fi
if ! awk -v s="$(field move)" -v m="${max_move}" 'BEGIN { exit !(s <= m) }'; then
  echo "FAIL: moving p took more than ${max_move} s" >&2
  status=1
fi
exit "${status}"
