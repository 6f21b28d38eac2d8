#!/usr/bin/env bash
# Installs the Debian 12 packages Macroscope builds, tests and runs with.
# Does nothing when every package is already present.
set -euo pipefail

packages=(
  # ParaView 5.11 and what its CMake package config needs beyond paraview-dev
  paraview paraview-dev python3-paraview
  qtbase5-dev libqt5opengl5-dev qttools5-dev qtxmlpatterns5-dev-tools libqt5svg5-dev
  libutfcpp-dev libexpat1-dev libfreetype-dev libgdal-dev libgl2ps-dev
  libglew-dev libhdf5-openmpi-dev libjpeg-dev liblz4-dev liblzma-dev
  libxml2-dev libopenmpi-dev libnetcdf-dev libgl-dev libpng-dev python3-dev
  libtheora-dev libtiff-dev libx11-dev zlib1g-dev libdouble-conversion-dev
  python3-mpi4py libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  libeigen3-dev
  # traces and algorithms
  libopen-trace-format2-dev otf2-tools python3-otf2 libboost-graph-dev
  # build and test tooling
  cmake g++ pkg-config libgtest-dev xvfb xauth openmpi-bin
  # the Debian package (scripts/package.sh, Package.Deb): CPack's DEB
  # generator finds the ELF files with file(1) and their dependencies with
  # dpkg-shlibdeps
  dpkg-dev file
  # screenshots of the GUI test's display (xwd, GUI.Repaint)
  x11-apps
  # mouse wheel and drags sent to the GUI under test (GUI.ChartView)
  xdotool
  # Pajé traces: SimGrid SMPI (smpicc, smpirun) and pajeng (pj_dump) for the cross-check
  pajeng libsimgrid-dev time
  # real tracers' archives: EZTrace traces small MPI/OpenMP programs into OTF2
  eztrace libeztrace-dev
  # hierarchy files (JSON)
  nlohmann-json3-dev
  # the Pajé parser's fuzz test (paje.fuzz): clang and libFuzzer
  clang libclang-rt-14-dev
  # the code style check (style.clang-format, scripts/format.sh)
  clang-format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${#missing[@]} Debian packages: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
