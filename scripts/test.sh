#!/usr/bin/env bash
# Runs every test: installs dependencies, builds everything with warnings as errors, runs
# the unit and integration tests with ctest, then fuzzes the message parser for 60 s.
# Usage: scripts/test.sh   (FUZZ_SECONDS=0 skips fuzzing)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
CMAKE_ARGS="-DCUTOVER_WERROR=ON ${CMAKE_ARGS:-}" BUILD_DIR="$build" "$root/scripts/build.sh" all

# ctest prints the pass/fail summary last; --output-on-failure shows each failing test's log.
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-2}"

fuzz_seconds="${FUZZ_SECONDS:-60}"
if [ -x "$root/fuzz/run.sh" ] && [ "$fuzz_seconds" != "0" ]; then
  "$root/fuzz/run.sh" "$fuzz_seconds"
fi
