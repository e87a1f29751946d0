# Turns the per-run measurements into the medians table, the ratio table and the target
# verdicts printed by bench/compare (Markdown, so docs/performance.md can embed it).
import statistics

ANCHORS = ("gdnsd", "knot", "nsd", "pdns", "bind")


def median(runs, key):
    values = [run[key] for run in runs if run.get(key) is not None]
    return statistics.median(values) if values else None


def summarize(results):
    """server -> medians of every measured figure over its repetitions."""
    keys = ("qps", "total_us", "user_us", "kernel_us", "client_cpu", "avg_latency", "max_latency", "lost",
            "pss", "load", "response_size", "latency_fixed", "background")
    return {server: {key: median(runs, key) for key in keys} for server, runs in results.items() if runs}


def _fmt(value, digits=2, scale=1.0):
    return "–" if value is None else f"{value * scale:.{digits}f}"


def main_table(summary, versions, fixed_rate):
    lines = [
        f"| server | QPS | total µs/q | user µs/q | kernel µs/q | dnsperf CPU % | avg / max latency ms | lost | "
        f"PSS MB | load s | response B | avg latency at {fixed_rate // 1000}k q/s ms | background cores |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for server, m in summary.items():
        lines.append(
            f"| {server} {versions.get(server, '')} | {_fmt(m['qps'], 0)} | {_fmt(m['total_us'])} | {_fmt(m['user_us'])} "
            f"| {_fmt(m['kernel_us'])} | {_fmt(m['client_cpu'], 0, 100)} | {_fmt(m['avg_latency'], 3, 1000)} / "
            f"{_fmt(m['max_latency'], 1, 1000)} | {_fmt(m['lost'], 0)} | {_fmt(m['pss'], 1)} | {_fmt(m['load'], 2)} "
            f"| {_fmt(m['response_size'], 0)} | {_fmt(m['latency_fixed'], 3, 1000)} | {_fmt(m['background'], 2)} |")
    return "\n".join(lines)


def _ratio(a, b):
    return None if a is None or not b else a / b


def ratio_table(summary):
    ours = summary.get("cutover")
    anchors = [name for name in ANCHORS if name in summary]
    if not ours or not anchors:
        return ""
    lines = ["| cutover ÷ | total µs/q | user µs/q | PSS | load time | latency at fixed rate |", "|---|---|---|---|---|---|"]
    for name in (["reflector"] if "reflector" in summary else []) + anchors:
        m = summary[name]
        lines.append(f"| {name} | {_fmt(_ratio(ours['total_us'], m['total_us']))} | "
                     f"{_fmt(_ratio(ours['user_us'], m['user_us']))} | {_fmt(_ratio(ours['pss'], m['pss']))} | "
                     f"{_fmt(_ratio(ours['load'], m['load']))} | {_fmt(_ratio(ours['latency_fixed'], m['latency_fixed']))} |")
    return "\n".join(lines)


def _best(summary, anchors, key):
    values = [summary[name][key] for name in anchors if summary[name].get(key) is not None]
    return min(values) if values else None


def verdicts(summary, load_only=False, tcp=False):
    """(target, met?, detail) for every target this run can judge."""
    ours = summary.get("cutover")
    anchors = [name for name in ANCHORS if name in summary]
    if not ours or not anchors:
        return []
    out = []

    def judge(label, value, limit, unit):
        if value is not None and limit is not None:
            out.append((label, value <= limit, f"{value:.3f} {unit} vs limit {limit:.3f} {unit}"))

    if not load_only:
        best_user = _best(summary, anchors, "user_us")
        judge("user CPU ≤ 0.5 × best anchor", ours["user_us"], best_user and 0.5 * best_user, "µs/q")
        floor = summary.get("reflector", {}).get("total_us")
        judge("total CPU ≤ 1.1 × floor", ours["total_us"], floor and 1.1 * floor, "µs/q")
        if tcp:
            judge("total CPU over TCP ≤ best anchor", ours["total_us"], _best(summary, anchors, "total_us"), "µs/q")
        judge("latency at fixed rate ≤ best anchor", ours["latency_fixed"] and ours["latency_fixed"] * 1000,
              (_best(summary, anchors, "latency_fixed") or 0) * 1000 or None, "ms")
    judge("PSS ≤ smallest anchor", ours["pss"], _best(summary, anchors, "pss"), "MB")
    judge("load time ≤ fastest anchor", ours["load"], _best(summary, anchors, "load"), "s")
    return out


def verdict_lines(summary, load_only=False, tcp=False):
    return "\n".join(f"- {'met' if met else 'NOT met'}: {label} ({detail})"
                     for label, met, detail in verdicts(summary, load_only, tcp))
