#!/bin/sh
# Benchmark of Ocelotl's aggregation (Core/Aggregation*.cxx) through
# macroscope-aggregate, on seeded random models with structure (time phases
# that differ per cluster, noise per cell, a few perturbed machines, so that
# there are many distinct partitions). Prints the figures and fails if a
# target is missed:
#   temporal        T=100 S=700 U=10: qualities <= 0.1 s, all partitions <= 0.2 s
#   spatiotemporal  T=30, |H|=778 (7 clusters x 10 machines x 10 leaves), U=10:
#                   all distinct partitions <= 5 s
#   spatiotemporal  T=100, same hierarchy: one partition (qualities + best) <= 5 s
#   the large shapes:
#   spatiotemporal  T=200, same hierarchy: one partition <= 5 s,
#                   all distinct partitions <= 60 s (stopped after 60 s)
#   temporal        T=10,000, S=700, U=10: one partition <= 1 s (stopped after
#                   BENCH_AGGREGATE_LIMIT seconds, default 120)
#
# Usage: Testing/Benchmarks/bench_aggregate.sh [BUILD_DIR] [BASELINE_TOOL]
#   BASELINE_TOOL  another macroscope-aggregate (e.g. main's, built in a
#                  separate directory): the one-partition and sweep cases then
#                  run it first, in the same invocation, and print the ratio
#                  baseline / this build.
#   BENCH_AGGREGATE_GROWTH=1  also how one partition grows with T:
#                  spatiotemporal T = 50, 100, 200, 400 (|H| = 778; T=400 needs
#                  about 2.6 GB) and temporal T = 250, 500, 1000, 2000.
set -eu

build_dir=${1:-build}
tool="$build_dir/bin/macroscope-aggregate"
baseline=${2:-}
limit=${BENCH_AGGREGATE_LIMIT:-120}
if [ -n "$baseline" ] && [ ! -x "$baseline" ]; then
  echo "bench_aggregate: baseline $baseline is not an executable" >&2
  exit 2
fi
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
        # Printed value by value: building the line by concatenation is
        # quadratic in T.
        for (t = 0; t < T; ++t) {
          v = base[phaseOf[t], c, u]
          if (machine % 13 == 5 && t > T / 3 && t < T / 2) v = base[(phaseOf[t] + 1) % phases, c, u]
          v = v * (0.8 + 0.4 * rand())
          printf "%s%.4g", (t ? " " : ""), v
        }
        printf "\n"
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

# one_partition TOOL MODE FILE: qualities + one partition (p = 0.5), in s,
# and the peak memory of the run, in MB: "SECONDS MB".
one_partition() {
  /usr/bin/time -f "%M" -o "$work/rss" "$1" --mode "$2" --no-sweep "$3" > "$work/one.out" ||
    { echo "FAIL: $1 --mode $2 --no-sweep $3 failed" >&2; exit 1; }
  awk -v q="$(field time_qualities_s "$work/one.out")" -v b="$(field time_best_s "$work/one.out")" \
    -v kb="$(tail -n 1 "$work/rss")" 'BEGIN { printf "%.3f %.0f", q + b, kb / 1024 }'
}
# compare_one NAME MODE FILE [LIMIT]: one partition with this build (and the
# baseline first, if any); checks LIMIT when given.
compare_one() {
  name=$1; mode=$2; file=$3; limit_one=${4:-}
  before=""
  if [ -n "$baseline" ]; then before=$(one_partition "$baseline" "$mode" "$file"); fi
  now=$(one_partition "$tool" "$mode" "$file")
  if [ -n "$before" ]; then
    echo "$name: one partition ${now% *} s (${now#* } MB); baseline ${before% *} s (${before#* } MB); ratio $(awk -v a="${before% *}" -v b="${now% *}" 'BEGIN { printf "%.2f", a / b }')"
  else
    echo "$name: one partition ${now% *} s (${now#* } MB)"
  fi
  if [ -n "$limit_one" ]; then check "$name one partition" "${now% *}" "$limit_one"; fi
}
# sweep_time TOOL FILE: all distinct partitions, in s, and their count.
sweep_time() {
  "$1" --mode spatiotemporal "$2" > "$work/sweep.out" || { echo "FAIL: $1 $2 failed" >&2; exit 1; }
  echo "$(field time_all_partitions_s "$work/sweep.out") $(field partitions "$work/sweep.out")"
}

run "$work/temporal.out" --mode temporal "$work/t100.txt"
check "temporal T=100 qualities" "$(field time_qualities_s "$work/temporal.out")" 0.1
check "temporal T=100 all partitions" "$(field time_all_partitions_s "$work/temporal.out")" 0.2

if [ -n "$baseline" ]; then
  before=$(sweep_time "$baseline" "$work/t30.txt")
  echo "baseline spatiotemporal T=30: all ${before#* } partitions in ${before% *} s"
fi
run "$work/st30.out" --mode spatiotemporal "$work/t30.txt"
after=$(field time_all_partitions_s "$work/st30.out")
if [ -n "$baseline" ]; then
  echo "spatiotemporal T=30 sweep ratio baseline / this build: $(awk -v a="${before% *}" -v b="$after" 'BEGIN { printf "%.2f", a / b }')"
fi
check "spatiotemporal T=30 all partitions" "$after" 5

compare_one "spatiotemporal T=100" spatiotemporal "$work/t100.txt" 5

generate 200 3 > "$work/t200.txt"
compare_one "spatiotemporal T=200" spatiotemporal "$work/t200.txt" 5
# The sweep at T=200 is stopped after its 60 s budget.
echo "command: timeout 60 $tool --mode spatiotemporal $work/t200.txt"
if timeout 60 "$tool" --mode spatiotemporal "$work/t200.txt" > "$work/st200.out"; then
  check "spatiotemporal T=200 all partitions" "$(field time_all_partitions_s "$work/st200.out")" 60
else
  echo "FAIL spatiotemporal T=200 all partitions: not done after 60 s"; failed=1
fi

if [ "${BENCH_AGGREGATE_GROWTH:-0}" = 1 ]; then
  for T in 50 100 200 400; do
    generate "$T" 3 > "$work/g.txt"
    compare_one "growth spatiotemporal T=$T" spatiotemporal "$work/g.txt"
  done
  for T in 250 500 1000 2000; do
    generate "$T" 4 > "$work/g.txt"
    compare_one "growth temporal T=$T" temporal "$work/g.txt"
  done
  rm -f "$work/g.txt"
fi

# Temporal T=10,000 (a 530 MB text model): this build only, stopped after
# $limit seconds.
started=$(date +%s)
generate 10000 5 > "$work/t10000.txt"
echo "temporal T=10000: model generated in $(( $(date +%s) - started )) s"
echo "command: timeout $limit $tool --mode temporal --no-sweep $work/t10000.txt"
if timeout "$limit" "$tool" --mode temporal --no-sweep "$work/t10000.txt" > "$work/t10000.out"; then
  one=$(awk -v q="$(field time_qualities_s "$work/t10000.out")" -v b="$(field time_best_s "$work/t10000.out")" 'BEGIN { printf "%.6f", q + b }')
  check "temporal T=10000 one partition" "$one" 1
else
  echo "FAIL temporal T=10000 one partition: not done after $limit s"; failed=1
fi

exit $failed
