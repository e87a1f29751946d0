#!/usr/bin/env bash
# Runs every test: installs dependencies, builds everything with warnings as errors, fuzzes
# every parser of outside input, runs the unit and integration tests with ctest and a bench
# smoke run, then builds again with AddressSanitizer + UndefinedBehaviorSanitizer and runs
# the unit tests and the integration tests that fit the CI budget under them.
# Usage: scripts/test.sh   (FUZZ_SECONDS=0 skips fuzzing, SANITIZE=0 the sanitizer stage)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
stage_start=$SECONDS
stage() {
  echo "test.sh: $1 done in $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}

"$root/scripts/install-deps.sh"
stage "install-deps"
CMAKE_ARGS="-DCUTOVER_WERROR=ON ${CMAKE_ARGS:-}" BUILD_DIR="$build" "$root/scripts/build.sh" all
stage "build"

fuzz_seconds="${FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" != "0" ]; then
  "$root/fuzz/run.sh" "$fuzz_seconds"
  stage "fuzz"
fi

# --output-on-failure shows each failing test's log.
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-2}"
stage "ctest"

# A 3 s run of the benchmark against cutover alone, so bench/compare cannot rot.
"$root/bench/compare" --build "$build" --smoke 3
stage "bench smoke"

if [ "${SANITIZE:-1}" != "0" ]; then
  # -O1 with line tables keeps the sanitized build and its tests fast enough for CI while
  # reports still name file and line. Debug also turns assert() on.
  sanitize_build="${SANITIZE_BUILD_DIR:-$build-sanitize}"
  # (Debug's own -g -O0 is replaced: CMake takes CXXFLAGS from the environment.)
  CXXFLAGS="-O1 -g1" BUILD_TYPE=Debug BUILD_DIR="$sanitize_build" \
    CMAKE_ARGS="-DCUTOVER_WERROR=ON -DASAN=ON -DUBSAN=ON -DCUTOVER_BENCH=OFF -DCMAKE_CXX_FLAGS_DEBUG= ${CMAKE_ARGS:-}" \
    "$root/scripts/build.sh" all
  stage "sanitizer build"
  # Every unit test, and the integration areas whose timing survives the sanitizers'
  # slowdown (the lab, pool-detection and tool-lab areas measure real seconds and run
  # unsanitized above).
  export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  ctest --test-dir "$sanitize_build" --output-on-failure -j "${JOBS:-2}" \
    -L '^(unit|integration_(auth|harness|serve|update|writes|xfr|zone))$'
  stage "sanitizer ctest"
fi
