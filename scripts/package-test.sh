#!/usr/bin/env bash
# Installs the .deb scripts/package.sh built, checks the unit with systemd-analyze verify, runs
# the unit's ExecStart as the packaged user with the unit's capabilities (setpriv: no systemd
# runs as PID 1 here), queries it with dig, stops it, purges the package and checks that its
# files, state and user are gone. Needs root (apt-get).
# Usage: scripts/package-test.sh DEB   (PORT: the test's DNS port on 127.0.0.1, default 26153)
set -euo pipefail

deb="$(readlink -f "$1")"
port="${PORT:-26153}"
unit=/lib/systemd/system/cutover.service
fail() { echo "package-test.sh: FAIL: $*" >&2; exit 1; }
server=""
cleanup() { if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" || true; fi; }
trap cleanup EXIT

DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "$deb" >/tmp/package-test-install.log 2>&1 ||
  { cat /tmp/package-test-install.log >&2; fail "apt-get install"; }
for file in /usr/bin/cutover /etc/cutover/cutover.yaml /etc/cutover/example.test.zone "$unit" \
  /usr/share/man/man1/cutover.1.gz /usr/share/man/man5/cutover.yaml.5.gz /usr/share/bash-completion/completions/cutover; do
  [ -e "$file" ] || fail "$file not installed"
done
getent passwd cutover >/dev/null || fail "user cutover not created"
[ "$(stat -c %U /var/lib/cutover)" = cutover ] || fail "/var/lib/cutover is not owned by cutover"
grep -qx /etc/cutover/cutover.yaml /var/lib/dpkg/info/cutover.conffiles || fail "cutover.yaml is not a conffile"
man -l /usr/share/man/man5/cutover.yaml.5.gz 2>/dev/null | grep -q "idle-timeout" || fail "cutover.yaml(5) lacks the keys"

# The installed completion offers every subcommand the binary lists, and serve's flags.
expected="$(cutover --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' | sort | tr '\n' ' ')"
offered="$(bash -c 'source /usr/share/bash-completion/completions/cutover; COMP_WORDS=(cutover ""); COMP_CWORD=1; _cutover
  printf "%s\n" "${COMPREPLY[@]}"' | grep -v '^-' | sort | tr '\n' ' ')"
[ -n "$expected" ] && [ "$offered" = "$expected" ] || fail "completion offers '$offered', cutover --help lists '$expected'"
bash -c 'source /usr/share/bash-completion/completions/cutover; COMP_WORDS=(cutover serve --con); COMP_CWORD=2; _cutover
  printf "%s\n" "${COMPREPLY[@]}"' | grep -qx -- --config || fail "completion does not offer serve --config"

systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit"

# The unit's command line, with --listen moved to the test port (serve's --listen replaces the
# config's addresses); the capabilities are the unit's AmbientCapabilities= and
# CapabilityBoundingSet=, the directory /run/cutover what its RuntimeDirectory= would create.
exec_start="$(sed -n 's/^ExecStart=//p' "$unit")"
ambient="$(sed -n 's/^AmbientCapabilities=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')"
bounding="$(sed -n 's/^CapabilityBoundingSet=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')"
install -d -o cutover -g cutover -m 0755 /run/cutover
# shellcheck disable=SC2086
setpriv --reuid cutover --regid cutover --init-groups --no-new-privs --inh-caps "$ambient" \
  --ambient-caps "$ambient" --bounding-set "-all,$bounding" \
  $exec_start --listen "127.0.0.1:$port" >/tmp/package-test-serve.log 2>&1 &
server=$!
answer=""
for _ in $(seq 50); do
  # dig +short prints "connection refused" on stdout too, so only address lines count.
  answer="$(dig @127.0.0.1 -p "$port" www.example.test A +short +time=1 +tries=1 2>/dev/null |
    grep -E '^[0-9.]+$' | sort | tr '\n' ' ')" || true
  [ -n "$answer" ] && break
  kill -0 "$server" 2>/dev/null || { cat /tmp/package-test-serve.log >&2; fail "the server exited"; }
  sleep 0.2
done
[ "$answer" = "192.0.2.10 192.0.2.11 192.0.2.12 " ] || { cat /tmp/package-test-serve.log >&2; fail "dig answered '$answer'"; }
[ "$(stat -c %U /proc/$server)" = cutover ] || fail "the server does not run as cutover"
grep -q '^CapAmb:.*0000000000000400$' "/proc/$server/status" || fail "CAP_NET_BIND_SERVICE is not ambient"
grep -q '^NoNewPrivs:.*1' "/proc/$server/status" || fail "NoNewPrivs is not set"
[ -s /run/cutover/cutover.pid ] || fail "no pid file"
kill "$server"
wait "$server" || fail "the server did not exit 0 on SIGTERM"
server=""
echo "package-test.sh: served www.example.test A = $answer as cutover with CAP_NET_BIND_SERVICE"

DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y cutover >/tmp/package-test-purge.log 2>&1 ||
  { cat /tmp/package-test-purge.log >&2; fail "apt-get purge"; }
for file in /usr/bin/cutover /etc/cutover "$unit" /var/lib/cutover /usr/share/man/man5/cutover.yaml.5.gz; do
  [ ! -e "$file" ] || fail "$file left after purge"
done
! getent passwd cutover >/dev/null || fail "user cutover left after purge"
! getent group cutover >/dev/null || fail "group cutover left after purge"
echo "package-test.sh: installed, verified, served, purged"
