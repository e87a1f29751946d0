# A minimal DNS stub for the benchmark's sanity checks and load-time polling: builds one
# query, sends it over UDP or TCP to 127.0.0.1 and decodes the sections it needs.
# Not a general parser: enough to tell a right answer from a wrong one.
import random
import socket
import struct

TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "MX": 15, "TXT": 16, "AAAA": 28}


class Record:
    def __init__(self, name, rtype, ttl, rdata):
        self.name, self.type, self.ttl, self.rdata = name, rtype, ttl, rdata

    def a_text(self):
        return socket.inet_ntop(socket.AF_INET, self.rdata) if self.type == 1 and len(self.rdata) == 4 else ""


class Reply:
    def __init__(self, rcode, answer, authority, additional, size):
        self.rcode, self.answer, self.authority, self.additional, self.size = rcode, answer, authority, additional, size


def _encode_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        if label:
            out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def build_query(qname, qtype, query_id):
    header = struct.pack("!HHHHHH", query_id, 0, 1, 0, 0, 0)
    return header + _encode_name(qname) + struct.pack("!HH", TYPES[qtype], 1)


def _skip_name(wire, pos):
    while True:
        length = wire[pos]
        if length == 0:
            return pos + 1
        if length & 0xC0 == 0xC0:
            return pos + 2
        pos += 1 + length


def parse_reply(wire, query_id):
    """The decoded reply, or None when it is not a reply to `query_id`."""
    if len(wire) < 12:
        return None
    rid, flags, qd, an, ns, ar = struct.unpack("!HHHHHH", wire[:12])
    if rid != query_id or not flags & 0x8000:
        return None
    pos = 12
    for _ in range(qd):
        pos = _skip_name(wire, pos) + 4
    sections = []
    for count in (an, ns, ar):
        records = []
        for _ in range(count):
            pos = _skip_name(wire, pos)
            rtype, _klass, ttl, length = struct.unpack("!HHIH", wire[pos : pos + 10])
            pos += 10
            if rtype != 41:  # OPT is not data
                records.append(Record("", rtype, ttl, wire[pos : pos + length]))
            pos += length
        sections.append(records)
    return Reply(flags & 0x0F, sections[0], sections[1], sections[2], len(wire))


def ask(port, qname, qtype, transport="udp", timeout=1.0):
    """One query to 127.0.0.1:port; the Reply, or None on timeout, refusal or garbage."""
    query_id = random.randrange(65536)
    query = build_query(qname, qtype, query_id)
    try:
        if transport == "tcp":
            with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
                sock.sendall(struct.pack("!H", len(query)) + query)
                data = b""
                while len(data) < 2 or len(data) < 2 + struct.unpack("!H", data[:2])[0]:
                    chunk = sock.recv(65535)
                    if not chunk:
                        return None
                    data += chunk
                return parse_reply(data[2:], query_id)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(timeout)
            # Connected, so a port nobody listens on yet fails at once (ICMP port unreachable)
            # instead of after the timeout: load times are then measured to the poll interval.
            sock.connect(("127.0.0.1", port))
            sock.send(query)
            while True:
                data = sock.recv(65535)
                reply = parse_reply(data, query_id)
                if reply is not None:
                    return reply
    except (OSError, struct.error, IndexError):
        return None
