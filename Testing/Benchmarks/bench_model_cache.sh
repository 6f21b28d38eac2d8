#!/bin/sh
# Benchmark of the model cache (Core/ModelCache.cxx): writes a
# 1000 slices x 1000 leaves x 20 types model (160 MB), loads it back with
# LoadModelCache (key check, one read, CRC-32) against a bare read of the same
# file measured in the same run, warm and cold (the file's pages evicted),
# best of 3 each, then rebins it. Fails if a load takes more than 1 s
# (target: loading the cache of 1000 x 1000 x 20 takes <= 1 s).
#
# Usage: Testing/Benchmarks/bench_model_cache.sh [BUILD_DIR]
#   BUILD_DIR         build tree holding bin/macroscope-model-cache-bench (default: ./build)
#   BENCH_MAX_LOAD_S  the slowest acceptable load, warm or cold (default: 1.0)
#   BENCH_CACHE_FILE  where to write the model (default: a file in /tmp)
set -eu

build_dir=${1:-build}
max_load=${BENCH_MAX_LOAD_S:-1.0}

bench="$build_dir/bin/macroscope-model-cache-bench"
if [ ! -x "$bench" ]; then
  echo "bench_model_cache: $bench not found; build the project first" >&2
  exit 2
fi

set -- "$bench" --slices 1000 --leaves 1000 --types 20 --repeat 3
if [ -n "${BENCH_CACHE_FILE:-}" ]; then
  set -- "$@" --file "$BENCH_CACHE_FILE"
fi
echo "command: $*"
out=$("$@") || { echo "$out"; echo "FAIL: the benchmark driver failed" >&2; exit 1; }
echo "$out"

status=0
for kind in warm cold; do
  load=$(echo "$out" | sed -n "s/^load_${kind}_s: //p")
  if [ -z "$load" ]; then
    echo "FAIL: no $kind load time in the output" >&2
    exit 1
  fi
  if awk -v l="$load" -v max="$max_load" 'BEGIN { exit !(l > max) }'; then
    echo "FAIL: $kind load $load s is above $max_load s" >&2
    status=1
  else
    echo "OK: $kind load $load s <= $max_load s"
  fi
done
exit $status
