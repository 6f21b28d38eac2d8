#!/bin/sh
# Benchmark of the nested treemap layout (Core/Treemap.cxx): lays out
# a 3-level tree of 100 000 leaves (10 clusters x 100 nodes x 100 leaves,
# random sizes, fixed seed) squarified with margins and a header, best of 5,
# beside two baselines timed in the same run (slice-and-dice of the same
# tree, std::sort of the 100 000 sizes), and fails if squarified takes more
# than 1 s.
#
# Then, when pvbatch and xvfb-run are there, the same 100 000 leaves through
# ParaView (bench_treemap_display.py): Treemap Layout's polydata and the
# Treemap display's first render and re-render, beside a ParaView Plane of
# as many quads rendered in the same process.
#
# Usage: Testing/Benchmarks/bench_treemap.sh [BUILD_DIR]
#   BUILD_DIR       build tree holding bin/macroscope-treemap-bench (default: ./build)
#   BENCH_MAX_S     allowed squarified time in seconds (default: 1)
set -eu

build_dir=${1:-build}
max_s=${BENCH_MAX_S:-1}

bench="$build_dir/bin/macroscope-treemap-bench"
if [ ! -x "$bench" ]; then
  echo "bench_treemap: $bench not found; build the project first" >&2
  exit 2
fi

set -- "$bench" --clusters 10 --nodes 100 --leaves 100 --repeat 5 --seed 8
echo "command: $*"
out=$("$@") || { echo "$out"; echo "FAIL: the benchmark driver failed" >&2; exit 1; }
echo "$out"

t=$(echo "$out" | sed -n 's/^time_squarified_s: //p')
if [ -z "$t" ]; then
  echo "FAIL: no squarified time in the output" >&2
  exit 1
fi
if awk -v t="$t" -v max="$max_s" 'BEGIN { exit !(t > max) }'; then
  echo "FAIL: squarified layout of 100 000 leaves took $t s > $max_s s" >&2
  exit 1
fi
echo "OK: squarified layout of 100 000 leaves in $t s <= $max_s s"

here=$(cd "$(dirname "$0")" && pwd)
pvbatch=${PVBATCH:-pvbatch}
bench_name=bench_treemap
. "$here/bench_pvbatch_setup.sh"
set -- "$pvbatch" "$here/bench_treemap_display.py" --plugin "$plugin"
echo "command: $*"
"$@" 2>&1 | grep -E '^[a-z_]+: '
