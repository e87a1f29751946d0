# Whole-process instructions per query (bench/compare --callgrind): each server runs under
# callgrind twice, once idle and once answering a fixed number of queries at a fixed low rate
# (one query per receive), for the same wall time; the difference of the two instruction
# totals (every process and thread the server starts, children included), divided by the
# queries answered, is what answering costs in user space. Unlike CPU time it does not depend
# on what else the host is doing, so it is the comparison that survives a noisy machine.
import glob
import os
import re
import subprocess
import time

from . import dnsprobe


class Callgrinded:
    """A server from servers.py started under callgrind; its output files go to `out_dir`."""

    def __init__(self, server, out_dir):
        self.server, self.out_dir, self.name = server, out_dir, server.name

    def argv(self, workdir, zone, port, threads):
        os.makedirs(self.out_dir, exist_ok=True)
        return ["valgrind", "--tool=callgrind", "--trace-children=yes", "--child-silent-after-fork=yes",
                f"--callgrind-out-file={self.out_dir}/callgrind.%p.out"] + self.server.argv(workdir, zone, port, threads)


def total_instructions(out_dir):
    """Instructions counted over every process callgrind followed (one file per process)."""
    total = 0
    for path in glob.glob(os.path.join(out_dir, "callgrind.*.out*")):
        with open(path, errors="replace") as f:
            found = re.search(r"^(?:totals|summary): (\d+)", f.read(), re.M)
        if found:
            total += int(found.group(1))
    return total


def first_lines(source, target, count):
    with open(source) as src, open(target, "w") as out:
        for index, line in enumerate(src):
            if index >= count:
                break
            out.write(line)


def send_at_rate(port, queries, rate, cores):
    """dnsperf sends each line of `queries` once at `rate` q/s; its summary as a dict."""
    from . import measure
    argv = ["taskset", "-c", ",".join(map(str, sorted(cores))), "dnsperf", "-s", "127.0.0.1", "-p", str(port),
            "-d", queries, "-n", "1", "-Q", str(rate), "-c", "1", "-q", "20", "-t", "5"]
    run = subprocess.run(argv, capture_output=True, text=True)
    result = measure.parse_dnsperf(run.stdout + run.stderr)
    if run.returncode != 0 or "completed" not in result:
        raise RuntimeError(f"dnsperf failed ({run.returncode}):\n{run.stdout}{run.stderr}")
    return result


def one_server(server, running_class, data, port, cores, queries, rate, workdir):
    """{"idle", "loaded", "completed", "per_query"} for `server`."""
    query_file = os.path.join(workdir, f"callgrind-{queries}.queries")
    if not os.path.exists(query_file):
        first_lines(data["queries"], query_file, queries)
    seconds = queries / rate
    totals = {}
    completed = 0
    for mode in ("idle", "loaded"):
        out_dir = os.path.join(workdir, f"{server.name}-callgrind-{mode}")
        wrapped = Callgrinded(server, out_dir)
        running = running_class(wrapped, os.path.join(workdir, f"{server.name}-{mode}"), data["zone"], port, 1,
                                cores["server"])
        try:
            if mode == "idle":
                time.sleep(seconds)
            else:
                result = send_at_rate(port, query_file, rate, cores["client"])
                completed = int(result["completed"])
            # The same closing probe in both runs, so neither has more stray queries.
            dnsprobe.ask(port, data["cases"][0][1], data["cases"][0][2], timeout=2)
        finally:
            running.stop()
        totals[mode] = total_instructions(out_dir)
        if totals[mode] == 0:
            raise RuntimeError(f"{server.name}: callgrind wrote no totals in {out_dir}")
    per_query = (totals["loaded"] - totals["idle"]) / max(completed, 1)
    return {"idle": totals["idle"], "loaded": totals["loaded"], "completed": completed, "per_query": per_query}


def table(results, versions, queries, rate):
    """The Markdown table of the counts, with each server's ratio to cutover and the best anchor."""
    anchors = {name: r["per_query"] for name, r in results.items() if name not in ("cutover", "reflector")}
    best = min(anchors.items(), key=lambda item: item[1]) if anchors else None
    ours = results.get("cutover", {}).get("per_query")
    lines = [f"Whole-process user-space instructions per query (callgrind, {queries} queries at {rate} q/s, "
             "minus an idle run of the same length; every process and thread of the server):", "",
             "| server | version | idle run (M instr.) | loaded run (M instr.) | answered | instr. per query | cutover / this |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        ratio = f"{ours / r['per_query']:.2f}" if ours and r["per_query"] > 0 else "-"
        lines.append(f"| {name} | {versions.get(name, '?')} | {r['idle'] / 1e6:,.2f} | {r['loaded'] / 1e6:,.2f} | "
                     f"{r['completed']} | {r['per_query']:,.0f} | {ratio} |")
    if best and ours:
        lines += ["", f"cutover: {ours:,.0f} instructions per query, {ours / best[1]:.2f} x the best anchor "
                      f"({best[0]}, {best[1]:,.0f})."]
    return "\n".join(lines)
