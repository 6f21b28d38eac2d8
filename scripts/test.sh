#!/usr/bin/env bash
# Builds Macroscope (scripts/build.sh) and runs every test with CTest:
# GoogleTest units, synthesizer checks, pvpython/pvbatch tests, image tests
# under Xvfb, 2-rank MPI tests and the GUI smoke test.
# Extra arguments go to ctest (e.g. -L core, -R Image, -j 1).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}

"$root/scripts/build.sh"
cd "$build"
ctest --output-on-failure --no-tests=error -j "$(nproc)" "$@"
