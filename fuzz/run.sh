#!/bin/sh
# Builds the parse_message libFuzzer target with ASan/UBSan and runs it for SECONDS seconds
# on a scratch copy of fuzz/corpus. Exits non-zero on any crash, leak or consistency abort.
# Usage: fuzz/run.sh [SECONDS]   (default 60; BUILD_DIR overrides /tmp/cutover-fuzz)
set -eu
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-/tmp/cutover-fuzz}"
mkdir -p "$build/obj" "$build/corpus"

flags="-std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
-fno-sanitize-recover=undefined -I$root/src"
objects=""
for source in "$root"/src/base/*.cpp "$root"/src/dns/*.cpp; do
  case "$source" in *_test.cpp) continue ;; esac
  object="$build/obj/$(basename "$(dirname "$source")")_$(basename "$source" .cpp).o"
  if [ ! -f "$object" ] || [ "$source" -nt "$object" ] || [ -n "$(find "$root/src" -name '*.h' -newer "$object")" ]; then
    clang++ $flags -c "$source" -o "$object"
  fi
  objects="$objects $object"
done
clang++ $flags -fsanitize=fuzzer "$root/fuzz/parse_message.cpp" $objects -lfmt -o "$build/parse_message"

cp "$root"/fuzz/corpus/* "$build/corpus/"
cd "$build"
./parse_message -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
