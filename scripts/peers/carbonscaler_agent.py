#!/usr/bin/python3
"""CarbonScaler's schedules as its authors' code makes them, for the cases of a cases file.

Imports `CarbonScaleAgent` from a checkout of umassos/carbonAdvisor (the caller names the directory) and asks
it, once per case, for the whole schedule on a perfect forecast: how many workers run in each hour of the
window and for what fraction of it (the agent trims the work it overshoots from the hour of highest carbon
per unit of work). The agent's time unit is the trace's hour: its throughput table is work per hour by worker
count, its energy table kWh per hour (kW).

The cases file (JSON) lists traces, starts (UTC, on the hour), deadlines in hours and job sizes as fractions
of what the largest size does in the whole window, and a base scenario whose operating points are the scale
profile (dp 1..N, work units per second, facility W). Every combination is a case, numbered in the order
trace, start, deadline, size (the last varying fastest).

Writes two CSV files:
    SCHEDULES: case,hour,workers,fraction   (the hours with workers, as offsets from the start)
    TOTALS:    case,trace,start,deadline_hours,work,g   (g: the agent's energy x intensity x fraction, summed)
"""
import argparse
import csv
import json
import os
import sys

from carbon3d_trace import load_trace


def load_profile(path):
    """The base scenario's operating points (dp, throughput in work units/s, facility power in W)."""
    with open(path) as f:
        points = sorted(json.load(f)["operating_points"], key=lambda p: p["dp"])
    if [p["dp"] for p in points] != list(range(1, len(points) + 1)):
        raise SystemExit(f"{path}: the agent's tables need every worker count from 1 up")
    if any(p.get("power_scope") != "facility" for p in points):
        raise SystemExit(f"{path}: the agent's energy table is the whole draw: expected facility power")
    return [float(p["throughput"]) for p in points], [float(p["power_w"]) for p in points]


def cases(spec):
    for trace in spec["traces"]:
        for start in spec["starts"]:
            for deadline in spec["deadline_hours"]:
                for fraction in spec["work_fractions"]:
                    yield trace, start, deadline, fraction


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--advisor", required=True, help="a checkout of umassos/carbonAdvisor")
    parser.add_argument("--cases", required=True)
    parser.add_argument("--traces", required=True, help="the folder of the cases' traces")
    parser.add_argument("--schedules", required=True)
    parser.add_argument("--totals", required=True)
    args = parser.parse_args()

    sys.path.insert(0, args.advisor)
    import numpy as np
    from agent import CarbonScaleAgent
    from environment import CarbonState

    with open(args.cases) as f:
        spec = json.load(f)
    throughput, power = load_profile(os.path.join(os.path.dirname(args.cases), spec["base"]))
    workers = len(throughput)
    # Index i: i workers; 0 workers do nothing and draw nothing.
    throughput_table = np.array([0.0] + [3600.0 * x for x in throughput])
    energy_table = np.array([0.0] + [w / 1000.0 for w in power])

    with open(args.schedules, "w", newline="") as s, open(args.totals, "w", newline="") as t:
        schedules = csv.writer(s, lineterminator="\n")
        totals = csv.writer(t, lineterminator="\n")
        schedules.writerow(["case", "hour", "workers", "fraction"])
        totals.writerow(["case", "trace", "start", "deadline_hours", "work", "g"])
        traces = {}
        for number, (trace, start, deadline, fraction) in enumerate(cases(spec)):
            if trace not in traces:
                traces[trace] = load_trace(os.path.join(args.traces, trace))
            stamps, ci = traces[trace]
            first = stamps.index(start)
            window = np.array(ci[first:first + deadline], dtype=float)
            work = fraction * throughput_table[workers] * deadline
            agent = CarbonScaleAgent(throughput_table, energy_table, workers, deadline)
            state = CarbonState(carbon_intensity=window.reshape(1, -1), remain_epochs=np.array([work]))
            num_workers, exec_time = agent.get_action(state)
            g = 0.0
            for hour in range(deadline):
                n = int(num_workers[0, hour])
                if n == 0:
                    continue
                share = float(exec_time[0, hour])
                g += energy_table[n] * window[hour] * share
                schedules.writerow([number, hour, n, repr(share)])
            totals.writerow([number, trace, start, deadline, repr(work), repr(g)])


if __name__ == "__main__":
    main()
