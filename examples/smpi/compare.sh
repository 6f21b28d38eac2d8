#!/usr/bin/env bash
# Runs the run-comparison application (pairs.c) twice with 16 ranks, two per
# host (hosts.txt): on the normal two-cluster platform.xml and on
# platform-perturbed.xml, the same platform where host cl0-2 (ranks 4 and 5)
# computes 4 times slower from 0.4 s to 0.6 s. Leaves OUTDIR/normal.paje and
# OUTDIR/perturbed.paje (regroup their ranks with hierarchy.json, next to
# this script); docs/smpi-traces.md, "Comparing a normal and a perturbed run".
#
#   examples/smpi/compare.sh OUTDIR [DURATION]
#
# DURATION (simulated seconds, default 1) must exceed 0.6 for the run to
# cover the perturbation. Needs SimGrid's smpicc and smpirun (Debian package
# libsimgrid-dev, installed by scripts/deps.sh).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OUTDIR [DURATION]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="$1"
duration="${2:-1}"
for tool in smpicc smpirun; do
  if ! command -v "${tool}" > /dev/null; then
    echo "$0: ${tool} not found: SimGrid is not installed (Debian package libsimgrid-dev, see scripts/deps.sh)" >&2
    exit 1
  fi
done
mkdir -p "${outdir}"
outdir="$(cd "${outdir}" && pwd)"
# SMPI writes its temporary files in the working directory of smpirun.
cd "${outdir}"
smpicc -O1 "${here}/pairs.c" -o "${outdir}/smpi-pairs"
for run in normal perturbed; do
  platform="${here}/platform.xml"
  [[ "${run}" == perturbed ]] && platform="${here}/platform-perturbed.xml"
  rm -f "${outdir}/${run}.paje"
  # simulate-computation:no: only smpi_execute_flops costs simulated time, not
  # the host's real time between MPI calls, so that both runs are
  # deterministic and the ranks the slowdown cannot reach behave identically.
  # tracing/smpi/computing writes that time as "computing" states.
  smpirun -np 16 -platform "${platform}" -hostfile "${here}/hosts.txt" \
    -trace -trace-file "${outdir}/${run}.paje" --cfg=tracing/precision:9 \
    --cfg=tracing/smpi/computing:yes --cfg=smpi/simulate-computation:no \
    --log=root.thres:warning "${outdir}/smpi-pairs" "${duration}" > "${outdir}/${run}.log"
  if [[ ! -s "${outdir}/${run}.paje" ]]; then
    echo "$0: smpirun wrote no trace ${outdir}/${run}.paje" >&2
    exit 1
  fi
  echo "${run}: ${outdir}/${run}.paje ($(wc -l < "${outdir}/${run}.paje") lines; platform ${platform})"
done
echo "hierarchy: ${here}/hierarchy.json"
