#!/usr/bin/env bash
# Package.Deb: CPack's Debian package of this build, checked by
# scripts/check-deb.sh (dpkg -x into a throw-away root, ldd of every ELF
# file against the package's declared dependencies), plus its control
# fields. The package of this build installs under this build's prefix
# (/usr/local by default, libraries in lib/); scripts/package.sh builds the
# one to ship, under /usr, the same way.
#   test_deb.sh BUILD_DIR SOURCE_DIR OUTPUT_DIR VERSION
set -euo pipefail
build=$1 source=$2 output=$3 version=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$output"
mkdir -p "$output"
(cd "$build" && cpack -G DEB -B "$output" > "$output/cpack.log") ||
  fail "cpack failed (see $output/cpack.log)"
deb="$output/macroscope_${version}_amd64.deb"
[ -f "$deb" ] || fail "no $deb: $(ls "$output")"
depends=$(dpkg-deb -f "$deb" Depends)
for package in paraview python3-paraview libopen-trace-format2-10 libboost-graph1.74.0; do
  grep -qE "(^|, )$package \(" <<< "$depends" || fail "Depends lacks $package: $depends"
done
[ "$(dpkg-deb -f "$deb" Version)" = "$version" ] || fail "the package's version is not $version"
# Listed first, then searched: grep -q stops reading at the first match, and
# under pipefail the writer's SIGPIPE would fail the pipeline.
control=$(dpkg-deb --ctrl-tarfile "$deb" | tar -t)
grep -qx "./postinst" <<< "$control" || fail "no postinst in $deb: $control"
contents=$(dpkg-deb -c "$deb")
for path in bin/macroscope-synth paraview-5.11/plugins/Macroscope/Macroscope.so \
    paraview-5.11/plugins/Macroscope.plugins.xml share/doc/macroscope/CITATION.cff; do
  grep -q "$path\$" <<< "$contents" || fail "$deb lacks $path"
done
if grep -qE '\.a$|/include/' <<< "$contents"; then
  fail "$deb ships development files: $(grep -E '\.a$|/include/' <<< "$contents" | head -3)"
fi
"$source/scripts/check-deb.sh" "$deb"
