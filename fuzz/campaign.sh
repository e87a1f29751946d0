#!/bin/bash
# A long fuzz campaign: runs the targets of fuzz/ one at a time, round-robin, under
# `nice -n 10`, each run for at most RUN_SECONDS of wall time, until the CPU seconds spent
# reach CPU_GOAL or the wall clock reaches END (epoch seconds). Each target keeps its growing
# corpus in WORK/corpus/TARGET (seeded from fuzz/corpus/TARGET); a crash is kept in
# WORK/TARGET/ and that target is skipped from then on (fix it, then re-run it). The CPU time
# of every run (user + system, from /usr/bin/time -v) goes to WORK/runs.tsv with libFuzzer's
# figures. Targets whose binary is missing are skipped until it appears; a file WORK/STOP
# ends the campaign after the current run (docs/testing.md).
# Usage: fuzz/campaign.sh BUILD_DIR WORK END_EPOCH CPU_GOAL RUN_SECONDS [TARGET...]
set -u
build="$1"; work="$2"; end="$3"; goal="$4"; run_seconds="$5"; shift 5
root="$(cd "$(dirname "$0")/.." && pwd)"
targets="${*:-parse_message master_file config_yaml update_message transfer_stream tsig_record control_json tcp_framing lab_api}"
mkdir -p "$work"
[ -f "$work/runs.tsv" ] || printf 'target\tstart\twall_s\tcpu_s\texit\truns\tcov\tft\tcorpus\n' >"$work/runs.tsv"

cpu_total() { awk -F'\t' 'NR > 1 { s += $4 } END { printf "%d", s }' "$work/runs.tsv"; }

while :; do
  ran=0
  for target in $targets; do
    now=$(date +%s)
    left=$((end - now))
    if [ "$left" -lt 30 ] || [ "$(cpu_total)" -ge "$goal" ] || [ -e "$work/STOP" ]; then
      echo "campaign over: cpu $(cpu_total) s, $(date -u +%H:%M:%S)"
      exit 0
    fi
    binary="$build/fuzz/$target"
    [ -x "$binary" ] || continue
    ls "$work/$target"/crash-* "$work/$target"/timeout-* "$work/$target"/oom-* "$work/$target"/leak-* >/dev/null 2>&1 && continue
    mkdir -p "$work/$target" "$work/corpus/$target"
    if [ -d "$root/fuzz/corpus/$target" ]; then
      find "$root/fuzz/corpus/$target" -maxdepth 1 -type f ! -name '*.md' -exec cp -n {} "$work/corpus/$target/" \;
    fi
    seconds=$run_seconds
    [ "$seconds" -gt "$left" ] && seconds=$((left - 10))
    log="$work/$target/log-$(date -u +%H%M%S)"
    start=$(date -u +%H:%M:%S)
    t0=$(date +%s)
    (cd "$work/$target" && timeout -s INT $((seconds + 60)) /usr/bin/time -v -o "$log.time" \
      nice -n 10 "$binary" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_funcs=0 -print_final_stats=1 \
      -artifact_prefix="$work/$target/" "$work/corpus/$target" >"$log" 2>&1)
    code=$?
    wall=$(( $(date +%s) - t0 ))
    cpu=$(awk -F': ' '/User time|System time/ { s += $2 } END { printf "%.1f", s }' "$log.time")
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: [0-9]+' | tail -1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corpus=$(find "$work/corpus/$target" -type f | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$start" "$wall" "$cpu" "$code" "${runs:-?}" "${cov:-?}" \
      "${ft:-?}" "$corpus" >>"$work/runs.tsv"
    echo "$start $target: wall ${wall}s cpu ${cpu}s exit $code runs ${runs:-?} cov ${cov:-?} ft ${ft:-?} (total cpu $(cpu_total) s)"
    ran=1
  done
  if [ "$ran" -eq 0 ]; then sleep 20; fi
done
