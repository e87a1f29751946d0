#!/usr/bin/python3
# The lab's Python client (docs/lab.md, "Client runtimes"): one HTTP GET per --interval,
# --count times, one JSON line per request on stdout. --library urllib opens a new
# connection per request through urllib.request (glibc getaddrinfo, one connect per address
# in order); --library requests uses one requests.Session, which keeps its connection.
# Standard library only, plus Debian's python3-requests for the second mode.
import argparse
import json
import socket
import ssl
import sys
import time
import urllib.error
import urllib.request


def classify(error):
    reason = getattr(error, "reason", None)
    if isinstance(reason, BaseException):
        error = reason
    for cause in (error, getattr(error, "__cause__", None), getattr(error, "__context__", None)):
        if cause is None:
            continue
        if isinstance(cause, ConnectionRefusedError):
            return "refused"
        if isinstance(cause, (socket.timeout, TimeoutError)):
            return "timeout"
        if isinstance(cause, ConnectionResetError):
            return "reset"
        if isinstance(cause, ssl.SSLError):
            return "tls"
        if isinstance(cause, socket.gaierror):
            return "dns"
    text = repr(error)
    if "Connection refused" in text or "ConnectionRefused" in text:
        return "refused"
    if "timed out" in text or "Timeout" in text:
        return "timeout"
    if "reset" in text:
        return "reset"
    if "Name or service not known" in text or "NameResolution" in text or "gaierror" in text:
        return "dns"
    return "other"


def peer_text(address):
    host, port = address[0], address[1]
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def from_headers(headers):
    """The origin's view of the connection, for what the library does not expose."""
    local = headers.get("X-Lab-Local")
    count = headers.get("X-Lab-Connection-Request")
    return local, (None if count is None else count == "1")


def fetch_urllib(url, timeout):
    kwargs = {} if timeout is None else {"timeout": timeout}
    with urllib.request.urlopen(url, **kwargs) as response:
        peer = None
        try:
            peer = peer_text(response.fp.raw._sock.getpeername())
        except Exception:
            pass
        body = response.read().decode("utf-8", "replace").strip()
        local, _ = from_headers(response.headers)
        return peer or local, True, body


def make_requests_fetcher(timeout):
    import requests  # Debian's python3-requests

    session = requests.Session()

    def fetch(url, _):
        response = session.get(url, timeout=None if timeout is None else (timeout, 30), stream=True)
        peer = None
        try:
            peer = peer_text(response.raw._connection.sock.getpeername())
        except Exception:
            pass
        body = response.content.decode("utf-8", "replace").strip()
        local, new_conn = from_headers(response.headers)
        return peer or local, new_conn, body

    return fetch, requests


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--connect-timeout", type=float, default=None)
    parser.add_argument("--library", choices=["urllib", "requests"], default="urllib")
    parser.add_argument("--version", action="store_true")
    args = parser.parse_args()
    if args.library == "requests":
        fetch, requests = make_requests_fetcher(args.connect_timeout)
        version = f"Python {sys.version.split()[0]}, requests {requests.__version__}"
    else:
        fetch = fetch_urllib
        version = f"Python {sys.version.split()[0]}"
    if args.version:
        print(version)
        return
    begin = time.time()
    for index in range(args.count):
        slot = begin + index * args.interval
        delay = slot - time.time()
        if delay > 0:
            time.sleep(delay)
        started = time.time()
        line = {"t": started, "peer": None, "new_conn": None, "origin": None, "error": None, "detail": ""}
        try:
            peer, new_conn, body = fetch(args.url, args.connect_timeout)
            line.update(peer=peer, new_conn=new_conn, origin=body, detail="200")
        except Exception as error:  # every failure is one line of the log, never a crash
            line.update(error=classify(error), detail=f"{type(error).__name__}: {error}"[:200])
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
