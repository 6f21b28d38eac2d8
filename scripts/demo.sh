#!/usr/bin/env bash
# Macroscope's main job on a built-in sample: builds (scripts/build.sh), then
# runs examples/demo.py in pvbatch under Xvfb. Pictures, a ParaView state file
# and a text summary land in out/ (or OUT_DIR).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${OUT_DIR:-$root/out}

"$root/scripts/build.sh"
mkdir -p "$out"
plugin="$build/lib/paraview-5.11/plugins/Macroscope/Macroscope.so"

# run_pvbatch SCRIPT ARGS...: runs a script under Xvfb, its output kept in
# out/logs/SCRIPT.txt; an error VTK or ParaView reported ("ERR|") fails the
# demo even when the script itself ends well (warnings are reported, not
# fatal: real traces have anomalies worth a warning).
run_pvbatch() {
  local script=$1 log
  shift
  mkdir -p "$out/logs"
  log="$out/logs/$(basename "$script" .py).txt"
  xvfb-run -a -s "-screen 0 1600x1200x24 -noreset" pvbatch "$script" "$@" 2>&1 | tee "$log"
  local errors
  errors=$(grep -c 'ERR|' "$log" || true)
  if [ "$errors" -gt 0 ]; then
    echo "demo: $(basename "$script") reported $errors error(s), see $log:" >&2
    grep -m 5 'ERR|' "$log" >&2
    exit 1
  fi
}

run_pvbatch "$root/examples/demo.py" --plugin "$plugin" --output "$out"
# Two runs compared: the sample with and without its perturbation.
run_pvbatch "$root/examples/compare.py" --plugin "$plugin" --output "$out"
cat "$out/comparison.txt" >> "$out/summary.txt"

# A real MPI program traced by EZTrace (a ring on 4 ranks, rank 2 slowed
# 40 times), opened next to the synthetic sample: eztrace.png and lines in
# the summary (docs/eztrace.md).
"$root/examples/eztrace/run.sh" "$out/eztrace" ring 4 8 2 2 40
run_pvbatch "$root/examples/eztrace_demo.py" --plugin "$plugin" \
  --output "$out" --archive "$out/eztrace/ring_trace/eztrace_log.otf2" --slowed 2
cat "$out/eztrace-summary.txt" >> "$out/summary.txt"

# An independent check of the archive with OTF2's own tool.
if otf2-print --silent "$out/sample-trace/traces.otf2" > "$out/otf2-validation.txt" 2>&1; then
  echo "otf2-print --silent: the archive is valid" | tee -a "$out/summary.txt"
else
  echo "otf2-print rejected $out/sample-trace/traces.otf2:" >&2
  cat "$out/otf2-validation.txt" >&2
  exit 1
fi
echo "demo: results in $out"
