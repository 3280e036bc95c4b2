"""A Carbon3D trace as the peer drivers read it: timestamps (ISO UTC) and g/kWh, in file order."""
import csv


def load_trace(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [r["timestamp"] for r in rows], [float(r["carbon_intensity_g_per_kwh"]) for r in rows]
