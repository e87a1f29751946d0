#!/bin/sh
# The lab's curl client, a new curl process per request (docs/lab.md, "Client runtimes"):
# curl_each.sh URL --interval S --count N [--connect-timeout S]; one JSON line per request.
# Needs curl, awk and GNU date; `t` is taken just before curl starts, so process start counts.
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
    *) echo "curl_each.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
format='\t%{remote_ip}\t%{remote_port}\t%{num_connects}\t%{exitcode}\t%{errormsg}\n'
# Slot i starts at begin + i * step (nanoseconds, shell arithmetic: one process fewer per
# request than awk, so a loaded machine keeps more of the slots).
step=$(awk -v s="$interval" 'BEGIN { printf "%d", s * 1000000000 }')
begin=$(date +%s%N)
i=0
while [ "$i" -lt "$count" ]; do
  wait=$((begin + i * step - $(date +%s%N)))
  [ "$wait" -gt 0 ] && sleep "$((wait / 1000000000)).$(printf '%09d' $((wait % 1000000000)))"
  t=$(date +%s.%N)
  if [ -n "$timeout" ]; then
    out=$(curl -sS --connect-timeout "$timeout" -w "$format" "$url" 2>/dev/null)
  else
    out=$(curl -sS -w "$format" "$url" 2>/dev/null)
  fi
  printf '%s\n' "$out" | awk -F '\t' -v t="$t" -f "$(dirname "$0")/curl_line.awk"
  i=$((i + 1))
done
