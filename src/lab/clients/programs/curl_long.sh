#!/bin/sh
# The lab's long-lived curl client (docs/lab.md, "Client runtimes"): ONE curl process fetches
# the URL --count times, one transfer per --interval (--rate), so every request after the
# first goes through that process's own DNS cache. One JSON line per request; `t` is the
# time the line arrived minus the transfer's total time.
set -u
url=$1
shift
interval=1
count=1
timeout=
while [ $# -gt 0 ]; do
  case $1 in
    --interval) interval=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --connect-timeout) timeout=$2; shift 2 ;;
    *) echo "curl_long.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
config=$(mktemp)
trap 'rm -f "$config"' EXIT
i=0
while [ "$i" -lt "$count" ]; do
  printf 'url = "%s"\n' "$url" >> "$config"
  i=$((i + 1))
done
# --rate takes whole transfers per unit: per hour keeps sub-second intervals exact enough.
rate=$(awk -v s="$interval" 'BEGIN { r = int(3600 / s + 0.5); if (r < 1) r = 1; printf "%d/h", r }')
set -- -sS -N --rate "$rate" -K "$config" -w '\t%{remote_ip}\t%{remote_port}\t%{num_connects}\t%{exitcode}\t%{errormsg}\t%{time_total}\n'
[ -n "$timeout" ] && set -- --connect-timeout "$timeout" "$@"
stdbuf -o0 curl "$@" 2>/dev/null | while IFS= read -r line; do
  now=$(date +%s.%N)
  printf '%s\n' "$line" | awk -F '\t' -v now="$now" -f "$(dirname "$0")/curl_line.awk"
done
