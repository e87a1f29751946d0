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
logs="$(mktemp -d /tmp/package-test.XXXXXX)"  # this run's logs, removed at the end
# On a failure the package is purged too, so the next run (or another engineer's on a shared
# machine) starts from a machine without cutover.
cleanup() {
  local rc=$?
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill "$server"; wait "$server" || true; fi
  if [ "$rc" -ne 0 ] && dpkg-query -W -f='${Status}' cutover 2>/dev/null | grep -q installed; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y cutover >/dev/null 2>&1 || true
  fi
  rm -rf "$logs"
  exit "$rc"
}
trap cleanup EXIT

# The test owns the cutover package and user while it runs: it refuses to start over an
# installed one (someone else's test, or a real install) instead of purging it.
if dpkg-query -W -f='${Status}' cutover 2>/dev/null | grep -q "install ok installed"; then
  echo "package-test.sh: cutover is installed already; purge it first (apt-get purge cutover)" >&2
  rm -rf "$logs"
  trap - EXIT
  exit 1
fi

DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y "$deb" >"$logs"/install.log 2>&1 ||
  { cat "$logs"/install.log >&2; fail "apt-get install"; }
for file in /usr/bin/cutover /etc/cutover/cutover.yaml /etc/cutover/example.test.zone "$unit" \
  /usr/share/man/man1/cutover.1.gz /usr/share/man/man5/cutover.yaml.5.gz /usr/share/bash-completion/completions/cutover; do
  [ -e "$file" ] || fail "$file not installed"
done
getent passwd cutover >/dev/null || fail "user cutover not created"
[ "$(stat -c %U /var/lib/cutover)" = cutover ] || fail "/var/lib/cutover is not owned by cutover"
grep -qx /etc/cutover/cutover.yaml /var/lib/dpkg/info/cutover.conffiles || fail "cutover.yaml is not a conffile"
# grep without -q after a pipe: -q stops reading at the first match, the writer then dies of
# SIGPIPE and pipefail fails the check at random (seen: "completion does not offer").
man -l /usr/share/man/man5/cutover.yaml.5.gz 2>/dev/null | grep "idle-timeout" >/dev/null || fail "cutover.yaml(5) lacks the keys"

# The installed completion offers every subcommand the binary lists, and serve's flags.
expected="$(cutover --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' | sort | tr '\n' ' ')"
offered="$(bash -c 'source /usr/share/bash-completion/completions/cutover; COMP_WORDS=(cutover ""); COMP_CWORD=1; _cutover
  printf "%s\n" "${COMPREPLY[@]}"' | grep -v '^-' | sort | tr '\n' ' ')"
[ -n "$expected" ] && [ "$offered" = "$expected" ] || fail "completion offers '$offered', cutover --help lists '$expected'"
bash -c 'source /usr/share/bash-completion/completions/cutover; COMP_WORDS=(cutover serve --con); COMP_CWORD=2; _cutover
  printf "%s\n" "${COMPREPLY[@]}"' | grep -x -- --config >/dev/null || fail "completion does not offer serve --config"

systemd-analyze verify "$unit" || fail "systemd-analyze verify $unit"

# The unit's command line, with --listen moved to the test port (serve's --listen replaces the
# config's addresses); the capabilities are the unit's AmbientCapabilities= and
# CapabilityBoundingSet=, the directory /run/cutover what its RuntimeDirectory= would create.
exec_start="$(sed -n 's/^ExecStart=//p' "$unit")"
ambient="$(sed -n 's/^AmbientCapabilities=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')"
bounding="$(sed -n 's/^CapabilityBoundingSet=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')"
install -d -o cutover -g cutover -m 0755 /run/cutover
# ExecStartPre= (serve --check) passes on the packaged config, as the packaged user.
exec_start_pre="$(sed -n 's/^ExecStartPre=//p' "$unit")"
[ -n "$exec_start_pre" ] || fail "the unit has no ExecStartPre="
# shellcheck disable=SC2086
setpriv --reuid cutover --regid cutover --init-groups --no-new-privs $exec_start_pre >"$logs"/check.log 2>&1 ||
  { cat "$logs"/check.log >&2; fail "ExecStartPre ($exec_start_pre) failed"; }
# shellcheck disable=SC2086
setpriv --reuid cutover --regid cutover --init-groups --no-new-privs --inh-caps "$ambient" \
  --ambient-caps "$ambient" --bounding-set "-all,$bounding" \
  $exec_start --listen "127.0.0.1:$port" >"$logs"/serve.log 2>&1 &
server=$!
answer=""
for _ in $(seq 50); do
  # dig +short prints "connection refused" on stdout too, so only address lines count.
  answer="$(dig @127.0.0.1 -p "$port" www.example.test A +short +time=1 +tries=1 2>/dev/null |
    grep -E '^[0-9.]+$' | sort | tr '\n' ' ')" || true
  [ -n "$answer" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$logs"/serve.log >&2; fail "the server exited"; }
  sleep 0.2
done
[ "$answer" = "192.0.2.10 192.0.2.11 192.0.2.12 " ] || { cat "$logs"/serve.log >&2; fail "dig answered '$answer'"; }
[ "$(stat -c %U /proc/$server)" = cutover ] || fail "the server does not run as cutover"
# Effective, ambient and bounding sets: CAP_NET_BIND_SERVICE (bit 10) and nothing else.
for set in CapEff CapAmb CapBnd; do
  grep -q "^$set:.*0000000000000400$" "/proc/$server/status" || fail "$set is not CAP_NET_BIND_SERVICE alone"
done
grep -q '^NoNewPrivs:.*1' "/proc/$server/status" || fail "NoNewPrivs is not set"
[ -s /run/cutover/cutover.pid ] || fail "no pid file"
# ExecReload= is SIGHUP: the server reloads and keeps answering.
kill -HUP "$server"
for _ in $(seq 50); do grep -q 'reload.ok' "$logs"/serve.log && break; sleep 0.2; done
grep -q 'reload.ok' "$logs"/serve.log || { cat "$logs"/serve.log >&2; fail "no reload.ok after SIGHUP"; }
dig @127.0.0.1 -p "$port" mail.example.test A +short +time=1 +tries=2 | grep -x 192.0.2.25 >/dev/null ||
  fail "no answer after the SIGHUP reload"
kill "$server"
wait "$server" || fail "the server did not exit 0 on SIGTERM"
server=""
echo "package-test.sh: served www.example.test A = $answer as cutover with CAP_NET_BIND_SERVICE only; reloaded on SIGHUP"

DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 purge -y cutover >"$logs"/purge.log 2>&1 ||
  { cat "$logs"/purge.log >&2; fail "apt-get purge"; }
for file in /usr/bin/cutover /etc/cutover "$unit" /var/lib/cutover /usr/share/man/man5/cutover.yaml.5.gz; do
  [ ! -e "$file" ] || fail "$file left after purge"
done
! getent passwd cutover >/dev/null || fail "user cutover left after purge"
! getent group cutover >/dev/null || fail "group cutover left after purge"
echo "package-test.sh: installed, verified, served, purged"
