#!/usr/bin/env bash
# Memory of the filters that select or name resources by path on a
# 40,000-deep Pajé container nesting:
#
#   Testing/Benchmarks/bench_deep_hierarchy.sh [BUILD_DIR]
#
# Runs bench_deep_hierarchy.py (the Pajé reader, Time Slicing with
# Resources = the deepest container's path, Trace Statistics, Active
# Producers, Time Slicing on their ResourceNames) in pvpython under
# /usr/bin/time -v, on a 1-deep trace (pvpython's own peak RSS with the
# plugin) and on the 40,000-deep one (MACROSCOPE_BENCH_DEPTH). Prints the
# stages' times and both peaks; exits 1 if the deep run needs more than
# 200 MB above the shallow one (every vertex's path: 6.7 GB).
set -euo pipefail

build_dir="${1:-build}"
depth="${MACROSCOPE_BENCH_DEPTH:-40000}"
bench_name=bench_deep_hierarchy
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/bench_plugin_setup.sh"

peak() { # peak RSS in kB of pvpython on a trace of depth $1
  /usr/bin/time -v pvpython "$here/bench_deep_hierarchy.py" --plugin "$plugin" --depth "$1" \
    > "$work/out-$1.txt" 2>&1 || { cat "$work/out-$1.txt" >&2; exit 1; }
  sed -n 's/^\s*Maximum resident set size (kbytes): //p' "$work/out-$1.txt"
}
shallow=$(peak 1)
deep=$(peak "$depth")
grep -E ' s$|Elapsed' "$work/out-$depth.txt"
echo "peak RSS: depth 1 $((shallow / 1024)) MB, depth $depth $((deep / 1024)) MB" \
  "(+$(((deep - shallow) / 1024)) MB)"
if [ $((deep - shallow)) -gt $((200 * 1024)) ]; then
  echo "$bench_name: the deep hierarchy needs more than 200 MB above pvpython's own" >&2
  exit 1
fi
