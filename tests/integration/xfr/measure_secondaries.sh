#!/bin/bash
# Measures the propagation time P from cutover (primary) to real NSD, Knot and BIND secondaries
# on loopback: each write is acknowledged by the API, then dig polls every secondary until it
# serves the new address (NOTIFY + IXFR). Usage: N=WRITES tests/integration/xfr/measure_secondaries.sh BUILD_DIR
# Fixed high ports 25353, 28053, 25401-25403 must be free. Stops its children by PID.
set -u
B=${1:?build dir}/src/cmd/cutover
D=$(mktemp -d /tmp/h_sec.XXXX); cd $D
P_DNS=25353; P_CTL=28053; NSD=25401; KNOT=25402; BIND=25403
cat > zone.db <<Z
\$ORIGIN example.test.
\$TTL 300
@ IN SOA ns1 admin 10 3600 600 86400 60
@ IN NS ns1
ns1 IN A 127.0.0.1
www IN A 192.0.2.10
Z
cat > cfg.yaml <<C
listen: 127.0.0.1:$P_DNS
control:
  listen: 127.0.0.1:$P_CTL
writes:
  journal: journal.db
zones:
  - origin: example.test
    file: zone.db
    allow-transfer: [127.0.0.1]
    notify: [127.0.0.1:$NSD, 127.0.0.1:$KNOT, 127.0.0.1:$BIND]
C
mkdir nsd knot bind
cat > nsd/nsd.conf <<C
server:
  ip-address: 127.0.0.1@$NSD
  port: $NSD
  username: ""
  chroot: ""
  database: ""
  zonesdir: "$D/nsd"
  pidfile: "$D/nsd/nsd.pid"
  xfrdfile: "$D/nsd/xfrd.state"
  zonelistfile: "$D/nsd/zone.list"
  logfile: "$D/nsd/nsd.log"
  rrl-ratelimit: 0
  verbosity: 2
remote-control:
  control-enable: no
zone:
  name: example.test
  zonefile: "example.test.zone"
  allow-notify: 127.0.0.1 NOKEY
  request-xfr: 127.0.0.1@$P_DNS NOKEY
C
cat > knot/knot.conf <<C
server:
  listen: 127.0.0.1@$KNOT
  rundir: "$D/knot"
  user: root:root
database:
  storage: "$D/knot"
log:
  - target: stderr
    any: info
remote:
  - id: primary
    address: 127.0.0.1@$P_DNS
acl:
  - id: notify_from_primary
    address: 127.0.0.1
    action: notify
template:
  - id: default
    storage: "$D/knot"
    zonefile-sync: -1
    journal-content: changes
zone:
  - domain: example.test
    master: primary
    acl: notify_from_primary
C
cat > bind/named.conf <<C
options {
  directory "$D/bind";
  listen-on port $BIND { 127.0.0.1; };
  listen-on-v6 { none; };
  pid-file "$D/bind/named.pid";
  session-keyfile "$D/bind/session.key";
  managed-keys-directory "$D/bind";
  dnssec-validation no;
  recursion no;
  notify no;
};
controls { };
zone "example.test" {
  type secondary;
  primaries port $P_DNS { 127.0.0.1; };
  file "example.test.bk";
  allow-notify { 127.0.0.1; };
};
C
$B serve --config cfg.yaml > primary.log 2>&1 & PRIM=$!
sleep 0.5
nsd -d -c nsd/nsd.conf > nsd/out.log 2>&1 & NSDP=$!
knotd -c knot/knot.conf > knot/out.log 2>&1 & KNOTP=$!
named -g -4 -n 1 -c bind/named.conf > bind/out.log 2>&1 & BINDP=$!
sleep 3
for p in $NSD $KNOT $BIND; do echo "port $p: $(dig +short @127.0.0.1 -p $p example.test SOA)"; done
N=${N:-10}
for i in $(seq 1 $N); do
  addr="198.51.100.$i"
  t0=$(date +%s%N)
  $B set example.test www A $addr --control 127.0.0.1:$P_CTL > /dev/null
  t1=$(date +%s%N)
  declare -A done_at=()
  while [ ${#done_at[@]} -lt 3 ]; do
    now=$(date +%s%N)
    [ $(( (now - t0) / 1000000 )) -gt 20000 ] && break
    for p in $NSD $KNOT $BIND; do
      [ -n "${done_at[$p]:-}" ] && continue
      if [ "$(dig +short +tries=1 +time=1 @127.0.0.1 -p $p www.example.test A)" = "$addr" ]; then done_at[$p]=$(( ($(date +%s%N) - t1) / 1000000 )); fi
    done
  done
  echo "write $i ack_ms=$(( (t1-t0)/1000000 )) nsd_ms=${done_at[$NSD]:-timeout} knot_ms=${done_at[$KNOT]:-timeout} bind_ms=${done_at[$BIND]:-timeout}"
  unset done_at
done
grep -c "xfr.ixfr " primary.log; grep -c "xfr.axfr" primary.log; grep -c ixfr_fallback primary.log
kill $NSDP $KNOTP $BINDP $PRIM
echo dir=$D
