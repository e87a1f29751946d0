# The write benchmark (bench/compare --writes): DNS UPDATE throughput and server CPU per write
# for cutover, BIND and Knot, each serving the bench zone at several sizes with the same TSIG
# key, and cutover's HTTP write API latency. One nsupdate session sends one UPDATE (one added
# A record) per `send` and waits for each reply, so a write is acknowledged before the next.
# What each server promises when it acknowledges (docs/performance.md, "Writes"):
# - cutover: the journal entry is fsynced (SQLite, synchronous=FULL) before the reply.
# - Knot: the change is committed to its journal (LMDB, journal-db-mode robust, its default,
#   which knot.conf(5) describes as synchronized to disk), set explicitly below.
# - BIND: the change is appended to the zone's .jnl file and fsynced (strace of named 9.18.49:
#   two fsync calls per UPDATE).
import json
import os
import statistics
import subprocess
import time
import urllib.request

from . import dnsprobe, measure, servers, zonegen

SECRET = "Y3V0b3Zlci11cGRhdGUta2V5LTMyLWJ5dGVzLWxvbmc="
KEY = "update-key"
ORIGIN = zonegen.ORIGIN.rstrip(".")


_write = servers.write_file


def _cutover(binary):
    def configure(workdir, zone, port):
        control = port + 1
        _write(os.path.join(workdir, "config.yaml"), f"""listen: 127.0.0.1:{port}
control: {{listen: "127.0.0.1:{control}"}}
writes:
  journal: {workdir}/journal.db
  tsig-keys:
    - {{name: {KEY}, algorithm: hmac-sha256, secret: "{SECRET}"}}
zones:
  - origin: {ORIGIN}.
    file: {zone}
    allow-update: [{KEY}]
""")
        return [binary, "serve", "--config", os.path.join(workdir, "config.yaml"), "--log-level", "warn"], control
    return configure


def _bind(workdir, zone, port):
    local = os.path.join(workdir, "zone.db")  # named writes its .jnl next to the zone file
    with open(zone) as source, open(local, "w") as out:
        out.write(source.read())
    _write(os.path.join(workdir, "named.conf"), servers.named_options(workdir, port, minimal_responses=False) + f"""key "{KEY}" {{ algorithm hmac-sha256; secret "{SECRET}"; }};
zone "{ORIGIN}" {{ type primary; file "{local}"; allow-update {{ key {KEY}; }}; }};
""")
    return ["named", "-g", "-4", "-n", "1", "-U", "1", "-c", os.path.join(workdir, "named.conf")], None


def _knot(workdir, zone, port):
    _write(os.path.join(workdir, "knot.conf"), f"""server:
  listen: 127.0.0.1@{port}
  rundir: "{workdir}"
  udp-workers: 1
  tcp-workers: 1
  background-workers: 1
database:
  storage: "{workdir}"
  journal-db-mode: robust
log:
  - target: stderr
    any: warning
key:
  - id: {KEY}
    algorithm: hmac-sha256
    secret: {SECRET}
acl:
  - id: update
    key: {KEY}
    action: update
template:
  - id: default
    storage: "{workdir}"
    journal-content: changes
    zonefile-sync: -1
    zonefile-load: whole
    semantic-checks: off
zone:
  - domain: {ORIGIN}
    file: "{zone}"
    acl: update
""")
    return ["knotd", "-c", os.path.join(workdir, "knot.conf")], None


def writers(cutover_binary):
    """name -> (binary to look for, configure(workdir, zone, port) -> (argv, control port or None))."""
    return {"cutover": (cutover_binary, _cutover(cutover_binary)), "bind": ("named", _bind), "knot": ("knotd", _knot)}


def _wait_ready(proc, port, timeout=900):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode} before answering")
        reply = dnsprobe.ask(port, f"h0.{ORIGIN}.", "A", timeout=0.2)
        if reply is not None and reply.answer:
            return
        time.sleep(0.05)
    raise RuntimeError("server did not answer in time")


def _nsupdate(port, names, first, cores, workdir):
    script = os.path.join(workdir, "updates.txt")
    with open(script, "w") as out:
        out.write(f"server 127.0.0.1 {port}\nzone {ORIGIN}\n")
        for i in range(first, first + names):
            out.write(f"update add w{i}.{ORIGIN}. 60 A 198.51.{i // 256 % 256}.{i % 256}\nsend\n")
    argv = ["taskset", "-c", ",".join(map(str, sorted(cores))), "nsupdate", "-t", "10",
            "-y", f"hmac-sha256:{KEY}:{SECRET}", script]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=3600)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"nsupdate failed ({proc.returncode}): {proc.stderr.strip()[:500]}")
    return elapsed


def _api_latencies(control, count, first):
    """Seconds per POST /zones/Z/records of one added A record, each waited for."""
    url = f"http://127.0.0.1:{control}/zones/{ORIGIN}./records"
    out = []
    for i in range(first, first + count):
        body = {"edits": [{"op": "add", "name": f"api{i}", "type": "A", "ttl": 60,
                           "data": f"203.0.{i // 256 % 256}.{i % 256}"}]}
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        start = time.monotonic()
        with urllib.request.urlopen(request, timeout=60) as reply:
            reply.read()
            if reply.status != 200:
                raise RuntimeError(f"API write returned {reply.status}")
        out.append(time.monotonic() - start)
    return out


def one(name, configure, size, writes, api_writes, workdir, port, cores):
    """One server at one zone size: writes/s, CPU per write, present count, API latencies."""
    os.makedirs(workdir, exist_ok=True)
    zone = os.path.join(workdir, "bench.zone")
    zonegen.write_zone(zone, size)
    argv, control = configure(workdir, zone, port)
    log = open(os.path.join(workdir, "server.log"), "w")
    proc = subprocess.Popen(["taskset", "-c", ",".join(map(str, sorted(cores["server"])))] + argv,
                            stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    try:
        _wait_ready(proc, port)
        _nsupdate(port, 5, 0, cores["client"], workdir)  # warm-up: first journal writes, sessions
        user0, sys0 = measure.cpu_seconds(proc.pid)
        elapsed = _nsupdate(port, writes, 5, cores["client"], workdir)
        user1, sys1 = measure.cpu_seconds(proc.pid)
        present = sum(1 for i in range(5, 5 + writes)
                      if (reply := dnsprobe.ask(port, f"w{i}.{ORIGIN}.", "A", timeout=2.0)) and reply.answer)
        result = {"server": name, "size": size, "writes": writes, "seconds": elapsed,
                  "per_second": writes / elapsed, "cpu_ms": (user1 - user0 + sys1 - sys0) / writes * 1000,
                  "present": present}
        if control is not None and api_writes:
            latencies = sorted(_api_latencies(control, api_writes, 0))
            result["api_p50_ms"] = statistics.median(latencies) * 1000
            result["api_p99_ms"] = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
        return result
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def table(results, versions):
    lines = ["| server | names | writes | writes/s | server CPU ms/write | present | API p50 / p99 ms |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        api = f"{r['api_p50_ms']:.2f} / {r['api_p99_ms']:.2f}" if "api_p50_ms" in r else "–"
        lines.append(f"| {r['server']} {versions.get(r['server'], '')} | {r['size']:,} | {r['writes']} | "
                     f"{r['per_second']:.0f} | {r['cpu_ms']:.2f} | {r['present']} of {r['writes']} | {api} |")
    sizes = sorted({r["size"] for r in results})
    ours = {r["size"]: r for r in results if r["server"] == "cutover"}
    if len(ours) > 1:
        base = ours[sizes[0]]["cpu_ms"]
        lines.append("")
        lines.append("cutover CPU per write against the smallest zone: " + ", ".join(
            f"{size:,} names {ours[size]['cpu_ms'] / base:.2f} ×" for size in sizes if size in ours))
    for size in sizes:
        row = {r["server"]: r for r in results if r["size"] == size}
        if "cutover" in row:
            others = [f"{name} {row['cutover']['per_second'] / row[name]['per_second']:.2f} ×"
                      for name in row if name != "cutover"]
            if others:
                lines.append(f"- {size:,} names, cutover writes/s ÷ " + ", ".join(others))
    return "\n".join(lines)
