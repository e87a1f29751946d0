#!/usr/bin/env bash
# Runs every test: installs dependencies, builds everything with warnings as errors, runs
# every libFuzzer target for FUZZ_SECONDS each (fuzz/run.sh: 8 targets x 35 s, under the
# 6 minutes docs/testing.md allows), then the unit and integration tests with ctest.
# Usage: scripts/test.sh   (FUZZ_SECONDS=0 skips fuzzing)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"

"$root/scripts/install-deps.sh"
CMAKE_ARGS="-DCUTOVER_WERROR=ON ${CMAKE_ARGS:-}" BUILD_DIR="$build" "$root/scripts/build.sh" all

fuzz_seconds="${FUZZ_SECONDS:-35}"
if [ "$fuzz_seconds" != "0" ]; then
  "$root/fuzz/run.sh" "$fuzz_seconds"
fi

# ctest runs last so its pass/fail summary closes the output; --output-on-failure shows
# each failing test's log.
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-2}"

# A 3 s run of the benchmark against cutover alone, so bench/compare cannot rot.
"$root/bench/compare" --build "$build" --smoke 3
