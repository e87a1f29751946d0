#!/bin/bash
# DNS UPDATE write throughput: N adds sent by one nsupdate session, one UPDATE per `send`
# (nsupdate waits for each reply before the next), against cutover (journal: every write
# fsynced before it is acknowledged) and against BIND named 9.18 (dynamic zone, same TSIG
# key, its own journal) on the same machine. Prints acknowledged writes per second for each
# and checks every write is served. Usage: bench/update_throughput.sh BUILD_DIR [N]
# Uses two free loopback ports picked by the kernel; stops the servers it started by PID.
set -u
BIN=${1:?usage: $0 BUILD_DIR [N]}/src/cmd/cutover
N=${2:-500}
SECRET="Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc="
D=$(mktemp -d /tmp/update_throughput.XXXXXX)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_ready() {  # port
  for _ in $(seq 1 100); do
    dig @127.0.0.1 -p "$1" example.test. SOA +short +time=1 +tries=1 2>/dev/null | grep -q admin && return 0
    sleep 0.1
  done
  echo "server on port $1 did not come up" >&2
  return 1
}

# One session: N sends, each one UPDATE that nsupdate waits for.
run_updates() {  # port label
  local commands="$D/$2.nsupdate"
  { echo "server 127.0.0.1 $1"; echo "zone example.test"
    for i in $(seq 1 "$N"); do
      echo "update add w$i.example.test. 60 A 198.51.$((i / 256 % 256)).$((i % 256))"; echo "send"
    done; } > "$commands"
  local start end
  start=$(date +%s.%N)
  nsupdate -t 10 -y "hmac-sha256:update-key:$SECRET" "$commands" || { echo "$2: nsupdate failed" >&2; return 1; }
  end=$(date +%s.%N)
  local present
  present=$(dig @127.0.0.1 -p "$1" example.test. AXFR +time=5 | grep -c '^w[0-9]*\.example\.test\..*IN.A')
  python3 -c "n=$N; s=$end-$start; print(f'$2: {n} updates in {s:.2f} s = {n/s:.0f} writes/s acknowledged; {$present} of {n} present')"
}

ZONE='$ORIGIN example.test.
$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1'

# cutover
mkdir -p "$D/cutover" && cd "$D/cutover"
echo "$ZONE" > zone.db
PORT=$(free_port)
cat > config.yaml <<C
listen: 127.0.0.1:$PORT
writes:
  journal: journal.db
  tsig-keys:
    - {name: update-key, algorithm: hmac-sha256, secret: "$SECRET"}
zones:
  - origin: example.test
    file: zone.db
    allow-update: [update-key]
    allow-transfer: [127.0.0.1]
C
"$BIN" serve --config config.yaml > server.log 2>&1 &
PIDS+=($!)
wait_ready "$PORT" && run_updates "$PORT" cutover

# BIND named
mkdir -p "$D/named" && cd "$D/named"
echo "$ZONE" > example.test.db
PORT=$(free_port)
cat > named.conf <<C
options { directory "$D/named"; listen-on port $PORT { 127.0.0.1; }; listen-on-v6 { none; };
          pid-file "$D/named/named.pid"; recursion no; allow-transfer { 127.0.0.1; }; };
key "update-key" { algorithm hmac-sha256; secret "$SECRET"; };
zone "example.test" { type primary; file "$D/named/example.test.db"; allow-update { key update-key; }; };
C
named -g -c named.conf > named.log 2>&1 &
PIDS+=($!)
wait_ready "$PORT" && run_updates "$PORT" "bind $(named -v | awk '{print $2}')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "work dir: $D"
