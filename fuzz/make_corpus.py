#!/usr/bin/env python3
"""Writes the seed corpus for the parse_message fuzzer: real-shaped DNS queries and
responses (RFC 1035 wire format, with compression pointers, EDNS and DNSSEC records).
Usage: fuzz/make_corpus.py [DIR]   (default: fuzz/corpus/parse_message next to this script)."""
import os
import struct
import sys


def name(text, pointers=None, offset=0):
    """Encodes `text`; with `pointers` (suffix -> offset) it compresses like a server would."""
    labels = [l for l in text.rstrip(".").split(".") if l]
    out = b""
    for i in range(len(labels)):
        suffix = ".".join(labels[i:]).lower()
        if pointers is not None and suffix in pointers:
            return out + struct.pack("!H", 0xC000 | pointers[suffix])
        if pointers is not None and offset + len(out) < 0x4000:
            pointers[suffix] = offset + len(out)
        out += bytes([len(labels[i])]) + labels[i].encode()
    return out + b"\0"


class Msg:
    def __init__(self, ident, flags):
        self.ident, self.flags = ident, flags
        self.body = b""
        self.counts = [0, 0, 0, 0]
        self.pointers = {}

    def name(self, text):
        return name(text, self.pointers, 12 + len(self.body))

    def question(self, qname, qtype, qclass=1):
        self.body += self.name(qname) + struct.pack("!HH", qtype, qclass)
        self.counts[0] += 1

    def rr(self, section, owner, rtype, ttl, rdata_parts, rclass=1):
        self.body += self.name(owner) + struct.pack("!HHI", rtype, rclass, ttl)
        length_at = len(self.body)
        self.body += b"\0\0"
        for part in rdata_parts:
            # Strings starting with '@' are names compressed against the message so far.
            self.body += self.name(part[1:]) if isinstance(part, str) else part
        rdlength = len(self.body) - length_at - 2
        self.body = self.body[:length_at] + struct.pack("!H", rdlength) + self.body[length_at + 2:]
        self.counts[section] += 1

    def opt(self, udp=1232, do=False, options=b""):
        self.body += b"\0" + struct.pack("!HHIH", 41, udp, 0x8000 if do else 0, len(options)) + options
        self.counts[3] += 1

    def wire(self):
        return struct.pack("!HHHHHH", self.ident, self.flags, *self.counts) + self.body


def plain(text):
    return name(text)


def strings(*items):
    return b"".join(bytes([len(s)]) + s.encode() for s in items)


def u16(v):
    return struct.pack("!H", v)


def u32(v):
    return struct.pack("!I", v)


def build():
    out = {}
    q = Msg(0x1234, 0x0100)
    q.question("www.example.com.", 1)
    out["query_a"] = q.wire()

    q = Msg(0x2345, 0x0100)
    q.question("example.com.", 28)
    q.opt(4096, do=True, options=u16(10) + u16(8) + bytes(range(8)))
    out["query_aaaa_edns_cookie"] = q.wire()

    r = Msg(0x3456, 0x8580)
    r.question("www.example.com.", 1)
    r.rr(1, "www.example.com.", 5, 300, ["@web.example.com."])
    r.rr(1, "web.example.com.", 1, 300, [bytes([192, 0, 2, 10])])
    r.rr(1, "web.example.com.", 1, 300, [bytes([192, 0, 2, 11])])
    r.opt()
    out["response_cname_a"] = r.wire()

    r = Msg(0x4567, 0x8583)
    r.question("nope.example.com.", 1)
    r.rr(2, "example.com.", 6, 3600, ["@ns1.example.com.", "@hostmaster.example.com.",
                                      u32(2024010101) + u32(7200) + u32(900) + u32(1209600) + u32(300)])
    r.opt(1232, do=True)
    out["response_nxdomain_soa"] = r.wire()

    r = Msg(0x5678, 0x8500)
    r.question("example.com.", 15)
    r.rr(1, "example.com.", 15, 300, [u16(10), "@mx1.example.com."])
    r.rr(1, "example.com.", 15, 300, [u16(20), "@mx2.example.net."])
    r.rr(2, "example.com.", 2, 3600, ["@ns1.example.com."])
    r.rr(3, "mx1.example.com.", 1, 300, [bytes([198, 51, 100, 1])])
    r.rr(3, "mx1.example.com.", 28, 300, [bytes.fromhex("20010db8000000000000000000000001")])
    out["response_mx_additional"] = r.wire()

    r = Msg(0x6789, 0x8400)
    r.question("example.com.", 16)
    r.rr(1, "example.com.", 16, 300, [strings("v=spf1 -all")])
    r.rr(1, "example.com.", 16, 300, [strings("two", "strings with \"quotes\"", "")])
    r.rr(1, "example.com.", 13, 300, [strings("PC", "Linux")])
    out["response_txt_hinfo"] = r.wire()

    r = Msg(0x789A, 0x8400)
    r.question("_sip._tcp.example.com.", 33)
    r.rr(1, "_sip._tcp.example.com.", 33, 300, [u16(10) + u16(60) + u16(5060) + plain("sip.example.com.")])
    r.rr(1, "example.com.", 35, 300, [u16(100) + u16(10) + strings("u", "E2U+sip", "!^.*$!sip:info@example.com!")
                                      + plain(".")])
    r.rr(1, "example.com.", 257, 300, [b"\x00\x05issueletsencrypt.org"])
    out["response_srv_naptr_caa"] = r.wire()

    r = Msg(0x89AB, 0x8400)
    r.question("example.com.", 65)
    params = (u16(1) + u16(6) + strings("h2", "h3") + u16(3) + u16(2) + u16(443) +
              u16(4) + u16(4) + bytes([192, 0, 2, 1]) + u16(6) + u16(16) + bytes(15) + b"\x01")
    r.rr(1, "example.com.", 65, 300, [u16(1) + plain(".") + params])
    r.rr(1, "_dns.example.com.", 64, 300, [u16(0) + plain("svc.example.net.")])
    out["response_https_svcb"] = r.wire()

    r = Msg(0x9ABC, 0x8400)
    r.question("example.com.", 48)
    key = bytes(range(64))
    r.rr(1, "example.com.", 48, 3600, [u16(257) + b"\x03\x08" + key])
    r.rr(1, "example.com.", 46, 3600, [u16(48) + b"\x08\x02" + u32(3600) + u32(1735689600) + u32(1733011200)
                                       + u16(12345) + plain("example.com.") + bytes(range(128))])
    r.rr(1, "example.com.", 43, 3600, [u16(12345) + b"\x08\x02" + bytes(range(32))])
    r.opt(1232, do=True)
    out["response_dnssec_keys"] = r.wire()

    r = Msg(0xABCD, 0x8403)
    r.question("a.example.com.", 1)
    bitmap = b"\x00\x07\x62\x01\x80\x08\x00\x03\x80"
    r.rr(2, "example.com.", 47, 300, [plain("b.example.com.") + bitmap])
    nsec3 = b"\x01\x00" + u16(0) + b"\x00" + b"\x14" + bytes(range(20)) + b"\x00\x01\x40"
    r.rr(2, "2t7b4g4vsa5smi47k61mv5bv1a22bojr.example.com.", 50, 300, [nsec3])
    r.rr(2, "example.com.", 51, 0, [b"\x01\x00" + u16(0) + b"\x02\xab\xcd"])
    r.opt(1232, do=True)
    out["response_nsec_nsec3"] = r.wire()

    r = Msg(0xBCDE, 0x8400)
    r.question("x.example.com.", 65534)
    r.rr(1, "x.example.com.", 65534, 60, [b"\x0a\x00\x00\x01"])
    r.rr(1, "x.example.com.", 39, 60, [plain("example.net.")])
    r.rr(1, "x.example.com.", 44, 60, [b"\x01\x01" + bytes(20)])
    r.rr(1, "_25._tcp.x.example.com.", 52, 60, [b"\x03\x01\x01" + bytes(32)])
    out["response_unknown_dname_sshfp_tlsa"] = r.wire()

    r = Msg(0xCDEF, 0x2800)  # UPDATE: zone, prerequisite, delete RRset, add RR
    r.question("example.com.", 6)
    r.rr(1, "www.example.com.", 1, 0, [], rclass=255)
    r.rr(2, "old.example.com.", 1, 0, [], rclass=255)
    r.rr(2, "new.example.com.", 1, 300, [bytes([192, 0, 2, 99])])
    out["update_delete_add"] = r.wire()

    r = Msg(0xDEF0, 0x2400)  # NOTIFY with the new SOA
    r.question("example.com.", 6)
    r.rr(1, "example.com.", 6, 3600, ["@ns1.example.com.", "@hostmaster.example.com.",
                                      u32(2024010102) + u32(7200) + u32(900) + u32(1209600) + u32(300)])
    out["notify_soa"] = r.wire()
    return out


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus",
                                                                       "parse_message")
    os.makedirs(target, exist_ok=True)
    for label, wire in build().items():
        with open(os.path.join(target, label + ".bin"), "wb") as handle:
            handle.write(wire)


if __name__ == "__main__":
    main()
