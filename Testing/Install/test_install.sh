#!/usr/bin/env bash
# Install.Relocated: installs the build into a temporary prefix, moves the
# prefix elsewhere (so that nothing can rely on where it was installed), then
# runs the installed plugin and tools in a private mount namespace where the
# build tree's lib/ and bin/ and the Python package's sources are empty
# directories. Checks:
#   - no installed ELF file has an absolute RPATH/RUNPATH (only $ORIGIN);
#   - every installed tool's --help and --version work, the version is the
#     project's;
#   - pvpython lists the plugin from its configuration file without loading
#     it (auto-load off), then LoadDistributedPlugin loads it; pvbatch loads it
#     by path; both run a reader and a filter on a trace the installed
#     synthesizer wrote, import macroscope, read the version in the plugin
#     information and in a saved state, and find no file of the build or
#     source tree mapped in the process (/proc/self/maps).
set -euo pipefail
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2 ;;
    --source) source=$2 ;;
    --libdir) libdir=$2 ;;
    --plugin-subdir) subdir=$2 ;;
    --version) version=$2 ;;
    --pvpython) pvpython=$2 ;;
    --pvbatch) pvbatch=$2 ;;
    --output) output=$2 ;;
    *) echo "test_install.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$output"
mkdir -p "$output"
# The prefix lives outside the build tree, whose files must not be mapped.
work=$(mktemp -d "${TMPDIR:-/tmp}/macroscope-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
staging="$work/staging"
prefix="$work/moved/macroscope-prefix"
cmake --install "$build" --prefix "$staging" > "$output/install.log"
mkdir -p "$(dirname "$prefix")"
mv "$staging" "$prefix"
echo "installed and moved to $prefix"

plugins="$prefix/$libdir/$subdir"
[ -f "$plugins/Macroscope/Macroscope.so" ] || fail "no $plugins/Macroscope/Macroscope.so"
[ -f "$plugins/Macroscope.plugins.xml" ] || fail "no $plugins/Macroscope.plugins.xml"
for doc in README.md CHANGELOG.md CITATION.cff docs/installing.md examples/read_otf2.py; do
  [ -f "$prefix/share/doc/macroscope/$doc" ] || fail "no share/doc/macroscope/$doc"
done

# Relative RPATHs only: an absolute one would tie the tree to one place.
elf_count=0
while IFS= read -r -d '' file; do
  if head -c 4 "$file" | grep -q $'\x7fELF'; then
    elf_count=$((elf_count + 1))
    paths=$(readelf -d "$file" | sed -n 's/.*(R\(UN\)\?PATH).*\[\(.*\)\]/\2/p')
    IFS=: read -r -a entries <<< "$paths"
    for entry in "${entries[@]}"; do
      case "$entry" in
        '$ORIGIN'*) ;;
        *) fail "$file has the RPATH entry '$entry' (only \$ORIGIN-relative ones may be installed)" ;;
      esac
    done
  fi
done < <(find "$prefix" -type f -print0)
[ "$elf_count" -ge 8 ] || fail "only $elf_count ELF files installed (plugin, 4 modules, 3 tools expected)"
echo "RPATHs: $elf_count ELF files, every RPATH entry \$ORIGIN-relative"

# Everything below runs with the build tree's binaries and the Python
# package's sources out of reach.
empty="$work/empty"
mkdir -p "$empty"
hidden=("$build/$libdir" "$build/bin" "$source/Plugin/macroscope")
ns=(unshare -m)
[ "$(id -u)" -eq 0 ] || ns=(unshare -r -m)
hide_and_run() {
  local mounts=""
  for dir in "${hidden[@]}"; do
    mounts+="mount --bind '$empty' '$dir' && "
  done
  "${ns[@]}" sh -c "${mounts}exec \"\$@\"" hide "$@"
}
hide_and_run ls "$build/$libdir" > "$output/hidden.txt" ||
  fail "cannot hide the build tree in a private mount namespace (${ns[*]})"
[ ! -s "$output/hidden.txt" ] || fail "the build tree's $libdir is still visible"

unset PV_PLUGIN_PATH PV_PLUGIN_CONFIG_FILE PYTHONPATH || true
export PATH="$prefix/bin:$PATH"

for tool in macroscope-synth macroscope-aggregate macroscope-paje-dump; do
  [ -x "$prefix/bin/$tool" ] || fail "no $prefix/bin/$tool"
  hide_and_run "$prefix/bin/$tool" --help > "$output/$tool.help" || fail "$tool --help exited $?"
  grep -qi "usage" "$output/$tool.help" || fail "$tool --help prints no usage"
  printed=$(hide_and_run "$prefix/bin/$tool" --version) || fail "$tool --version exited $?"
  [ "$printed" = "$tool (Macroscope) $version" ] ||
    fail "$tool --version printed '$printed', expected '$tool (Macroscope) $version'"
  echo "$printed"
done

hide_and_run "$prefix/bin/macroscope-synth" --output "$work/trace" --clusters 1 --nodes-per-cluster 2 \
  --ranks-per-node 2 --threads-per-rank 1 --iterations 4 --quiet > "$output/synth.log" ||
  fail "the installed macroscope-synth could not write a trace (see $output/synth.log)"

common=(--prefix "$prefix" --plugins "$plugins" --trace "$work/trace/traces.otf2"
  --version "$version" --forbidden "$build" --forbidden "$source" --output "$output")
hide_and_run "$pvpython" "$here/InstalledPlugin.py" "${common[@]}" --mode config-file ||
  fail "pvpython with the installed plugin"
hide_and_run "$pvbatch" "$here/InstalledPlugin.py" "${common[@]}" --mode path ||
  fail "pvbatch with the installed plugin"
echo "Install.Relocated: passed"
