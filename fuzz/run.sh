#!/bin/sh
# Builds the libFuzzer targets of fuzz/ through CMake (-DCUTOVER_FUZZ=ON: clang++, every
# cutover_* library compiled with ASan, UBSan and fuzzer coverage) and runs each in turn for
# SECONDS seconds on a scratch copy of its corpus fuzz/corpus/TARGET/. Exits non-zero when
# any target crashes, leaks, reports a sanitizer error or fails a consistency check; the
# reproducer is $BUILD_DIR/run/TARGET/crash-* (docs/testing.md).
# Usage: fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#   default 30 s for each of the 11 targets; BUILD_DIR overrides /tmp/cutover-fuzz.
set -eu
seconds="${1:-30}"
[ $# -gt 0 ] && shift
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-/tmp/cutover-fuzz}"
all_targets="parse_message master_file config_yaml update_message transfer_stream tsig_record control_json tcp_framing lab_api answer_paths mmdb_networks"
targets="${*:-$all_targets}"

launcher=""
if command -v ccache >/dev/null 2>&1; then launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi
# shellcheck disable=SC2086  # $launcher is empty or one option
# A build dir configured already (scripts/test.sh's sanitized build, which also holds the
# unit tests) is used as it is.
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DCUTOVER_FUZZ=ON -DCUTOVER_TESTS=OFF -DCUTOVER_BENCH=OFF $launcher >/dev/null
fi
build_targets=""
for target in $targets; do build_targets="$build_targets fuzz_$target"; done
# shellcheck disable=SC2086  # one ninja target per word
cmake --build "$build" -j "${JOBS:-2}" --target $build_targets

# Leaks inside system libraries that are not ours to free (each one explained in the file).
LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

failed=""
for target in $targets; do
  work="$build/run/$target"
  rm -rf "$work"
  mkdir -p "$work/corpus"
  if [ -d "$root/fuzz/corpus/$target" ]; then
    find "$root/fuzz/corpus/$target" -maxdepth 1 -type f ! -name '*.md' -exec cp {} "$work/corpus/" \;
  fi
  echo "== fuzz $target: ${seconds} s from $(find "$work/corpus" -type f | wc -l) inputs"
  if ! (cd "$work" && "$build/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_funcs=0 \
          -print_final_stats=1 -artifact_prefix="$work/" corpus >"$work/log" 2>&1); then
    failed="$failed $target"
    tail -n 60 "$work/log"
  fi
  grep -E '^(Done|#[0-9]+ +DONE)|stat::number_of_executed_units|stat::peak_rss_mb' "$work/log" | tr '\n' ' '
  echo
done

if [ -n "$failed" ]; then
  echo "fuzz: FAILED:$failed (reproducers in $build/run/TARGET/)" >&2
  exit 1
fi
echo "fuzz: every target ran ${seconds} s without a finding"
