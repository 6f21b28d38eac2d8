#!/usr/bin/env bash
# Installs what is missing, then configures (Release) and builds Macroscope in
# build/ on all cores. Idempotent: a second run only rebuilds what changed.
#   BUILD_DIR   where to build (default: build/ in the checkout)
#   BUILD_TYPE  CMake build type (default: Release)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
type=${BUILD_TYPE:-Release}

"$root/scripts/deps.sh"

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE="$type"
fi
cmake --build "$build" --parallel "$(nproc)"
