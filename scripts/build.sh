#!/usr/bin/env bash
# Configures and builds cutover with CMake and Ninja into ./build (or $BUILD_DIR).
# Usage: scripts/build.sh [TARGET...]   (default target: cutover; "all" builds tests too)
# Extra CMake options go in $CMAKE_ARGS, e.g. CMAKE_ARGS="-DASAN=ON" scripts/build.sh all
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs="${JOBS:-2}"
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(cutover)
fi

# shellcheck disable=SC2086  # CMAKE_ARGS is a list of options on purpose
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" ${CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs" --target "${targets[@]}"
