# The servers under test: for each, the config it is given (written into its own temp dir)
# and the foreground command line. Every server listens on 127.0.0.1:PORT only, serves the
# benchmark zone with minimal responses, no rate limiting and `threads` UDP workers.
import os
import re
import shutil
import subprocess

ZONE_NAME = "bench.test"


class Server:
    """name: table label; binary: what must be on PATH (or a path); configure() -> argv."""

    def __init__(self, name, binary, configure, version_argv, version_pattern, anchor=True):
        self.name, self.binary, self._configure = name, binary, configure
        self._version_argv, self._version_pattern, self.anchor = version_argv, version_pattern, anchor

    def available(self):
        return shutil.which(self.binary) is not None or os.access(self.binary, os.X_OK)

    def argv(self, workdir, zone, port, threads):
        return self._configure(workdir, zone, port, threads)

    def version(self):
        try:
            out = subprocess.run(self._version_argv, capture_output=True, text=True, timeout=10)
        except OSError:
            return "?"
        match = re.search(self._version_pattern, out.stdout + out.stderr)
        return match.group(1) if match else "?"


def write_file(path, text):
    with open(path, "w") as out:
        out.write(text)


_write = write_file


def _nsd(workdir, zone, port, threads):
    conf = os.path.join(workdir, "nsd.conf")
    _write(conf, f"""server:
  ip-address: 127.0.0.1@{port}
  do-ip6: no
  server-count: {threads}
  reuseport: {"yes" if threads > 1 else "no"}
  username: ""
  chroot: ""
  database: ""
  zonelistfile: "{workdir}/zone.list"
  xfrdfile: "{workdir}/xfrd.state"
  xfrdir: "{workdir}"
  pidfile: "{workdir}/nsd.pid"
  logfile: "{workdir}/nsd.log"
  verbosity: 0
  rrl-ratelimit: 0
  rrl-whitelist-ratelimit: 0
  minimal-responses: yes
remote-control:
  control-enable: no
zone:
  name: {ZONE_NAME}
  zonefile: "{zone}"
""")
    return ["nsd", "-d", "-c", conf]


def _knot(workdir, zone, port, threads):
    conf = os.path.join(workdir, "knot.conf")
    _write(conf, f"""server:
  listen: 127.0.0.1@{port}
  rundir: "{workdir}"
  udp-workers: {threads}
  tcp-workers: 1
  background-workers: 1
database:
  storage: "{workdir}"
log:
  - target: stderr
    any: warning
template:
  - id: default
    storage: "{workdir}"
    journal-content: none
    zonefile-sync: -1
    zonefile-load: whole
    semantic-checks: off
zone:
  - domain: {ZONE_NAME}
    file: "{zone}"
""")
    return ["knotd", "-c", conf]


def named_options(workdir, port, minimal_responses=True):
    """named.conf's options and controls: named on 127.0.0.1:port, its files in `workdir`.
    The read benchmark and the write benchmark (writes.py) both start named with these."""
    minimal = "\n  minimal-responses yes;" if minimal_responses else ""
    return f"""options {{
  directory "{workdir}";
  pid-file "{workdir}/named.pid";
  session-keyfile "{workdir}/session.key";
  managed-keys-directory "{workdir}";
  listen-on port {port} {{ 127.0.0.1; }};
  listen-on-v6 {{ none; }};
  recursion no;{minimal}
  dnssec-validation no;
  notify no;
}};
controls {{ }};
"""


def _bind(workdir, zone, port, threads):
    conf = os.path.join(workdir, "named.conf")
    _write(conf, named_options(workdir, port) + f"""zone "{ZONE_NAME}" {{ type primary; file "{zone}"; }};
""")
    return ["named", "-g", "-4", "-n", str(threads), "-U", str(threads), "-c", conf]


def _gdnsd(workdir, zone, port, threads):
    os.makedirs(os.path.join(workdir, "zones"), exist_ok=True)
    shutil.copyfile(zone, os.path.join(workdir, "zones", ZONE_NAME))
    _write(os.path.join(workdir, "config"), f"""options => {{
  listen => [ 127.0.0.1:{port} ]
  udp_threads => {threads}
  tcp_threads => 1
  run_dir => {workdir}/run
  state_dir => {workdir}/state
}}
""")
    return ["gdnsd", "-c", workdir, "start"]


def _pdns(workdir, zone, port, threads):
    _write(os.path.join(workdir, "named.conf"), f'zone "{ZONE_NAME}" {{ type master; file "{zone}"; }};\n')
    _write(os.path.join(workdir, "pdns.conf"), f"""launch=bind
bind-config={workdir}/named.conf
local-address=127.0.0.1
local-port={port}
daemon=no
guardian=no
socket-dir={workdir}
security-poll-suffix=
webserver=no
api=no
receiver-threads={threads}
distributor-threads=1
disable-syslog=yes
loglevel=3
""")
    return ["pdns_server", f"--config-dir={workdir}"]


def _cutover(binary):
    def configure(workdir, zone, port, threads):
        return [binary, "serve", "--zone", f"{ZONE_NAME}.={zone}", "--listen", f"127.0.0.1:{port}",
                "--threads", str(threads), "--log-level", "warn"]
    return configure


def _reflector(binary):
    def configure(workdir, zone, port, threads):
        return [binary, "127.0.0.1", str(port), str(threads)]
    return configure


def all_servers(cutover_binary, reflector_binary):
    """The reflector (floor), cutover, then the anchors, in table order."""
    return [
        Server("reflector", reflector_binary, _reflector(reflector_binary), [reflector_binary, "--version"],
               r"(\S+)", anchor=False),
        Server("cutover", cutover_binary, _cutover(cutover_binary), [cutover_binary, "--version"],
               r"(\d+\.\d+\.\d+)", anchor=False),
        Server("gdnsd", "gdnsd", _gdnsd, ["gdnsd", "-h"], r"gdnsd version (\S+)"),
        Server("knot", "knotd", _knot, ["knotd", "-V"], r"version (\S+)"),
        Server("nsd", "nsd", _nsd, ["nsd", "-v"], r"NSD version (\S+)"),
        Server("pdns", "pdns_server", _pdns, ["pdns_server", "--version"], r"Authoritative Server (\S+)"),
        Server("bind", "named", _bind, ["named", "-v"], r"BIND (\d+\.\d+\.\d+)"),
    ]
