#!/usr/bin/python3
"""The dynamic-parallelism authors' greedy schedules, as their own code makes them, for the cases of a file.

Imports `GreedyScheduler` and `Strategy` from greedy_scheduler.py in a checkout of Wafik20/Megatron-LM (the
caller names the folder) and asks its `as_offline_schedule` for each case's phases: from step 0 in the launch
configuration, a decision every `decide_every` steps on the cached operating points, a switch adding its time
to the clock; `replay_carbon` then gives the schedule's grams and seconds. The forecast is the trace itself
(a perfect forecast), hour by hour from the case's start.

The cases file (JSON) lists strategy sets (tp, pp, power_w, step_time_s), traces, starts (UTC, on the hour)
and deadlines in hours, with the job's steps and the policy's parameters. Every combination is a case,
numbered in the order strategy set, trace, start, deadline (the last varying fastest). The job launches in
the set's fastest strategy (the first of equals).

Writes two CSV files:
    PHASES: case,start_step,end_step,tp,pp   (as the code returns them, the launch phase of no steps included)
    TOTALS: case,strategies,trace,start,deadline_hours,g,seconds
"""
import argparse
import csv
import json
import os
import sys

from carbon3d_trace import load_trace


def cases(spec):
    for name in spec["strategy_sets"]:
        for trace in spec["traces"]:
            for start in spec["starts"]:
                for deadline in spec["deadline_hours"]:
                    yield name, trace, start, deadline


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megatron", required=True, help="a checkout of Wafik20/Megatron-LM (greedy_scheduler.py)")
    parser.add_argument("--cases", required=True)
    parser.add_argument("--traces", required=True, help="the folder of the cases' traces")
    parser.add_argument("--phases", required=True)
    parser.add_argument("--totals", required=True)
    args = parser.parse_args()

    sys.path.insert(0, args.megatron)
    from greedy_scheduler import GreedyScheduler, Strategy

    with open(args.cases) as f:
        spec = json.load(f)
    policy = spec["policy"]
    with open(args.phases, "w", newline="") as p, open(args.totals, "w", newline="") as t:
        phases = csv.writer(p, lineterminator="\n")
        totals = csv.writer(t, lineterminator="\n")
        phases.writerow(["case", "start_step", "end_step", "tp", "pp"])
        totals.writerow(["case", "strategies", "trace", "start", "deadline_hours", "g", "seconds"])
        traces = {}
        for number, (name, trace, start, deadline) in enumerate(cases(spec)):
            if trace not in traces:
                traces[trace] = load_trace(os.path.join(args.traces, trace))
            stamps, ci = traces[trace]
            first = stamps.index(start)
            strategies = [Strategy(tp=s["tp"], pp=s["pp"], power_w=float(s["power_w"]),
                                   step_time_s=float(s["step_time_s"])) for s in spec["strategy_sets"][name]]
            launch = min(range(len(strategies)), key=lambda i: strategies[i].step_time_s)
            scheduler = GreedyScheduler(
                strategies=strategies,
                switch_time_s=float(policy["switch_time_s"]),
                switch_power_w=float(policy["switch_power_w"]),
                total_steps=int(spec["total_steps"]),
                deadline_s=deadline * 3600.0,
                # The forecast reaches a day past the deadline; the code holds its last value beyond.
                ci_forecast_hourly_gco2_per_kwh=ci[first:first + deadline + 24],
                lookahead_steps=int(policy["lookahead_steps"]),
                ema_alpha=float(policy["ema_alpha"]),
                initial_strategy_idx=launch,
            )
            schedule = scheduler.as_offline_schedule(decide_every=int(policy["decide_every"]))
            for phase in schedule:
                phases.writerow([number, phase["start_step"], phase["end_step"], phase["tp"], phase["pp"]])
            g, seconds = scheduler.replay_carbon(schedule)
            totals.writerow([number, name, trace, start, deadline, repr(g), repr(seconds)])


if __name__ == "__main__":
    main()
