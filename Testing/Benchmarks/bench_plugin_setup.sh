# Sourced by the benchmarks that drive the plugin (directly, and through
# bench_pvbatch_setup.sh) after they set bench_name and build_dir: finds
# macroscope-synth and the built plugin (synth, plugin) and makes a work
# directory (work) removed at exit.

synth="$build_dir/bin/macroscope-synth"
plugin=
for candidate in "$build_dir"/lib/paraview-*/plugins/Macroscope/Macroscope.so; do
  if [ -f "$candidate" ]; then plugin=$candidate; fi
done
if [ ! -x "$synth" ] || [ -z "$plugin" ]; then
  echo "$bench_name: macroscope-synth or the Macroscope plugin not found in $build_dir; build the project first" >&2
  exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/$bench_name.XXXXXX")
trap 'rm -rf "$work"' EXIT
