#!/usr/bin/python3
"""Chase's power-limit decisions as its authors' code makes them, for the cases of a cases file.

Loads `zeus/carbon.py` from a checkout of ml-energy/zeus on its `chase` branch (the caller names the
directory; only that file is imported, so Zeus's GPU dependencies are not needed) and, per case, builds its
`CarbonMonitor` on our trace and asks `carbon_cost` for the power limit at every decision, as Zeus's data
loader does on that branch (zeus/run/dataloader.py): the SVR is fitted once when the monitor is built,
each decision forecasts the next row from the true last one, and the monitor then steps one row.

CarbonMonitor reads a fixed path (/workspace/zeus/trace/carbon_hist.csv) with a `hist` column of 30-minute
rows; it is given the case's rows instead (pandas.read_csv is answered for that path only). A case is
HOURS hours of an hourly trace from a start, each hour repeated as two 30-minute rows.

Writes one CSV row per decision:  case,row,forecast,power_limit_w
"""
import argparse
import csv
import importlib.util
import json
import os

from carbon3d_trace import load_trace


def load_table(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    power = {float(r["power_limit_w"]): float(r["power_w"]) for r in rows}
    tput = {float(r["power_limit_w"]): float(r["throughput"]) for r in rows}
    # Zeus lists the limits from the highest down (dataloader.py), which decides ties.
    return power, tput, sorted(power, reverse=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--zeus", required=True, help="a checkout of ml-energy/zeus, branch chase")
    parser.add_argument("--cases", required=True)
    parser.add_argument("--traces", required=True, help="the folder of the cases' traces")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    import pandas as pd
    spec_file = importlib.util.spec_from_file_location("chase_carbon", os.path.join(args.zeus, "zeus", "carbon.py"))
    chase = importlib.util.module_from_spec(spec_file)
    spec_file.loader.exec_module(chase)

    with open(args.cases) as f:
        spec = json.load(f)
    folder = os.path.dirname(args.cases)
    with open(os.path.join(folder, spec["base"])) as f:
        table = json.load(f)["operating_points"]
    power, tput, limits = load_table(os.path.normpath(os.path.join(folder, table)))

    read_csv = pd.read_csv
    rows_now = []

    def answer(path, *a, **k):
        if str(path) == "/workspace/zeus/trace/carbon_hist.csv":
            return pd.DataFrame({"hist": rows_now})
        return read_csv(path, *a, **k)

    pd.read_csv = answer
    first = spec["first_decision_row"]
    with open(args.out, "w", newline="") as out_file:
        out = csv.writer(out_file, lineterminator="\n")
        out.writerow(["case", "row", "forecast", "power_limit_w"])
        number = 0
        for trace in spec["traces"]:
            stamps, ci = load_trace(os.path.join(args.traces, trace))
            for start in spec["starts"]:
                at = stamps.index(start)
                rows_now[:] = [v for v in ci[at:at + spec["hours"]] for _ in range(2)]
                for eta in spec["etas"]:
                    monitor = chase.CarbonMonitor(interval_min=30, start_step=first)
                    for row in range(first, len(rows_now)):
                        forecast = monitor.get_forecast()
                        limit, _ = chase.carbon_cost(power, tput, limits, forecast, eta_knob=eta)
                        out.writerow([number, row, repr(float(forecast)), repr(limit)])
                        monitor.update_steps(1)
                    number += 1
    pd.read_csv = read_csv


if __name__ == "__main__":
    main()
