# Sourced by the pvbatch benchmarks (bench_overview.sh, bench_timeline.sh,
# bench_treemap.sh) after they set bench_name, build_dir and pvbatch: finds
# macroscope-synth, the built plugin and a work directory
# (bench_plugin_setup.sh), checks for pvbatch and Xvfb, and starts one
# X server for every run on a display it picks itself (-displayfd; xvfb-run
# -a races with other xvfb-runs on a shared machine), exported as DISPLAY.

. "$(dirname "$0")/bench_plugin_setup.sh"
if ! command -v "$pvbatch" > /dev/null || ! command -v Xvfb > /dev/null; then
  echo "$bench_name: pvbatch and Xvfb are required (Debian: apt-get install paraview xvfb)" >&2
  exit 2
fi

xvfb_pid=
cleanup() {
  if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

Xvfb -displayfd 3 -screen 0 1920x1080x24 -nolisten tcp -noreset 3> "$work/display" \
  > "$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 100); do
  [ -s "$work/display" ] && break
  sleep 0.1
done
if [ ! -s "$work/display" ]; then
  cat "$work/xvfb.log" >&2
  echo "$bench_name: Xvfb did not start" >&2
  exit 2
fi
DISPLAY=:$(head -n 1 "$work/display")
export DISPLAY
