#!/usr/bin/env bash
# Builds the Debian package of Macroscope for Debian 12's ParaView 5.11:
# macroscope_<version>_amd64.deb in the package build directory.
# The package installs under /usr, the plugin in ParaView's own plugin
# directory, so it is built in a directory of its own (the install prefix is
# chosen when CMake configures), without the tests. docs/installing.md.
#   PACKAGE_BUILD_DIR  where to build (default: build-package/ in the checkout)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${PACKAGE_BUILD_DIR:-$root/build-package}

"$root/scripts/deps.sh"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_INSTALL_PREFIX=/usr -DBUILD_TESTING=OFF
fi
cmake --build "$build" --parallel "$(nproc)"
(cd "$build" && cpack -G DEB)
ls "$build"/macroscope_*.deb
