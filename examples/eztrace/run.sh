#!/usr/bin/env bash
# Compiles one of the MPI programs of this directory and traces it with
# EZTrace into OTF2: OUTDIR/<program>_trace/eztrace_log.otf2.
#
#   examples/eztrace/run.sh OUTDIR [PROGRAM [RANKS [ARGS...]]]
#
# PROGRAM is ring (default), halo, split or hybrid (MPI + OpenMP, built with
# eztrace_cc and traced with the openmp module too). ARGS go to the program:
# iterations, slowed rank, compute per iteration in ms, slow factor.
# Needs mpicc, mpirun and EZTrace (Debian packages libopenmpi-dev, eztrace
# and libeztrace-dev, installed by scripts/deps.sh).
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 OUTDIR [PROGRAM [RANKS [ARGS...]]]" >&2
  exit 2
fi
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
outdir="$1"
program="${2:-ring}"
ranks="${3:-4}"
shift $(( $# < 3 ? $# : 3 ))
for tool in mpicc mpirun eztrace; do
  if ! command -v "${tool}" > /dev/null; then
    echo "$0: ${tool} not found (Debian packages libopenmpi-dev, eztrace, libeztrace-dev; see scripts/deps.sh)" >&2
    exit 1
  fi
done
if [[ ! -f "${here}/${program}.c" ]]; then
  echo "$0: no program ${here}/${program}.c" >&2
  exit 2
fi
mkdir -p "${outdir}"
outdir="$(cd "${outdir}" && pwd)"
flags=(--oversubscribe)
if [[ $(id -u) -eq 0 ]]; then
  flags+=(--allow-run-as-root)  # Open MPI refuses root without it
fi
modules=openmpi
cd "${outdir}"
if [[ "${program}" == hybrid ]]; then
  # opari2, through eztrace_cc, rewrites the OpenMP constructs into calls
  # that EZTrace's openmp module records.
  eztrace_cc mpicc -O1 -fopenmp "${here}/${program}.c" -o "${outdir}/${program}"
  modules="openmpi openmp"
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
  flags+=(-x OMP_NUM_THREADS)
else
  mpicc -O1 "${here}/${program}.c" -o "${outdir}/${program}"
fi
rm -rf "${outdir}/${program}_trace"
mpirun "${flags[@]}" -np "${ranks}" eztrace -t "${modules}" "./${program}" "$@" \
  > "${outdir}/${program}.log" 2>&1 || { cat "${outdir}/${program}.log" >&2; exit 1; }
archive="${outdir}/${program}_trace/eztrace_log.otf2"
if [[ ! -f "${archive}" ]]; then
  echo "$0: EZTrace wrote no archive ${archive}" >&2
  cat "${outdir}/${program}.log" >&2
  exit 1
fi
echo "archive: ${archive}"
