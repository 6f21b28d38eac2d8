#!/usr/bin/env bash
# Compiles the demo's SMPI application and runs it on the two-cluster
# platform, leaving its Pajé trace in OUTDIR/smpi.paje (with the regrouping
# of its ranks by cluster and host in hierarchy.json, next to this script).
#
#   examples/smpi/run.sh OUTDIR [ITERATIONS]
#
# Needs SimGrid's smpicc and smpirun (Debian package libsimgrid-dev,
# installed by scripts/deps.sh).
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 OUTDIR [ITERATIONS]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="$1"
iterations="${2:-60}"
for tool in smpicc smpirun; do
  if ! command -v "${tool}" > /dev/null; then
    echo "$0: ${tool} not found: SimGrid is not installed (Debian package libsimgrid-dev, see scripts/deps.sh)" >&2
    exit 1
  fi
done
mkdir -p "${outdir}"
outdir="$(cd "${outdir}" && pwd)"
rm -f "${outdir}/smpi.paje"
# tracing/smpi/computing writes the time between MPI calls as "computing"
# states, so that the overview shows the slow host's work, not only waits.
# SMPI writes its temporary files in the working directory of smpirun.
cd "${outdir}"
smpicc -O1 "${here}/overview.c" -o "${outdir}/smpi-overview"
smpirun -np 16 -platform "${here}/platform.xml" -hostfile "${here}/hosts.txt" \
  -trace -trace-file "${outdir}/smpi.paje" --cfg=tracing/precision:9 \
  --cfg=tracing/smpi/computing:yes \
  --log=root.thres:warning "${outdir}/smpi-overview" "${iterations}"
if [[ ! -s "${outdir}/smpi.paje" ]]; then
  echo "$0: smpirun wrote no trace ${outdir}/smpi.paje" >&2
  exit 1
fi
echo "trace: ${outdir}/smpi.paje ($(wc -l < "${outdir}/smpi.paje") lines); hierarchy: ${here}/hierarchy.json"
