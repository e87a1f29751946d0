# What the benchmark reads from the machine: a server's process tree, its CPU time and PSS
# from /proc, core pinning of every thread, host idleness, and dnsperf runs.
import os
import re
import subprocess
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _children():
    """parent pid -> child pids, for every process now alive."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def process_tree(root):
    children, tree, todo = _children(), [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def cpu_seconds(root):
    """(user, system) CPU seconds of every live process in the tree, threads included."""
    user = system = 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        user += int(fields[11])
        system += int(fields[12])
    return user / CLOCK_TICKS, system / CLOCK_TICKS


def _sum_kb(root, proc_file, field):
    """Sums one "Field:  N kB" line of /proc/PID/<proc_file> over the process tree, in MB."""
    total_kb = 0
    for pid in process_tree(root):
        try:
            with open(f"/proc/{pid}/{proc_file}") as source:
                match = re.search(rf"^{field}:\s+(\d+) kB", source.read(), re.M)
        except OSError:
            continue
        if match:
            total_kb += int(match.group(1))
    return total_kb / 1024


def pss_mb(root):
    return _sum_kb(root, "smaps_rollup", "Pss")


def rss_mb(root):
    return _sum_kb(root, "status", "VmRSS")


def pin_tree(root, cores):
    """Pins every thread of the tree; servers such as Knot pin their own workers, so this
    runs after they start and again before each measured run."""
    for pid in process_tree(root):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                os.sched_setaffinity(int(tid), cores)
            except OSError:
                pass


def _host_busy_ticks():
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class HostMeter:
    """Busy CPU of the whole host between start() and stop(), in cores (2.0 = both busy)."""

    def start(self):
        self._busy, self._total = _host_busy_ticks()
        self._time = time.monotonic()

    def stop(self):
        busy, _ = _host_busy_ticks()
        return (busy - self._busy) / CLOCK_TICKS / max(time.monotonic() - self._time, 1e-9)


def wait_quiet(max_wait, threshold=0.15):
    """Waits up to max_wait seconds for a second in which the host uses < threshold cores;
    returns the background load of the last second sampled."""
    meter, deadline = HostMeter(), time.monotonic() + max_wait
    while True:
        meter.start()
        time.sleep(1.0)
        load = meter.stop()
        if load < threshold or time.monotonic() >= deadline:
            return load


def dnsperf(port, queries, seconds, cores, threads=1, clients=4, outstanding=100, max_qps=None, mode=None,
            dnssec_ok=False):
    """Runs dnsperf pinned to `cores` (with `dnssec_ok`, every query sets the DO bit); a dict of
    its summary plus its own CPU use."""
    argv = ["taskset", "-c", ",".join(map(str, sorted(cores))), "dnsperf", "-s", "127.0.0.1", "-p", str(port),
            "-d", queries, "-l", str(seconds), "-c", str(clients * threads), "-T", str(threads),
            "-q", str(outstanding * threads), "-t", "2"]
    if max_qps:
        argv += ["-Q", str(max_qps)]
    if mode:
        argv += ["-m", mode]
    if dnssec_ok:
        argv += ["-D"]
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - start
    output = proc.stdout.read()
    result = parse_dnsperf(output)
    result["client_cpu"] = (usage.ru_utime + usage.ru_stime) / max(elapsed, 1e-9)
    if proc.returncode != 0 or "completed" not in result:
        raise RuntimeError(f"dnsperf failed ({proc.returncode}):\n{output}")
    return result


def parse_dnsperf(output):
    patterns = {
        "sent": r"Queries sent:\s+(\d+)",
        "completed": r"Queries completed:\s+(\d+)",
        "lost": r"Queries lost:\s+(\d+)",
        "qps": r"Queries per second:\s+([\d.]+)",
        "avg_latency": r"Average Latency \(s\):\s+([\d.]+)",
        "max_latency": r"Average Latency \(s\):\s+[\d.]+ \(min [\d.]+, max ([\d.]+)\)",
        "response_size": r"Average packet size:\s+request \d+, response (\d+)",
        "noerror": r"NOERROR (\d+)",
        "nxdomain": r"NXDOMAIN (\d+)",
    }
    result = {}
    for key, pattern in patterns.items():
        match = re.search(pattern, output)
        if match:
            result[key] = float(match.group(1))
    return result
