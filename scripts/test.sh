#!/usr/bin/env bash
# Runs every test: installs dependencies, builds everything with warnings as errors and runs
# the unit and integration tests with ctest, a bench smoke run, the perf gate and the Debian package test
# (build, install, serve, purge); then one build with clang, AddressSanitizer,
# UndefinedBehaviorSanitizer and libFuzzer coverage serves both the fuzz stage (every
# libFuzzer target for FUZZ_SECONDS each: 9 x 30 s, under the 6 minutes docs/testing.md
# allows) and the unit tests and the integration areas that fit the CI budget, run again
# under the sanitizers.
# Usage: scripts/test.sh   (FUZZ_SECONDS=0 skips fuzzing, SANITIZE=0 the sanitized ctest,
# PACKAGE=0 the package stage)
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
sanitize_build="${SANITIZE_BUILD_DIR:-$build-sanitize}"
stage_start=$SECONDS
stage() {
  echo "test.sh: $1 done in $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}

"$root/scripts/install-deps.sh"
stage "install-deps"
CMAKE_ARGS="-DCUTOVER_WERROR=ON ${CMAKE_ARGS:-}" BUILD_DIR="$build" "$root/scripts/build.sh" all
stage "build"

# --output-on-failure shows each failing test's log.
ctest --test-dir "$build" --output-on-failure -j "${JOBS:-2}"
stage "ctest"

# Short runs of the benchmark against cutover alone, so bench/compare cannot rot: UDP, TCP,
# and a few writes (UPDATE and API) on a small zone, each checked to be served.
"$root/bench/compare" --build "$build" --smoke 3
"$root/bench/compare" --build "$build" --smoke 2 --tcp
"$root/bench/compare" --build "$build" --writes --servers cutover --write-sizes 1000 --write-count 5 \
  --api-writes 5 --quiet-wait 0
stage "bench smoke"

# Instructions per query (callgrind) and the bench zone's counted bytes against
# bench/budgets.json: deterministic, so it cannot flake (docs/performance.md, "The perf gate").
"$root/scripts/perf-gate.sh" "$build"
stage "perf gate"

# The Debian package from the build above (copied, not compiled again), installed, run as its
# user with the unit's capabilities, queried and purged (docs/operations.md); about 70 s.
if [ "${PACKAGE:-1}" != "0" ]; then
  BUILD_DIR="$build" "$root/scripts/package.sh"
  as_root=()
  [ "$(id -u)" != 0 ] && as_root=(sudo)
  PORT="${PACKAGE_TEST_PORT:-26153}" "${as_root[@]}" "$root/scripts/package-test.sh" "$build"/package/cutover_*.deb
  stage "package"
fi

fuzz_seconds="${FUZZ_SECONDS:-30}"
sanitize="${SANITIZE:-1}"
if [ "$fuzz_seconds" = "0" ] && [ "$sanitize" = "0" ]; then exit 0; fi

# The sanitized build: -O1 keeps it and its tests fast enough for CI; Debug turns assert() on.
# No -Werror here: the GCC build above is the warnings gate.
# Only what the stages below run is built: the fuzz targets, the unit tests and the integration
# areas of sanitized_areas (with the cutover binary they start), not the lab, pools and tools
# integration tests or cutover_docgen.
sanitized_areas="auth cli console differential harness monitor serve update writes xfr zone"
tests=OFF
sanitize_targets=()
[ "$fuzz_seconds" != "0" ] && sanitize_targets+=(fuzz_all)
if [ "$sanitize" != "0" ]; then
  tests=ON
  sanitize_targets+=(cutover unit_tests)
  for area in $sanitized_areas; do sanitize_targets+=("integration_${area}_test"); done
fi
CXXFLAGS="-O1 -g1" BUILD_TYPE=Debug BUILD_DIR="$sanitize_build" \
  CMAKE_ARGS="-DCMAKE_CXX_COMPILER=clang++ -DCUTOVER_FUZZ=ON -DCUTOVER_TESTS=$tests -DCUTOVER_BENCH=OFF -DCMAKE_CXX_FLAGS_DEBUG=" \
  "$root/scripts/build.sh" "${sanitize_targets[@]}"
stage "sanitized build"

if [ "$fuzz_seconds" != "0" ]; then
  BUILD_DIR="$sanitize_build" "$root/fuzz/run.sh" "$fuzz_seconds"
  stage "fuzz"
fi

if [ "$sanitize" != "0" ]; then
  # Every unit test, and the integration areas whose timing survives the sanitizers'
  # slowdown (the lab, pool-detection and tool-lab areas measure real seconds and run
  # unsanitized above).
  export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  ctest --test-dir "$sanitize_build" --output-on-failure -j "${JOBS:-2}" \
    -L "^(unit|integration_(${sanitized_areas// /|}))\$"
  stage "sanitized ctest"
fi
