#!/bin/sh
# Benchmark of Ocelotl's aggregation (Filters/Core/Aggregation*.cxx) through
# macroscope-aggregate, on seeded random models with structure (time phases
# that differ per cluster, noise per cell, a few perturbed machines, so that
# there are many distinct partitions). Prints the figures and fails if a
# target is missed:
#   temporal        T=100 S=700 U=10: qualities <= 0.1 s, all partitions <= 0.2 s
#   spatiotemporal  T=30, |H|=778 (7 clusters x 10 machines x 10 leaves), U=10:
#                   all distinct partitions <= 5 s
#   spatiotemporal  T=100, same hierarchy: one partition (qualities + best) <= 5 s
#
# Usage: Testing/Benchmarks/bench_aggregate.sh [BUILD_DIR]   (default: ./build)
set -eu

build_dir=${1:-build}
tool="$build_dir/bin/macroscope-aggregate"
if [ ! -x "$tool" ]; then
  echo "bench_aggregate: $tool not found; build the project first" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# generate T SEED > file: 700 leaves, 70 machines (700..769), 7 clusters
# (770..776), root 777.
generate() {
  awk -v T="$1" -v seed="$2" 'BEGIN {
    srand(seed); S = 700; U = 10; H = 778
    t = 0; phases = 0
    while (t < T) {
      len = 1 + int(rand() * T / 6)
      for (k = t; k < t + len && k < T; ++k) phaseOf[k] = phases
      t += len; ++phases
    }
    for (p = 0; p < phases; ++p) for (c = 0; c < 7; ++c) for (u = 0; u < U; ++u)
      base[p, c, u] = (rand() < 0.4) ? rand() : 0.05 * rand()
    printf "%d %d %d %d\n", T, S, U, H
    line = ""
    for (n = 0; n < H; ++n) {
      if (n < 700) parent = 700 + int(n / 10)
      else if (n < 770) parent = 770 + int((n - 700) / 10)
      else if (n < 777) parent = 777
      else parent = -1
      line = line (n ? " " : "") parent
    }
    print line
    for (s = 0; s < S; ++s) {
      c = int(s / 100); machine = int(s / 10)
      for (u = 0; u < U; ++u) {
        line = ""
        for (t = 0; t < T; ++t) {
          v = base[phaseOf[t], c, u]
          if (machine % 13 == 5 && t > T / 3 && t < T / 2) v = base[(phaseOf[t] + 1) % phases, c, u]
          v = v * (0.8 + 0.4 * rand())
          line = line (t ? " " : "") sprintf("%.4g", v)
        }
        print line
      }
    }
  }'
}

generate 100 1 > "$work/t100.txt"
generate 30 2 > "$work/t30.txt"

failed=0
# check NAME VALUE LIMIT
check() {
  if awk -v v="$2" -v l="$3" 'BEGIN { exit !(v <= l) }'; then
    echo "OK   $1: $2 s <= $3 s"
  else
    echo "FAIL $1: $2 s > $3 s"; failed=1
  fi
}
# field NAME FILE: a "name: value" line of the tool's text output
field() { sed -n "s/^$1: //p" "$2"; }

run() {
  out=$1; shift
  echo "command: $tool $*"
  "$tool" "$@" > "$out" || { echo "FAIL: $tool $* failed" >&2; exit 1; }
  sed -n '1,/^partitions/p' "$out"
}

run "$work/temporal.out" --mode temporal "$work/t100.txt"
check "temporal T=100 qualities" "$(field time_qualities_s "$work/temporal.out")" 0.1
check "temporal T=100 all partitions" "$(field time_all_partitions_s "$work/temporal.out")" 0.2

run "$work/st30.out" --mode spatiotemporal "$work/t30.txt"
check "spatiotemporal T=30 all partitions" "$(field time_all_partitions_s "$work/st30.out")" 5

run "$work/st100.out" --mode spatiotemporal --no-sweep "$work/t100.txt"
one=$(awk -v q="$(field time_qualities_s "$work/st100.out")" -v b="$(field time_best_s "$work/st100.out")" 'BEGIN { printf "%.6f", q + b }')
check "spatiotemporal T=100 one partition (qualities + best)" "$one" 5

exit $failed
