# Deterministic benchmark data: a zone of N host names and a query file with the issue's
# mix (89 % A hits, 1 % other positive types, 5 % NXDOMAIN, 5 % NODATA).
# The same arguments always produce byte-identical files.
import os
import random
import subprocess

ORIGIN = "bench.test."
SEED = 20240501
NEGATIVE_TTL = 300

# Which host indexes carry extra types; A is on every host.
AAAA_EVERY, TXT_EVERY, MX_EVERY, CNAME_EVERY = 50, 50, 100, 100
TXT_OFFSET, MX_OFFSET = 25, 10


def host(i):
    return f"h{i}.{ORIGIN}"


def host_address(i):
    return f"10.{(i >> 16) & 255}.{(i >> 8) & 255}.{i & 255}"


def write_zone(path, names):
    """Writes the zone; `names` is the number of host names (h0 .. h{names-1})."""
    with open(path, "w") as out:
        out.write(f"$ORIGIN {ORIGIN}\n$TTL 3600\n")
        out.write(f"@ 3600 IN SOA ns1.{ORIGIN} hostmaster.{ORIGIN} 1 3600 900 604800 {NEGATIVE_TTL}\n")
        out.write(f"@ IN NS ns1.{ORIGIN}\n@ IN NS ns2.{ORIGIN}\n")
        out.write("ns1 IN A 192.0.2.1\nns2 IN A 192.0.2.2\nmail IN A 192.0.2.25\n")
        for i in range(names):
            out.write(f"h{i} IN A {host_address(i)}\n")
            if i % AAAA_EVERY == 0:
                out.write(f"h{i} IN AAAA 2001:db8::{i >> 16:x}:{i & 0xFFFF:x}\n")
            if i % TXT_EVERY == TXT_OFFSET:
                out.write(f'h{i} IN TXT "bench {i}"\n')
            if i % MX_EVERY == MX_OFFSET:
                out.write(f"h{i} IN MX 10 mail.{ORIGIN}\n")
            if i % CNAME_EVERY == 0:
                out.write(f"c{i} IN CNAME h{i}\n")


def sign_zone(path, workdir):
    """Signs the zone at `path` with dnssec-signzone (bind9-utils): ECDSA P-256 KSK and ZSK,
    NSEC3 without salt or extra iterations (RFC 9276), signatures valid 2026-12-01 to
    2037-12-01. Returns the signed file's path, which every server loads as it is."""
    keys = []
    for flags in (["-f", "KSK"], []):
        out = subprocess.run(["dnssec-keygen", "-q", "-L", "3600", "-a", "ECDSAP256SHA256", *flags, "-n", "ZONE",
                              ORIGIN], cwd=workdir, capture_output=True, text=True, check=True)
        keys.append(out.stdout.strip())
    unsigned = os.path.join(workdir, "bench.unsigned.zone")
    with open(path) as zone, open(unsigned, "w") as out:
        out.write(zone.read())
        for key in keys:
            out.write(f"$INCLUDE {os.path.join(workdir, key)}.key\n")
    signed = os.path.join(workdir, "bench.test.signed")
    subprocess.run(["dnssec-signzone", "-q", "-3", "-", "-H", "0", "-o", ORIGIN, "-s", "20261201000000",
                    "-e", "20371201000000", "-K", workdir, "-f", signed, unsigned], cwd=workdir,
                   capture_output=True, text=True, check=True)
    return signed


def write_queries(path, names, count=100_000):
    """Writes `count` dnsperf query lines ("NAME TYPE") in a fixed pseudo-random order."""
    rng = random.Random(SEED)
    lines = []
    for _ in range(count):
        roll = rng.random()
        if roll < 0.89:
            lines.append(f"{host(rng.randrange(names))} A")
        elif roll < 0.90:
            kind = rng.randrange(3)
            if kind == 0:
                lines.append(f"{host(rng.randrange(0, names, AAAA_EVERY))} AAAA")
            elif kind == 1:
                lines.append(f"{host(rng.randrange(TXT_OFFSET, names, TXT_EVERY))} TXT")
            else:
                lines.append(f"{host(rng.randrange(MX_OFFSET, names, MX_EVERY))} MX")
        elif roll < 0.95:
            lines.append(f"nx{rng.randrange(names)}.{ORIGIN} A")
        else:
            i = rng.randrange(names)
            if i % AAAA_EVERY == 0:
                i = (i + 1) % names
            lines.append(f"{host(i)} AAAA")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def sanity_cases(names):
    """(label, qname, qtype, transport, check) for every server before it is loaded.

    check(reply) returns None when the reply is right, else what is wrong."""
    last = names - 1
    mx_host = MX_OFFSET
    txt_host = TXT_OFFSET

    def answer_types(reply):
        return [rr.type for rr in reply.answer]

    def a_of(i):
        def check(reply):
            if reply.rcode != 0:
                return f"rcode {reply.rcode}"
            got = [rr.a_text() for rr in reply.answer if rr.type == 1]
            if got != [host_address(i)]:
                return f"A {got}"
            if reply.authority or reply.additional:
                return "not minimal: unsolicited authority/additional records"
            return None
        return check

    def negative(rcode):
        def check(reply):
            if reply.rcode != rcode:
                return f"rcode {reply.rcode}, want {rcode}"
            if reply.answer or [rr.type for rr in reply.authority] != [6]:
                return "want empty answer and the SOA in authority"
            return None
        return check

    def has_types(*types):
        def check(reply):
            if reply.rcode != 0 or answer_types(reply)[: len(types)] != list(types):
                return f"rcode {reply.rcode}, answer types {answer_types(reply)}"
            return None
        return check

    return [
        ("A", host(last), "A", "udp", a_of(last)),
        ("SOA", ORIGIN, "SOA", "udp", has_types(6)),
        ("NXDOMAIN", f"nx.{ORIGIN}", "A", "udp", negative(3)),
        ("NODATA", host(1), "AAAA", "udp", negative(0)),
        # gdnsd does not chase the CNAME inside its zone, so only the CNAME itself is required.
        ("CNAME", f"c0.{ORIGIN}", "A", "udp", has_types(5)),
        ("MX", host(mx_host), "MX", "udp", has_types(15)),
        ("TXT", host(txt_host), "TXT", "udp", has_types(16)),
        ("TCP", host(last), "A", "tcp", a_of(last)),
    ]


# The perf gate's pools (scripts/perf-gate.sh): the first POOL_NAMES hosts of the zone, a
# third each failover, all-healthy and weighted, two addresses each, in the
# "OWNER SHAPE ADDRESS..." lines cutover_answer_replay --pools reads.
POOL_NAMES = 1000
POOL_SHAPES = ("failover", "all-healthy", "weighted")


def write_pools(path, count=POOL_NAMES):
    with open(path, "w") as out:
        for i in range(count):
            shape = POOL_SHAPES[i % len(POOL_SHAPES)]
            out.write(f"{host(i)} {shape} 192.0.2.{i % 250 + 1} 198.51.100.{i % 250 + 1}\n")


def write_pool_queries(path, count, names=POOL_NAMES):
    """`count` A queries for the pool owners h0 .. h{names-1}, in a fixed pseudo-random order:
    answered by the pools with --pools, and by the zone's own A records without."""
    rng = random.Random(SEED + 1)
    with open(path, "w") as out:
        out.write("".join(f"{host(rng.randrange(names))} A\n" for _ in range(count)))
