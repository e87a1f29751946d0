#!/usr/bin/env python3
"""Captures seed inputs for the fuzz targets from real programs on loopback.

Starts a real Knot DNS primary (knotd) on 127.0.0.1 with the zone of fuzz/fuzz_zone.h, its
journal and two TSIG keys, puts small recording proxies (UDP, TCP) in front of it, and drives
it with the real clients: nsupdate (signed UPDATEs, which Knot journals, so IXFR has deltas
to send), dig and kdig (TSIG-signed queries, AXFR, IXFR over TCP). With --cutover BINARY it
also starts `cutover serve` with the control API behind a recording HTTP proxy and drives it
with the `cutover set/delete/undo/pool` commands (control API bodies). What the proxies saw
is written under fuzz/corpus/TARGET/ as *.bin / *.json files:

  update_message   the UPDATE requests as nsupdate sent them
  tsig_record      every signed request and signed reply (UPDATE, query, AXFR messages)
  transfer_stream  0x00 + AXFR reply stream, 0x01 + IXFR reply stream (fuzz/transfer_stream.cpp)
  tcp_framing      0x00 + each TCP byte stream, both directions
  parse_message    the replies
  control_json     the request bodies the cutover CLI sent

Usage: fuzz/capture_corpus.py [--cutover BINARY] [OUT_DIR]   (default OUT_DIR: fuzz/corpus)
Everything it starts is stopped by PID; every wait is bounded.
"""
import base64
import os
import re
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KEY256 = ("fuzz-key", "hmac-sha256", "Zm9yLWZ1enppbmctdGhlLXRzaWctcGFyc2VyLTAwMDE=")
KEY512 = ("fuzz-key-512", "hmac-sha512", "Zm9yLWZ1enppbmctdGhlLXRzaWctcGFyc2VyLTUxMi0wMDAy")
TIMEOUT = 10


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def zone_text():
    with open(os.path.join(HERE, "fuzz_zone.h")) as handle:
        return re.search(r'R"zone\((.*?)\)zone"', handle.read(), re.S).group(1)


class UdpProxy(threading.Thread):
    """Forwards each datagram to the server and records (request, reply) pairs."""

    def __init__(self, upstream):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.upstream = upstream
        self.pairs = []
        self.stop = False

    def run(self):
        while not self.stop:
            ready, _, _ = select.select([self.sock], [], [], 0.2)
            if not ready:
                continue
            request, client = self.sock.recvfrom(65535)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as up:
                up.settimeout(TIMEOUT)
                up.sendto(request, self.upstream)
                try:
                    reply = up.recv(65535)
                except socket.timeout:
                    reply = b""
            self.pairs.append((request, reply))
            if reply:
                self.sock.sendto(reply, client)


class TcpProxy(threading.Thread):
    """Forwards TCP connections and records each direction's byte stream."""

    def __init__(self, upstream):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.upstream = upstream
        self.streams = []  # (client->server bytes, server->client bytes)
        self.stop = False

    def run(self):
        while not self.stop:
            ready, _, _ = select.select([self.sock], [], [], 0.2)
            if not ready:
                continue
            client, _ = self.sock.accept()
            up = socket.create_connection(self.upstream, timeout=TIMEOUT)
            sent, received = bytearray(), bytearray()
            deadline = time.time() + TIMEOUT
            open_ends = {client: (up, sent), up: (client, received)}
            while open_ends and time.time() < deadline:
                ready, _, _ = select.select(list(open_ends), [], [], 0.5)
                for end in ready:
                    data = end.recv(65535)
                    other, record = open_ends[end]
                    if not data:
                        del open_ends[end]
                        try:
                            other.shutdown(socket.SHUT_WR)
                        except OSError:
                            pass
                        continue
                    record += data
                    other.sendall(data)
            client.close()
            up.close()
            self.streams.append((bytes(sent), bytes(received)))


def frames(stream):
    """Splits a DNS-over-TCP byte stream into messages (RFC 1035 §4.2.2)."""
    out, pos = [], 0
    while pos + 2 <= len(stream):
        length = int.from_bytes(stream[pos:pos + 2], "big")
        if pos + 2 + length > len(stream):
            break
        out.append(stream[pos + 2:pos + 2 + length])
        pos += 2 + length
    return out


def has_tsig(message):
    """True when the last additional record is a TSIG (type 250): a cheap tail check."""
    return len(message) > 12 and int.from_bytes(message[10:12], "big") > 0 and b"\x00\xfa\x00\xff" in message


def run(command, stdin=None):
    result = subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=30)
    return result.returncode, result.stdout + result.stderr


def start_knot(work, port):
    """knotd as the primary of example.test: UPDATE and transfers allowed from 127.0.0.1."""
    keys = "".join(f"  - id: {n}\n    algorithm: {a}\n    secret: {s}\n" for n, a, s in (KEY256, KEY512))
    config = f"""server:
  rundir: {work}
  listen: 127.0.0.1@{port}
  udp-workers: 1
  tcp-workers: 1
  background-workers: 1
database:
  storage: {work}
key:
{keys}acl:
  - id: update
    address: 127.0.0.1
    key: [fuzz-key, fuzz-key-512]
    action: update
  - id: transfer
    address: 127.0.0.1
    action: transfer
template:
  - id: default
    storage: {work}
    zonefile-sync: -1
    journal-content: changes
    semantic-checks: off
zone:
  - domain: example.test
    file: example.test.zone
    acl: [update, transfer]
"""
    with open(os.path.join(work, "knot.conf"), "w") as handle:
        handle.write(config)
    return subprocess.Popen(["knotd", "-c", os.path.join(work, "knot.conf")], stdout=subprocess.DEVNULL,
                            stderr=open(os.path.join(work, "knotd.log"), "w"))


def start_cutover(cutover, work, dns_port, control_port):
    """cutover serve with its control API, for the API bodies."""
    config = f"""listen: ["127.0.0.1:{dns_port}"]
control:
  listen: 127.0.0.1:{control_port}
writes:
  journal: {work}/journal.db
zones:
  - origin: example.test
    file: {work}/example.test.zone
  - origin: pool.test           # the same relative text: the pool API's zone
    file: {work}/example.test.zone
"""
    with open(os.path.join(work, "cutover.yaml"), "w") as handle:
        handle.write(config)
    return subprocess.Popen([cutover, "serve", "--config", os.path.join(work, "cutover.yaml")],
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "serve.log"), "w"))


def wait_for(port):
    for _ in range(100):
        code, _ = run(["dig", "+short", "+tries=1", "+time=1", "-p", str(port), "@127.0.0.1", "example.test", "SOA"])
        if code == 0:
            return
        time.sleep(0.1)


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=TIMEOUT)


def drive_dns(u, t):
    y256 = "{1}:{0}:{2}".format(*KEY256)
    y512 = "{1}:{0}:{2}".format(*KEY512)
    updates = [
        (y256, "update add new.example.test. 300 A 192.0.2.99\nupdate add new.example.test. 300 AAAA 2001:db8::99\n"),
        (y256, "prereq yxdomain mail.example.test.\nupdate delete www.example.test. A 192.0.2.2\n"),
        (y512, "prereq nxrrset txt.example.test. MX\nupdate add txt.example.test. 600 TXT \"second\" \"string\"\n"),
        (y256, "prereq yxrrset www.example.test. A\nprereq nxdomain gone.example.test.\n"
               "update delete alias.example.test.\nupdate add alias.example.test. 300 CNAME mail.example.test.\n"),
        (y256, "update add example.test. 300 MX 20 new.example.test.\n"
               "update add _sip._tcp.example.test. 300 SRV 20 0 5060 new.example.test.\n"),
        (y512, "update delete txt.example.test. TXT\n"),
    ]
    for key, body in updates:
        run(["nsupdate", "-y", key], f"server 127.0.0.1 {u}\nzone example.test\n{body}send\n")
    run(["nsupdate", "-v", "-y", y256],
        f"server 127.0.0.1 {t}\nzone example.test\nupdate add tcp.example.test. 60 A 192.0.2.60\nsend\n")
    run(["nsupdate"], f"server 127.0.0.1 {u}\nzone example.test\nupdate add unsigned.example.test. 60 A 192.0.2.7\nsend\n")
    run(["knsupdate", "-y", y256], f"server 127.0.0.1 {u}\nzone example.test\n"
        "update add knsupdate.example.test. 120 TXT \"from knsupdate\"\nsend\n")

    run(["dig", "+tries=1", "-y", y256, "-p", u, "@127.0.0.1", "www.example.test", "A"])
    run(["dig", "+tries=1", "+tcp", "-y", y512, "-p", t, "@127.0.0.1", "example.test", "MX"])
    run(["kdig", "+retry=0", "-y", y256, "-p", u, "@127.0.0.1", "new.example.test", "AAAA"])
    run(["kdig", "+retry=0", "+tcp", "-p", t, "@127.0.0.1", "_sip._tcp.example.test", "SRV"])
    run(["dig", "+tries=1", "-p", t, "@127.0.0.1", "example.test", "AXFR"])
    run(["dig", "+tries=1", "-y", y256, "-p", t, "@127.0.0.1", "example.test", "AXFR"])
    run(["kdig", "+retry=0", "-p", t, "@127.0.0.1", "example.test", "AXFR"])
    run(["dig", "+tries=1", "+tcp", "-p", t, "@127.0.0.1", "example.test", "IXFR=2024010101"])
    run(["dig", "+tries=1", "+tcp", "-y", y512, "-p", t, "@127.0.0.1", "example.test", "IXFR=2024010101"])
    run(["dig", "+tries=1", "+tcp", "-p", t, "@127.0.0.1", "example.test", "IXFR=2024010104"])
    run(["kdig", "+retry=0", "-p", t, "@127.0.0.1", "example.test", "IXFR=2024010103"])


def drive_control(cutover, h):
    control = ["--control", f"127.0.0.1:{h}"]
    run([cutover, "set", "example.test", "api", "A", "192.0.2.70", "192.0.2.71", "--ttl", "120", *control])
    run([cutover, "set", "example.test", "api", "TXT", '"hello world"', "--add", "--expected-version", "9",
         "--who", "fuzz-capture", *control])
    run([cutover, "set", "example.test", "api6", "AAAA", "2001:db8::70", "--dry-run", *control])
    run([cutover, "delete", "example.test", "api", "A", *control])
    run([cutover, "undo", "example.test", "--to", "1", *control])
    settings = ('{"name": "web.pool.test.", "ttl": 30, "check": {"type": "tcp", "interval": "1s", "timeout": "500ms"},'
                ' "endpoints": [{"address": "127.0.0.61", "port": 80, "priority": 1},'
                ' {"address": "127.0.0.62", "port": 80, "priority": 2}]}')
    run([cutover, "pool", "set", "web", settings, "--expected-version", "0", *control])
    run([cutover, "pool", "patch", "web", '{"ttl": 60, "check": {"interval": "2s"}}', *control])
    run([cutover, "pool", "drain", "web", "127.0.0.61", *control])
    run([cutover, "pool", "undo", "web", "--to", "1", "--plan-version", "4", *control])
    run([cutover, "pool", "delete", "web", "--allow-empty", *control])


def main():
    args = sys.argv[1:]
    cutover = None
    if args[:1] == ["--cutover"]:
        cutover = os.path.abspath(args[1])
        args = args[2:]
    out = args[0] if args else os.path.join(HERE, "corpus")
    work = tempfile.mkdtemp(prefix="cutover-capture-")
    with open(os.path.join(work, "example.test.zone"), "w") as handle:
        handle.write("$ORIGIN example.test.\n" + zone_text())
    dns_port = free_port()
    knot = start_knot(work, dns_port)
    udp = UdpProxy(("127.0.0.1", dns_port))
    tcp = TcpProxy(("127.0.0.1", dns_port))
    try:
        wait_for(dns_port)
        udp.start()
        tcp.start()
        drive_dns(str(udp.port), str(tcp.port))
    finally:
        udp.stop = tcp.stop = True
        stop(knot)
    udp.join(timeout=TIMEOUT)
    tcp.join(timeout=TIMEOUT)
    http_streams = []
    if cutover:
        cutover_dns, control_port = free_port(), free_port()
        with open(os.path.join(work, "example.test.zone"), "w") as handle:
            handle.write(zone_text())
        server = start_cutover(cutover, work, cutover_dns, control_port)
        http = TcpProxy(("127.0.0.1", control_port))
        try:
            wait_for(cutover_dns)
            http.start()
            drive_control(cutover, str(http.port))
        finally:
            http.stop = True
            stop(server)
        http.join(timeout=TIMEOUT)
        http_streams = http.streams

    written = {}

    def save(target, label, data, ext=".bin"):
        if not data:
            return
        directory = os.path.join(out, target)
        os.makedirs(directory, exist_ok=True)
        count = written.setdefault((target, label), 0)
        written[(target, label)] = count + 1
        with open(os.path.join(directory, f"{label}_{count + 1}{ext}"), "wb") as handle:
            handle.write(data)

    for request, reply in udp.pairs:
        opcode = (request[2] >> 3) & 0xF if len(request) > 2 else 0
        if opcode == 5:
            save("update_message", "nsupdate", request)
        if has_tsig(request):
            save("tsig_record", "signed_update" if opcode == 5 else "signed_query", request)
        if reply:
            save("parse_message", "knot_reply", reply)
            if has_tsig(reply):
                save("tsig_record", "signed_reply", reply)
    for sent, received in tcp.streams:
        save("tcp_framing", "client_stream", b"\x00" + sent)
        save("tcp_framing", "server_stream", b"\x00" + received)
        queries = frames(sent)
        if not queries:
            continue
        qtype = None
        q = queries[0]
        # The question's type follows the first name, which starts at offset 12.
        pos = 12
        while pos < len(q) and q[pos] != 0:
            pos += 1 + q[pos]
        if pos + 3 <= len(q):
            qtype = int.from_bytes(q[pos + 1:pos + 3], "big")
        opcode = (q[2] >> 3) & 0xF
        if opcode == 5:
            save("update_message", "nsupdate_tcp", q)
        if qtype in (251, 252):
            save("transfer_stream", "ixfr" if qtype == 251 else "axfr", (b"\x01" if qtype == 251 else b"\x00") + received)
        for message in queries + frames(received):
            if has_tsig(message):
                save("tsig_record", "tcp_signed", message)
        for message in frames(received)[:4]:
            save("parse_message", "knot_tcp_reply", message)
    for sent, _ in http_streams:
        head, _, body = sent.partition(b"\r\n\r\n")
        if body.strip():
            save("control_json", "cli_body", body, ".json")
    for (target, label), count in sorted(written.items()):
        print(f"{target}/{label}_*: {count}")
    print(f"logs in {work}")

if __name__ == "__main__":
    main()
