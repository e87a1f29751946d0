#!/usr/bin/env python3
"""The web console in a real browser: `cutover serve` with its built-in demo pool, headless
Chromium on the console page, driven through the DevTools protocol (python3-websocket); a
demo endpoint is stopped from the page's own button and the page must show the failover, as
the event stream delivers it, without a reload, within the pool's detection window; then the
server is stopped and the page must mark its data stale. Last, a server with control.token:
a drain from the page is refused until the token is entered in the page, then applied; and
a server with a steered pool: the regions table, and a region answered from the next one; and
a server with a cluster section (one etcd member it starts): the cluster panel's tables.

Exit 0 on success, 1 on a failure (python3-websocket missing included: scripts/install-deps.sh
installs it), 77 (ctest's SKIP_RETURN_CODE) only when chromium is not installed. Everything it starts is stopped by PID; --limit bounds the run.
With --screenshots DIR it also saves the page before and during the failover (docs/images/).
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

SKIP = 77


def log(message):
    print(f"console_browser: {message}", flush=True)


class Failure(Exception):
    pass


def wait_for(what, check, deadline, step=0.1):
    """Polls check() until it returns a true value or the deadline passes."""
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(step)
    raise Failure(f"timed out waiting for {what}")


def http(port, method, path, timeout=5):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     data=b"" if method == "POST" else None)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


DEMO_ENDPOINTS = ("127.0.0.11", "127.0.0.12")
DEMO_PORT = 5380


def demo_listeners():
    """The demo endpoints something listens on now. The demo's listeners share their port
    (SO_REUSEPORT), so a second `cutover serve` binds them too without a complaint and then
    answers the probes of ours: this is the only way to see it."""
    taken = []
    for address in DEMO_ENDPOINTS:
        try:
            socket.create_connection((address, DEMO_PORT), timeout=0.5).close()
            taken.append(address)
        except OSError:
            pass
    return taken


class Serve:
    """`cutover serve` with the embedded default (demo endpoints on 127.0.0.11/.12:5380)."""

    def __init__(self, binary, workdir, deadline):
        self.log_path = os.path.join(workdir, "serve.log")
        self.process = None
        # Another bare `cutover serve` (a concurrent test) holds the demo endpoints for a few
        # seconds at most: wait for them to be free.
        if demo_listeners():
            log(f"the demo endpoints are served by another process ({demo_listeners()}); waiting")
            wait_for("the demo endpoints to be free", lambda: not demo_listeners(), deadline, step=0.5)
        # The demo endpoints' port is fixed: another bare `cutover serve` (a concurrent test)
        # may hold it for a few seconds, so try again until ours start.
        while True:
            self.start(binary)
            started = wait_for("the serve log", lambda: self.control_port() and self.demo_state(), deadline)
            if started == "ok":
                return
            log("the demo endpoints are taken (another cutover serve?); retrying")
            self.stop()
            if time.monotonic() + 3 > deadline:
                raise Failure("the demo endpoints' addresses stayed taken")
            time.sleep(1)

    def start(self, binary, extra=()):
        with open(self.log_path, "w"):
            pass
        log_file = open(self.log_path, "a")
        self.process = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", *extra], stdout=log_file,
                                        stderr=log_file, stdin=subprocess.DEVNULL)
        log_file.close()

    def text(self):
        with open(self.log_path) as f:
            return f.read()

    def control_port(self):
        match = re.search(r"control\.listen address=127\.0\.0\.1:(\d+)", self.text())
        return int(match.group(1)) if match else 0

    def demo_state(self):
        text = self.text()
        if "demo.endpoint_unavailable" in text:
            return "taken"
        if text.count("demo.endpoint_started") >= 2:
            return "ok"
        if self.process.poll() is not None:
            raise Failure(f"cutover serve exited with {self.process.returncode}:\n{text}")
        return None

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class HealthEndpoint:
    """An HTTP endpoint on ADDRESS:free port that answers /health with 200 "ok"."""

    def __init__(self, address):
        import http.server
        import threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = b"ok\n"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.address = address
        self.server = http.server.ThreadingHTTPServer((address, 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        if getattr(self, "closed", False):
            return
        self.closed = True
        self.server.shutdown()
        self.server.server_close()


TOKEN = "console-browser-s3cret"


class PoolServe(Serve):
    """`cutover serve` from a config of its own: `head` (control, cluster ...) and a failover
    pool `web` over the given HealthEndpoints, in zone `origin`."""

    def __init__(self, binary, workdir, deadline, endpoints, label, origin, head, pool_keys="", endpoint_keys=None):
        self.log_path = os.path.join(workdir, f"{label}-serve.log")
        self.process = None
        zone = os.path.join(workdir, f"{label}.db")
        with open(zone, "w") as f:
            f.write(f"$ORIGIN {origin}\n$TTL 300\n@ IN SOA ns1 admin 1 3600 600 86400 60\n@ IN NS ns1\n"
                    "ns1 IN A 127.0.0.1\n")
        extra = endpoint_keys or [""] * len(endpoints)
        lines = "".join(f"      - {{address: {e.address}, port: {e.port}{x}}}\n" for e, x in zip(endpoints, extra))
        config = os.path.join(workdir, f"{label}.yaml")
        with open(config, "w") as f:
            f.write(f"{head}zones:\n  - origin: {origin}\n    file: {zone}\n"
                    f"pools:\n  web:\n    name: www.{origin}\n    shape: failover\n{pool_keys}"
                    "    check: {type: http, path: /health, interval: 200ms, timeout: 150ms, fall: 2, rise: 1}\n"
                    f"    endpoints:\n{lines}")
        self.start(binary, ["--config", config])
        wait_for(f"the {label} server's control port", self.control_port, deadline)


class TokenServe(PoolServe):
    """With control.token: the console's actions need the token there."""

    def __init__(self, binary, workdir, deadline, endpoints):
        super().__init__(binary, workdir, deadline, endpoints, "token", "pool.test.",
                         f"control: {{listen: \"127.0.0.1:0\", token: {TOKEN}}}\n")


class Browser:
    """Headless Chromium on one page, and a DevTools protocol session with that page."""

    def __init__(self, url, profile, log_path, deadline):
        import websocket  # python3-websocket
        self.profile = profile
        self.log_path = log_path
        log_file = open(log_path, "w")
        self.process = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--disable-extensions", "--hide-scrollbars", "--window-size=1280,1000",
             f"--user-data-dir={profile}", "--remote-debugging-port=0", url],
            stdout=log_file, stderr=log_file, stdin=subprocess.DEVNULL)
        log_file.close()
        # With port 0 Chromium picks a free port and writes it to DevToolsActivePort.
        active = os.path.join(profile, "DevToolsActivePort")
        port = wait_for("DevToolsActivePort", lambda: self._read_port(active), deadline)
        def page_socket():
            try:
                _, body = http(port, "GET", "/json/list")
            except OSError:
                return None
            pages = [t for t in json.loads(body) if t.get("type") == "page" and t.get("url", "").startswith(url)]
            return pages[0]["webSocketDebuggerUrl"] if pages else None
        address = wait_for("the page target", page_socket, deadline)
        # No Origin header: Chromium refuses DevTools connections from origins it was not told of.
        self.socket = websocket.create_connection(address, timeout=10, suppress_origin=True)
        self.next_id = 0

    @staticmethod
    def _read_port(path):
        try:
            with open(path) as f:
                first = f.readline().strip()
            return int(first) if first else None
        except (OSError, ValueError):
            return None

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise Failure(f"{method}: {message['error']}")
                return message["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise Failure(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path):
        import base64
        # The whole page, not just the window: the panels run below the fold.
        height = self.evaluate("Math.ceil(document.documentElement.scrollHeight)")
        self.call("Emulation.setDeviceMetricsOverride", width=1280, height=int(height), deviceScaleFactor=1, mobile=False)
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        self.call("Emulation.clearDeviceMetricsOverride")
        log(f"screenshot {path}")

    def close(self):
        try:
            self.socket.close()
        except Exception:
            pass
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


# What the page shows of the demo pool: its A answer, the primary's state, the stream state,
# the pools panel's age text, and the marker set before the failover (gone after a reload).
PAGE_STATE = """(() => {
  const pool = document.querySelector('[data-pool="app"]');
  const row = pool && pool.querySelector('tr[data-endpoint="127.0.0.11"] td.state .badge');
  const answer = pool && pool.querySelector('[data-family="A"] .addresses');
  const age = document.querySelector('#panel-pools .age');
  const reason = pool && pool.querySelector('tr[data-endpoint="127.0.0.11"] .reason');
  const connection = document.getElementById('connection');  // null until the page has loaded
  return {answer: answer ? answer.textContent : null, primary: row ? row.textContent : null,
          connection: connection ? connection.textContent : null,
          age: age ? age.textContent : null, reason: reason ? reason.textContent : null,
          marker: window.consoleTestMarker || null, events: window.cutoverConsole ? window.cutoverConsole.events : 0};
})()"""


class RegionsServe(PoolServe):
    """A steered pool (docs/steering.md): eu and us, each with its own endpoint."""

    def __init__(self, binary, workdir, deadline, endpoints):
        with open(os.path.join(workdir, "networks.txt"), "w") as f:
            f.write("203.0.113.0/24 eu\n198.51.100.0/24 us\n")
        super().__init__(binary, workdir, deadline, endpoints, "regions", "regions.test.",
                         "control: {listen: \"127.0.0.1:0\"}\n",
                         "    networks: networks.txt\n    regions: {eu: [eu, us], us: [us, eu]}\n",
                         [", region: eu", ", region: us"])


def regions_phase(args, browser, workdir, deadline):
    """A steered pool's regions table: each region's answer, then eu's endpoint stops and the
    eu row shows us's address, marked as coming from us."""
    endpoints = [HealthEndpoint("127.0.0.25"), HealthEndpoint("127.0.0.26")]
    serve = None
    try:
        serve = RegionsServe(args.cutover, workdir, deadline, endpoints)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.control_port()}/")
        row = """(name) => {
          const r = document.querySelector(`[data-pool="web"] table.regions tr[data-region="${name}"]`);
          return r ? r.textContent : null;
        }"""
        eu = wait_for("the eu region's own endpoint in the regions table", lambda: (lambda t: t if t and (
            "127.0.0.25" in t and "healthy" in t and "from" not in t) else None)(browser.evaluate(f"({row})('eu')")),
            deadline)
        us = browser.evaluate(f"({row})('us')")
        if not us or "127.0.0.26" not in us or "eu → us" not in eu or "us → eu" not in us:
            raise Failure(f"the regions table says eu {eu!r}, us {us!r}")
        head = browser.evaluate("document.querySelector('[data-pool=\"web\"] div.regions p').textContent")
        if "networks.txt (2 prefixes)" not in head:
            raise Failure(f"the regions table's line says {head!r}")
        endpoints[0].close()
        moved = wait_for("eu answered from us in the regions table", lambda: (lambda t: t if t and (
            "127.0.0.26" in t and "from us" in t) else None)(browser.evaluate(f"({row})('eu')")), deadline)
        log(f"regions: eu {eu!r}, us {us!r}; after eu's endpoint stopped: {moved!r}")
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "console-regions.png"))
    finally:
        if serve:
            serve.stop()
        for endpoint in endpoints:
            endpoint.close()


def token_phase(args, browser, workdir, deadline):
    """With control.token set, the page reads without it, a drain from the page is refused
    (401, said on the page), and once the token is entered in the page's field the same
    button drains the endpoint."""
    endpoints = [HealthEndpoint("127.0.0.21"), HealthEndpoint("127.0.0.22")]
    serve = None
    try:
        serve = TokenServe(args.cutover, workdir, deadline, endpoints)
        url = f"http://127.0.0.1:{serve.control_port()}/"
        browser.call("Page.navigate", url=url)
        row = "document.querySelector('[data-pool=\"web\"] tr[data-endpoint=\"127.0.0.21\"]')"
        wait_for("the token server's pool on the page", lambda: browser.evaluate(
            f"(() => {{ const r = {row}; return r && r.querySelector('td.state .badge').textContent === 'up'; }})()"),
            deadline)
        drain = f"(() => {{ {row}.querySelector('button[data-action=\"drain\"]').click(); return true; }})()"
        last_action = "(() => { const li = document.querySelector('#actions-log li'); return li ? li.textContent : null; })()"
        browser.evaluate(drain)
        refused = wait_for("the refused drain in the action log", lambda: (lambda t: t if t and "HTTP 401" in t else None)(
            browser.evaluate(last_action)), deadline)
        notice = browser.evaluate("document.getElementById('notice').textContent")
        if "bearer token" not in notice:
            raise Failure(f"the page does not say the drain needs the token: {notice!r}")
        log(f"without the token: {refused!r}")
        browser.evaluate(f"""(() => {{
          document.getElementById('token').value = '{TOKEN}';
          document.getElementById('token-form').requestSubmit();
          return true;
        }})()""")
        browser.evaluate(drain)
        applied = wait_for("the applied drain in the action log", lambda: (lambda t: t if t and "HTTP 200" in t else None)(
            browser.evaluate(last_action)), deadline)
        wait_for("the drain override on the page", lambda: browser.evaluate(
            f"(() => {{ const r = {row}; return [...r.querySelectorAll('.badge')].some((b) => b.textContent === 'drain'); }})()"),
            deadline)
        log(f"with the token: {applied!r}; the page shows the endpoint drained")
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "console-token.png"))
    finally:
        if serve:
            serve.stop()
        for endpoint in endpoints:
            endpoint.close()


def free_port():
    """A loopback port the kernel picks (free now; etcd binds it a moment later)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Etcd:
    """One etcd member on loopback ports the kernel picked, with its own data directory."""

    def __init__(self, workdir, deadline):
        self.client = free_port()
        peer = free_port()
        self.url = f"http://127.0.0.1:{self.client}"
        self.log_path = os.path.join(workdir, "etcd.log")
        with open(self.log_path, "w") as log_file:
            self.process = subprocess.Popen(
                ["etcd", "--name", "c0", "--data-dir", os.path.join(workdir, "etcd"),
                 "--listen-client-urls", self.url, "--advertise-client-urls", self.url,
                 "--listen-peer-urls", f"http://127.0.0.1:{peer}",
                 "--initial-advertise-peer-urls", f"http://127.0.0.1:{peer}",
                 "--initial-cluster", f"c0=http://127.0.0.1:{peer}", "--initial-cluster-state", "new"],
                stdout=log_file, stderr=subprocess.STDOUT)

        def healthy():
            try:
                with urllib.request.urlopen(f"{self.url}/health", timeout=1) as reply:
                    return '"true"' in reply.read().decode()
            except OSError:
                return False
        wait_for("etcd to be healthy", healthy, deadline, step=0.2)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class ClusterServe(PoolServe):
    """With a cluster section (one etcd member): its probes are its own vantage, published to etcd."""

    def __init__(self, binary, workdir, deadline, endpoints, etcd_url):
        super().__init__(binary, workdir, deadline, endpoints, "cluster", "cluster.test.",
                         "control: {listen: \"127.0.0.1:0\"}\n"
                         f"cluster:\n  etcd: [{etcd_url}]\n  vantage: dns1\n")


def cluster_phase(args, browser, workdir, deadline):
    """With a cluster section, the cluster panel shows where the server stands as tables: the
    etcd member as reached and leader, this server's own vantage with its endpoints."""
    if shutil.which("etcd") is None:
        raise Failure("etcd is not installed (Debian etcd-server; scripts/install-deps.sh installs it)")
    endpoints = [HealthEndpoint("127.0.0.23"), HealthEndpoint("127.0.0.24")]
    etcd = serve = None
    try:
        etcd = Etcd(workdir, deadline)
        serve = ClusterServe(args.cutover, workdir, deadline, endpoints, etcd.url)
        browser.call("Page.navigate", url=f"http://127.0.0.1:{serve.control_port()}/")
        member = wait_for("the etcd member as leader in the cluster panel", lambda: browser.evaluate(f"""(() => {{
          const row = document.querySelector('#panel-cluster tr[data-member="{etcd.url}"]');
          return row && row.textContent.includes('leader') ? row.textContent : null;
        }})()"""), deadline)
        vantage = wait_for("this server's vantage with both endpoints reporting", lambda: browser.evaluate("""(() => {
          const row = document.querySelector('#panel-cluster tr[data-vantage]');
          return row && row.textContent.includes('2 of 2') ? row.textContent : null;
        })()"""), deadline)
        head = browser.evaluate("document.querySelector('#panel-cluster .body p').textContent")
        if "vantage dns1" not in head or "reached" not in head:
            raise Failure(f"the cluster panel's first line says {head!r}")
        log(f"cluster panel: {head!r}; member {member!r}; vantage {vantage!r}")
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "console-cluster.png"))
    finally:
        if serve:
            serve.stop()
        if etcd:
            etcd.stop()
        for endpoint in endpoints:
            endpoint.close()


def run(args):
    deadline = time.monotonic() + args.limit
    workdir = tempfile.mkdtemp(prefix="cutover-console-")
    serve = browser = None
    try:
        serve = Serve(args.cutover, workdir, deadline)
        port = serve.control_port()
        url = f"http://127.0.0.1:{port}/"
        log(f"cutover serve pid {serve.process.pid}, console at {url}")
        status = json.loads(http(port, "GET", "/status")[1])
        detection = status["pools"][0]["detection"]
        wait_for("the primary to be up", lambda: '"state": "up"' in http(port, "GET", "/status")[1], deadline)

        browser = Browser(url, tempfile.mkdtemp(prefix="cutover-chromium-"), os.path.join(workdir, "chromium.log"),
                          deadline)
        log(f"chromium pid {browser.process.pid}")
        healthy = wait_for("the page to show 127.0.0.11 up over a live stream", lambda: (lambda s: s if (
            s["answer"] == "127.0.0.11" and s["primary"] == "up" and s["connection"] == "live") else None)(
            browser.evaluate(PAGE_STATE)), deadline)
        if not re.match(r"data age \d", healthy["age"] or ""):
            raise Failure(f"the pools panel shows no data age: {healthy['age']!r}")
        browser.evaluate("window.consoleTestMarker = 'before-failover'")
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "console-healthy.png"))

        # The page's own button stops the endpoint (POST /demo/endpoints/127.0.0.11/stop), so
        # the action path of the page is tested too; its log line says what the server replied.
        stopped_at = time.monotonic()
        clicked = browser.evaluate("""(() => {
          const button = document.querySelector('button[data-demo="127.0.0.11"][data-action="stop"]');
          if (!button) return false;
          button.click();
          return true;
        })()""")
        if not clicked:
            raise Failure("the page has no stop button for the demo endpoint 127.0.0.11")
        logged = wait_for("the page's action log", lambda: browser.evaluate(
            "(() => { const li = document.querySelector('#actions-log li'); return li ? li.textContent : null; })()"),
            deadline)
        if "stop 127.0.0.11: HTTP 200" not in logged:
            raise Failure(f"stopping the demo endpoint from the page: {logged!r}")
        if "127.0.0.11" in demo_listeners():
            raise Failure("127.0.0.11:5380 still answers after the stop: another process serves the demo "
                          "endpoint (ss -ltnp | grep 5380)")
        # The failover must reach the page within the pool's detection window (d_max) plus the
        # console's poll (1 s) and the page's own polling of the DOM here (0.1 s), with 2 s of
        # slack for this shared machine.
        budget = detection["d_max_ms"] / 1000 + 1 + 2
        failed_over = wait_for("the page to show the failover", lambda: (lambda s: s if (
            s["answer"] == "127.0.0.12" and s["primary"] == "down") else None)(browser.evaluate(PAGE_STATE)),
            min(deadline, stopped_at + budget))
        elapsed = time.monotonic() - stopped_at
        if failed_over["marker"] != "before-failover":
            raise Failure("the page was reloaded (its marker is gone)")
        if failed_over["events"] <= healthy["events"]:
            raise Failure("no event arrived between the two states")
        log(f"failover shown after {elapsed:.2f} s (detection window {detection['d_min_ms'] / 1000:.1f}-"
            f"{detection['d_max_ms'] / 1000:.1f} s, budget {budget:.1f} s); reason: {failed_over['reason']!r}")
        if args.screenshots:
            browser.screenshot(os.path.join(args.screenshots, "console-failover.png"))

        # Old data is never shown as current: with the server gone, the page must say it is
        # reconnecting and mark the pools panel stale (after 3 polls, 3 s; 8 s allowed here).
        serve.stop()
        stale = wait_for("the page to mark the pools panel stale", lambda: browser.evaluate("""(() => {
          const panel = document.getElementById('panel-pools');
          const connection = document.getElementById('connection').textContent;
          return panel.classList.contains('stale') && connection === 'reconnecting'
              ? panel.querySelector('.age').textContent : null;
        })()"""), min(deadline, time.monotonic() + 8))
        if not stale.startswith("STALE"):
            raise Failure(f"the stale pools panel says {stale!r}")
        log(f"server stopped: the page says {stale!r}")
        token_phase(args, browser, workdir, deadline)
        regions_phase(args, browser, workdir, deadline)
        cluster_phase(args, browser, workdir, deadline)
        return 0
    except Failure:
        for name in ("serve.log", "chromium.log", "regions-serve.log", "cluster-serve.log", "etcd.log"):
            path = os.path.join(workdir, name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    log(f"--- last lines of {name}:\n" + "".join(f.readlines()[-30:]))
        raise
    finally:
        if browser:
            browser.close()
        if serve:
            serve.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cutover", required=True, help="the cutover binary")
    parser.add_argument("--limit", type=float, default=45, help="seconds the whole run may take")
    parser.add_argument("--screenshots", help="directory for PNG screenshots")
    args = parser.parse_args()
    if shutil.which("chromium") is None:
        log("SKIP: chromium is not installed (scripts/install-deps.sh installs it)")
        return SKIP
    try:
        import websocket  # noqa: F401
    except ImportError:
        log(f"FAIL: {sys.executable} has no websocket module (Debian python3-websocket; "
            "scripts/install-deps.sh installs it)")
        return 1
    try:
        return run(args)
    except Failure as failure:
        log(f"FAIL: {failure}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
