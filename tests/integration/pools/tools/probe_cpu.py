#!/usr/bin/env python3
"""Measures the CPU cost of health probes: runs `cutover serve` with POOLS pools of
ENDPOINTS tcp endpoints each (distinct 127.0.x.y addresses, one accepting listener on the
port), all probed every INTERVAL, and reports the server's CPU (utime + stime from
/proc/PID/stat) over a window, plus the probes counted by /metrics in that window.

Usage: probe_cpu.py CUTOVER_BINARY [--pools 100] [--endpoints 10] [--interval 1s] [--seconds 30]
"""
import argparse, os, re, socket, subprocess, sys, tempfile, threading, time, urllib.request


def accept_forever(server):
    while True:
        try:
            conn, _ = server.accept()
            conn.close()
        except OSError:
            return


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def probes_total(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    return sum(float(v) for v in re.findall(r'^cutover_probes_total\{[^}]*\} (\S+)$', text, re.M))


def main():
    args = argparse.ArgumentParser()
    args.add_argument("binary")
    args.add_argument("--pools", type=int, default=100)
    args.add_argument("--endpoints", type=int, default=10)
    args.add_argument("--interval", default="1s")
    args.add_argument("--seconds", type=float, default=30)
    opts = args.parse_args()

    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("0.0.0.0", 0))
    listener.listen(4096)
    port = listener.getsockname()[1]
    for _ in range(4):
        threading.Thread(target=accept_forever, args=(listener,), daemon=True).start()

    work = tempfile.mkdtemp(prefix="cutover-probe-cpu.")
    with open(f"{work}/cpu.db", "w") as zone:
        zone.write("$ORIGIN cpu.test.\n$TTL 300\n@ SOA ns hostmaster 1 3600 600 86400 60\n@ NS ns\nns A 192.0.2.53\n")
    lines = ['control: {listen: "127.0.0.1:0"}\n', "zones:\n  - {origin: cpu.test., file: cpu.db}\n", "pools:\n"]
    n = 0
    for p in range(opts.pools):
        lines.append(f"  p{p}:\n    name: p{p}.cpu.test\n    shape: all-healthy\n"
                     f"    check: {{type: tcp, interval: {opts.interval}, timeout: 500ms, fall: 3, rise: 2}}\n"
                     "    endpoints:\n")
        for _ in range(opts.endpoints):
            n += 1
            lines.append(f"      - {{address: 127.0.{2 + n // 250}.{1 + n % 250}, port: {port}}}\n")
    open(f"{work}/cutover.yaml", "w").write("".join(lines))

    log = open(f"{work}/server.log", "w")
    server = subprocess.Popen([opts.binary, "serve", "--config", f"{work}/cutover.yaml", "--listen", "127.0.0.1:0"],
                              stdout=log, stderr=log)
    try:
        control = None
        for _ in range(200):
            match = re.search(r"control.listen address=127.0.0.1:(\d+)", open(f"{work}/server.log").read())
            if match:
                control = int(match.group(1))
                break
            time.sleep(0.05)
        if control is None:
            sys.exit("server did not start; log in " + work)
        time.sleep(5)  # every checker has started and settled
        cpu0, probes0, t0 = cpu_seconds(server.pid), probes_total(control), time.monotonic()
        time.sleep(opts.seconds)
        cpu1, probes1, t1 = cpu_seconds(server.pid), probes_total(control), time.monotonic()
        wall = t1 - t0
        cpu = cpu1 - cpu0
        probes = probes1 - probes0
        threads = len(os.listdir(f"/proc/{server.pid}/task"))
        rss = [l for l in open(f"/proc/{server.pid}/status") if l.startswith("VmRSS")][0].split()[1]
        print(f"endpoints={n} interval={opts.interval} window={wall:.1f}s probes={probes:.0f} "
              f"({probes / wall:.0f}/s) cpu={cpu:.2f}s = {100 * cpu / wall:.1f}% of one core, "
              f"{1e6 * cpu / max(probes, 1):.0f} us per probe, threads={threads}, rss={rss} kB")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
