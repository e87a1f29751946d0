#!/bin/bash
# Minimizes a campaign's grown corpora into fuzz/corpus/TARGET/: a fresh directory starts
# with the target's named seeds and regression inputs (every file whose name is not a SHA-1),
# and libFuzzer's -merge=1 adds from the campaign corpus only the inputs that bring new
# coverage (named by their SHA-1). The old SHA-1-named inputs are replaced.
# Usage: fuzz/merge_corpus.sh BUILD_DIR CAMPAIGN_CORPUS_DIR [TARGET...]
#   CAMPAIGN_CORPUS_DIR holds one directory per target (fuzz/campaign.sh's WORK/corpus).
set -euo pipefail
build="$1"; grown="$2"; shift 2
root="$(cd "$(dirname "$0")/.." && pwd)"
targets="${*:-parse_message master_file config_yaml update_message transfer_stream tsig_record control_json tcp_framing lab_api}"
scratch="$(mktemp -d /tmp/cutover-merge.XXXXXX)"
for target in $targets; do
  [ -d "$grown/$target" ] || continue
  fresh="$scratch/$target"
  mkdir -p "$fresh"
  find "$root/fuzz/corpus/$target" -maxdepth 1 -type f -regextype posix-extended ! -regex '.*/[0-9a-f]{40}' -exec cp {} "$fresh/" \;
  seeds=$(find "$fresh" -type f | wc -l)
  "$build/fuzz/$target" -merge=1 -rss_limit_mb=2048 -timeout=10 -print_funcs=0 "$fresh" "$grown/$target" \
    >"$scratch/$target.log" 2>&1
  find "$root/fuzz/corpus/$target" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -delete
  find "$fresh" -maxdepth 1 -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' -exec cp {} "$root/fuzz/corpus/$target/" \;
  added=$(find "$fresh" -type f -regextype posix-extended -regex '.*/[0-9a-f]{40}' | wc -l)
  echo "$target: $seeds seeds, $added inputs from $(find "$grown/$target" -type f | wc -l) grown," \
    "$(du -sk "$root/fuzz/corpus/$target" | cut -f1) KiB; $(grep -E 'MERGE-OUTER: [0-9]+ new files' "$scratch/$target.log" | tail -1)"
done
rm -rf "$scratch"
