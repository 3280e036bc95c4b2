#!/usr/bin/python3
"""Let's Wait Awhile's own simulator on a year of an hourly trace, timed (scripts/bench-peers).

Imports LWA's simulate.py (dos-group/lets-wait-awhile; its dependencies leaf, vessim and SimPy on the
PYTHONPATH) and runs its ad-hoc strategy as its ML experiment does (simulate.adhoc_worker, perfect
forecast), one 4-hour job submitted every hour with a 12-hour wait, non-interruptible or interruptible.
LWA's own traces are half-hourly; ours are hourly, so its measurement interval is set to 60 minutes, and
the wait is given as 660 minutes of forecast beyond the job (LWA's window includes its end point, so 720
would let a job wait 13 hours).

Prints the CPU seconds of the simulation (trace loading excluded) and the jobs it ran.
"""
import argparse
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trace", required=True)
    parser.add_argument("--interruptible", action="store_true")
    args = parser.parse_args()

    import pandas as pd
    import simulate
    from leaf.infrastructure import Infrastructure, Node
    from leaf.power import PowerModelNode

    frame = pd.read_csv(args.trace)
    index = pd.DatetimeIndex(pd.to_datetime(frame["timestamp"], utc=True).dt.tz_convert(None))
    ci = pd.Series(frame["carbon_intensity_g_per_kwh"].astype(float).values, index=index, name="Carbon Intensity")
    simulate.MEASUREMENT_INTERVAL = 60
    duration, wait = 240, 660
    last = len(ci) - 1 - (duration + wait) // 60
    jobs = [(i, 60 * i, duration) for i in range(0, last + 1)]
    infrastructure = Infrastructure()
    node = Node("dc", power_model=PowerModelNode(power_per_cu=1))
    infrastructure.add_node(node)
    start = time.process_time()
    simulate.adhoc_worker(node, jobs, ci, None, None, wait, args.interruptible)
    print(f"{time.process_time() - start:.3f} {len(jobs)}")


if __name__ == "__main__":
    main()
