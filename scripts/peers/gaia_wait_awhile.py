#!/usr/bin/python3
"""Let's Wait Awhile's two policies as GAIA's simulator decides them, on one of our traces.

Imports GAIA's own modules from a checkout (umassos/GAIA; the caller names the directory) and asks its
policy functions for the decision of every job: a job of LENGTH hours submitted at every hour of the trace,
allowed to wait WAIT hours (its deadline is LENGTH + WAIT hours after submission), at 1 kW, on a perfect
forecast.
  - non-interruptible: GAIA's `oracle_carbon_slot` (the "carbon" scheduler with carbon policy "oracle",
    which picks the start of the cheapest whole window on the hour; the Wait Awhile paper's
    non-interruptible policy),
  - interruptible: GAIA's `SuspendSchedulingPolicy.compute_schedule_optimal` (its "suspend-resume"
    scheduler, which the GAIA paper calls WaitAwhile: the cheapest slots of the window).
GAIA runs on its own clock: a tick of TIME_FACTOR seconds, each hour's intensity spread evenly over its
ticks (CarbonModel.extend). We keep that clock and read the decision back in hours.

Writes one CSV row per submission that fits the trace:
    submitted,policy,hours,g
where `hours` lists the hours run as offsets from the submission (space separated) and `g` is GAIA's
carbon of the job times 1 kW, in g. Nothing of GAIA is written out but these decisions.
"""
import argparse
import csv
import sys

from carbon3d_trace import load_trace


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gaia", required=True, help="a checkout of umassos/GAIA (its src/ is imported)")
    parser.add_argument("--trace", required=True, help="an hourly trace in Carbon3D's CSV format")
    parser.add_argument("--length-hours", type=int, default=4)
    parser.add_argument("--wait-hours", type=int, default=12)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    sys.path.insert(0, args.gaia + "/src")
    import pandas as pd
    import task as gaia_task
    from carbon import CarbonModel
    from scheduling.carbon_waiting_policy import oracle_carbon_slot
    from scheduling.suspend_scheduling_policy import SuspendSchedulingPolicy

    ticks_per_hour = 3600 // gaia_task.TIME_FACTOR
    timestamps, ci = load_trace(args.trace)
    # GAIA's traces are in g/kWh and divided by 1000 on load (get_carbon_model); its carbon of a job is
    # then kg per kW of CPUs. We keep g/kWh so that the job's carbon comes out in g for 1 kW.
    hourly = CarbonModel("trace", pd.DataFrame({"carbon_intensity_g_per_kwh": ci}).rename(
        columns={"carbon_intensity_g_per_kwh": "carbon_intensity_avg"}), 0, "ORACLE")
    model = hourly.extend(ticks_per_hour)

    gaia_task.set_waiting_times(str(args.wait_hours))
    length = args.length_hours * ticks_per_hour
    wait = args.wait_hours * ticks_per_hour
    suspend = SuspendSchedulingPolicy(None, model, optimal=True)

    with open(args.out, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["submitted", "policy", "hours", "g"])
        last_submission = len(ci) - args.length_hours - args.wait_hours
        for hour in range(0, last_submission + 1):
            now = hour * ticks_per_hour
            job = gaia_task.Task(hour, now, length, 1)

            # GAIA's "carbon" scheduler asks for the window it submits in SchedulingPolicy.submit.
            window = model.subtrace(now, now + max(job.task_length, job.expected_time) + job.waiting_time + 1)
            schedule = oracle_carbon_slot(job, window)
            start = schedule.start_time // ticks_per_hour
            hours = " ".join(str(start + i) for i in range(args.length_hours))
            out.writerow([timestamps[hour], "wait-awhile", hours, repr(schedule.carbon_cost)])

            # GAIA's "suspend-resume" scheduler asks for the window it submits in its own submit.
            window = model.subtrace(now, now + job.task_length + job.waiting_time)
            ticks = suspend.compute_schedule_optimal(window.df, job)
            ran = sorted({i // ticks_per_hour for i, on in enumerate(ticks) if on})
            carbon = sum(window.df["carbon_intensity_avg"][i] for i, on in enumerate(ticks) if on)
            out.writerow([timestamps[hour], "wait-awhile-interruptible", " ".join(map(str, ran)), repr(carbon)])
            if hour % 500 == 0:
                print(f"{hour} of {last_submission + 1} submissions", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
