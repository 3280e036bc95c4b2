#!/usr/bin/python3
"""Let's Wait Awhile's own decisions, job by job, on a year of an hourly trace.

Imports LWA's simulate.py and strategy.py (dos-group/lets-wait-awhile; leaf, vessim and SimPy on the
PYTHONPATH) and runs its ad-hoc strategy as its ML experiment does (simulate.adhoc_worker, perfect
forecast) on one 4-hour job submitted every hour with a 12-hour wait, non-interruptible and interruptible.
LWA reports only the node's power over time, so the hours each job runs are read where its strategy claims
the node: every time it raises the node's used capacity, the running job and the simulated time are noted.
LWA's traces are half-hourly; ours are hourly, so its measurement interval is 60 minutes, and the wait is
660 minutes of forecast beyond the job (its window includes its end point: 720 would allow 13 hours).

Writes one CSV row per job and policy:  submitted,policy,hours  (hours run, as offsets from submission)
"""
import argparse
import csv
import itertools


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    import pandas as pd
    import simulate
    import strategy
    from leaf.infrastructure import Infrastructure, Node
    from leaf.power import PowerModelNode

    class WatchedNode(Node):
        """A node that notes (job, minute) whenever a job raises its used capacity."""

        def __init__(self, *a, **k):
            self.claims = []
            self.env = None
            self.job_of = {}
            self._used = 0
            super().__init__(*a, **k)

        @property
        def used_cu(self):
            return self._used

        @used_cu.setter
        def used_cu(self, value):
            if value > self._used and self.env is not None and self.env.active_process is not None:
                generator = id(self.env.active_process._generator)
                self.claims.append((self.job_of.get(generator), self.env.now))
            self._used = value

    frame = pd.read_csv(args.trace)
    index = pd.DatetimeIndex(pd.to_datetime(frame["timestamp"], utc=True).dt.tz_convert(None))
    ci = pd.Series(frame["carbon_intensity_g_per_kwh"].astype(float).values, index=index, name="Carbon Intensity")
    stamps = list(frame["timestamp"])
    simulate.MEASUREMENT_INTERVAL = 60
    duration, wait = 240, 660
    last = len(ci) - 1 - (duration + wait) // 60
    jobs = [(i, 60 * i, duration) for i in range(0, last + 1)]

    run = strategy.AdHocStrategy.run
    with open(args.out, "w", newline="") as out_file:
        out = csv.writer(out_file, lineterminator="\n")
        out.writerow(["submitted", "policy", "hours"])
        rows = {}
        for interruptible, policy in ((False, "wait-awhile"), (True, "wait-awhile-interruptible")):
            node = WatchedNode("dc", power_model=PowerModelNode(power_per_cu=1))
            Infrastructure().add_node(node)
            order = itertools.count()

            def numbered(self, env, length, node=node, order=order):
                node.env = env
                generator = run(self, env, length)
                node.job_of[id(generator)] = next(order)  # jobs start their processes in submission order
                return generator

            strategy.AdHocStrategy.run = numbered
            simulate.adhoc_worker(node, jobs, ci, None, None, wait, interruptible)
            strategy.AdHocStrategy.run = run
            hours = {}
            for job, minute in node.claims:
                hours.setdefault(job, []).append(minute // 60 - jobs[job][1] // 60)
            for job, arrival, _ in jobs:
                rows[(job, policy)] = " ".join(str(h) for h in sorted(set(hours.get(job, [])) | {
                    h + k for h in hours.get(job, []) for k in range(duration // 60 if not interruptible else 1)}))
        for job, arrival, _ in jobs:
            for policy in ("wait-awhile", "wait-awhile-interruptible"):
                out.writerow([stamps[arrival // 60], policy, rows[(job, policy)]])


if __name__ == "__main__":
    main()
