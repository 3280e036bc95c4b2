#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Regenerates the format fixtures in this folder from the bundled canonical traces.

Every fixture is laid out exactly as its provider publishes it; the numbers come from
sample_data/traces (Electricity Maps 2022, ODbL 1.0) as described in README.md. Run from anywhere:
    python3 tests/data/traces/make_fixtures.py
"""
import csv
import json
import os
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
TRACES = os.path.join(HERE, "..", "..", "..", "sample_data", "traces")
LBS_PER_MWH_PER_G_PER_KWH = 1 / 0.45359237


def canonical(name, rows):
    with open(os.path.join(TRACES, name), newline="") as f:
        reader = csv.reader(f)
        next(reader)
        out = []
        for i, (ts, value) in enumerate(reader):
            if i >= rows:
                break
            out.append((datetime.strptime(ts, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc), value))
        return out


def write(name, text):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


# Electricity Maps Data Portal CSV, Germany, 3 days. LCA copied from DE_2022.csv; the direct column is
# not in the bundled files, so it is the LCA value times 406.15/473.98 (ratio of the annual means in
# SOURCES.md), rounded to 2 decimals: it only exercises the column switch. Hours 05 and 06 of day 2 are
# flagged estimated to exercise the count.
de = canonical("DE_2022.csv", 72)
lines = ["Datetime (UTC),Country,Zone Name,Zone Id,Carbon Intensity gCO\u2082eq/kWh (direct),"
         "Carbon Intensity gCO\u2082eq/kWh (LCA),Low Carbon Percentage,Renewable Percentage,Data Source,"
         "Data Estimated,Data Estimation Method"]
for i, (t, lca) in enumerate(de):
    direct = "%.2f" % (float(lca) * 406.15 / 473.98)
    estimated = i in (29, 30)
    lines.append(",".join([t.strftime("%Y-%m-%d %H:%M:%S"), "Germany", "Germany", "DE", direct, lca, "", "",
                           "entsoe.eu", "true" if estimated else "false",
                           "ESTIMATED_TIME_SLICER_AVERAGE" if estimated else ""]))
write("DE_2022_electricitymaps.csv", "\r\n".join(lines) + "\r\n")

# WattTime MOER CSV (v2 historical layout), CAISO_NORTH, 2 days at 5 minutes. NOT marginal data: the
# CISO hourly average values restated in lbs/MWh (x 1/0.45359237, 3 decimals) and held for the twelve
# 5-minute points of each hour; it only exercises the layout, the unit conversion and the resolution.
ciso = canonical("US-CAL-CISO_2022.csv", 48)
lines = ["point_time,value,frequency,market,ba,datatype,version"]
for t, value in ciso:
    lbs = "%.3f" % (float(value) * LBS_PER_MWH_PER_G_PER_KWH)
    for k in range(12):
        p = t + timedelta(minutes=5 * k)
        lines.append(",".join([p.strftime("%Y-%m-%dT%H:%M:%S+00:00"), lbs, "300", "RTM", "CAISO_NORTH", "MOER",
                               "3.2"]))
write("CAISO_NORTH_watttime_moer.csv", "\n".join(lines) + "\n")

# UK Carbon Intensity API, national /intensity/{from}/{to}, 3 days at 30 minutes. Values are GB_2022.csv
# hourly values on both half hours (Electricity Maps' consumption-based figure, not the NG ESO series);
# "forecast" is the same value rounded to an integer as the API reports integers. Four half hours have
# "actual": null, as the live API does for the latest slots.
gb = canonical("GB_2022.csv", 72)


def index_of(v):
    return "very low" if v < 40 else "low" if v < 120 else "moderate" if v < 200 else "high" if v < 290 else "very high"


rows = []
for i in range(144):
    t, value = gb[i // 2]
    start = t + timedelta(minutes=30 * (i % 2))
    v = float(value)
    actual = None if i in (40, 41, 42, 43) else v
    rows.append({"from": start.strftime("%Y-%m-%dT%H:%MZ"),
                 "to": (start + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%MZ"),
                 "intensity": {"forecast": round(v), "actual": actual, "index": index_of(v)}})
write("GB_2022_carbonintensity_national.json",
      "{\"data\":[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]}\n")

# The regional endpoint /regional/intensity/{from}/{to}/regionid/13 (London), 1 day: forecasts only.
rows = []
for i in range(48):
    t, value = gb[i // 2]
    start = t + timedelta(minutes=30 * (i % 2))
    rows.append({"from": start.strftime("%Y-%m-%dT%H:%MZ"),
                 "to": (start + timedelta(minutes=30)).strftime("%Y-%m-%dT%H:%MZ"),
                 "intensity": {"forecast": round(float(value)), "index": index_of(float(value))}})
write("GB_2022_carbonintensity_region13.json",
      "{\"data\":[{\"regionid\":13,\"dnoregion\":\"UKPN London\",\"shortname\":\"London\",\"data\":[\n" +
      ",\n".join(json.dumps(r, separators=(",", ":")) for r in rows) + "\n]}]}\n")

# Carbon Aware SDK /emissions/bylocations response, location "westus", 3 days hourly, CISO values.
ciso = canonical("US-CAL-CISO_2022.csv", 72)
records = [{"location": "westus", "time": t.strftime("%Y-%m-%dT%H:%M:%S+00:00"), "rating": float(v),
            "duration": "01:00:00"} for t, v in ciso]
write("westus_carbonaware.json", "[\n" + ",\n".join("  " + json.dumps(r) for r in records) + "\n]\n")

# Canonical file for repair mode, CISO 2022-01-01 00:00..11:00Z: hours 04 and 05 missing (a gap of 2),
# hour 08 repeated with the same value (an exact duplicate), hours 09 and 10 swapped (unsorted).
ciso = canonical("US-CAL-CISO_2022.csv", 12)
order = [0, 1, 2, 3, 6, 7, 8, 8, 10, 9, 11]
write("US-CAL-CISO_repairable.csv", "timestamp,carbon_intensity_g_per_kwh\n" + "".join(
    "%s,%s\n" % (ciso[i][0].strftime("%Y-%m-%dT%H:%M:%SZ"), ciso[i][1]) for i in order))

# Canonical file with the optional marginal column (marginal = the ERCOT average + 15%, for the layout).
erco = canonical("US-TEX-ERCO_2022.csv", 24)
write("US-TEX-ERCO_withmarginal.csv", "timestamp,carbon_intensity_g_per_kwh,marginal_g_per_kwh\n" + "".join(
    "%s,%s,%.2f\n" % (t.strftime("%Y-%m-%dT%H:%M:%SZ"), v, float(v) * 1.15) for t, v in erco))

# Electricity Maps Data Portal CSV as the portal writes it today (the header of a 2026 download: "Zone name", "Zone id",
# "(Life cycle)", CFE% and RE% columns), Germany, 2 days; LF line ends. Numbers as in the older fixture.
lines = ["Datetime (UTC),Country,Zone name,Zone id,Carbon intensity gCO\u2082eq/kWh (direct),"
         "Carbon intensity gCO\u2082eq/kWh (Life cycle),Carbon-free energy percentage (CFE%),"
         "Renewable energy percentage (RE%),Data source,Data estimated,Data estimation method"]
for i, (t, lca) in enumerate(de[:48]):
    direct = "%.2f" % (float(lca) * 406.15 / 473.98)
    lines.append(",".join([t.strftime("%Y-%m-%d %H:%M:%S"), "Germany", "Germany", "DE", direct, lca, "", "",
                           "entsoe.eu", "false", ""]))
write("DE_2022_electricitymaps_today.csv", "\n".join(lines) + "\n")

# The portal's daily file for the same days: the mean of each day's 24 LCA values, 2 decimals (derived).
lines = ["Datetime (UTC),Country,Zone name,Zone id,Carbon intensity gCO\u2082eq/kWh (direct),"
         "Carbon intensity gCO\u2082eq/kWh (Life cycle),Carbon-free energy percentage (CFE%),"
         "Renewable energy percentage (RE%),Data source,Data estimated,Data estimation method"]
for day in range(3):
    values = [float(v) for _, v in de[24 * day:24 * day + 24]]
    mean = sum(values) / 24
    lines.append(",".join([de[24 * day][0].strftime("%Y-%m-%d %H:%M:%S"), "Germany", "Germany", "DE",
                           "%.2f" % (mean * 406.15 / 473.98), "%.2f" % mean, "", "", "entsoe.eu", "false", ""]))
write("DE_2022_electricitymaps_daily.csv", "\n".join(lines) + "\n")


# Electricity Maps API v3 responses (the documented record: zone, carbonIntensity, datetime, updatedAt,
# createdAt, emissionFactorType, isEstimated, estimationMethod, temporalGranularity). Values are the bundled
# LCA values rounded to integers, as the API reports them.
def em_record(zone, t, value, factor, estimated=False):
    stamp = t.strftime("%Y-%m-%dT%H:%M:%S.000Z")
    return {"zone": zone, "carbonIntensity": value, "datetime": stamp, "updatedAt": stamp, "createdAt": stamp,
            "emissionFactorType": factor, "isEstimated": estimated,
            "estimationMethod": "TIME_SLICER_AVERAGE" if estimated else None, "temporalGranularity": "hourly"}


# /v3/carbon-intensity/history?zone=DE: the last 24 hours, life cycle; hour 5 estimated.
records = [em_record("DE", t, round(float(v)), "lifecycle", i == 5) for i, (t, v) in enumerate(de[:24])]
write("DE_2022_electricitymaps_api_history.json",
      json.dumps({"zone": "DE", "history": records}, indent=2) + "\n")

# /v3/carbon-intensity/past-range?zone=FR&emissionFactorType=direct: 24 hours. Direct values are FR's LCA
# values x 0.6, rounded (derived: they test the layout and the factor type, not France's grid).
fr = canonical("FR_2022.csv", 24)
records = [em_record("FR", t, round(float(v) * 0.6), "direct") for t, v in fr]
write("FR_2022_electricitymaps_api_past_range_direct.json",
      json.dumps({"zone": "FR", "data": records}, indent=2) + "\n")

# /v3/carbon-intensity/past?zone=DE&datetime=2022-01-01T00:00Z: one record.
write("DE_2022_electricitymaps_api_past.json",
      json.dumps(em_record("DE", de[0][0], round(float(de[0][1])), "lifecycle"), indent=2) + "\n")

# WattTime v3 /v3/historical?region=CAISO_NORTH&signal_type=co2_moer: 5-minute points with "meta". NOT
# marginal data: as the v2 fixture, the CISO hourly averages restated in lbs/MWh and held for 12 points.
ciso = canonical("US-CAL-CISO_2022.csv", 24)
points = [{"point_time": (t + timedelta(minutes=5 * k)).strftime("%Y-%m-%dT%H:%M:%S+00:00"),
           "value": round(float(v) * LBS_PER_MWH_PER_G_PER_KWH, 1)} for t, v in ciso for k in range(12)]
meta = {"data_point_period_seconds": 300, "region": "CAISO_NORTH", "warnings": [], "signal_type": "co2_moer",
        "model": {"date": "2023-03-01", "type": "binned_regression"}, "units": "lbs_co2_per_mwh"}
write("CAISO_NORTH_watttime_v3.json", json.dumps({"data": points, "meta": meta}, indent=1) + "\n")

# A plain two-column CSV with its unit in the header: CISO's first day in lbs/MWh (3 decimals).
write("US-CAL-CISO_plain_lbs.csv", "timestamp,carbon_intensity (lbs CO2/MWh)\n" + "".join(
    "%s,%.3f\n" % (t.strftime("%Y-%m-%dT%H:%M:%SZ"), float(v) * LBS_PER_MWH_PER_G_PER_KWH) for t, v in ciso))
