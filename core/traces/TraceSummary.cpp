// SPDX-License-Identifier: MIT
#include "traces/TraceSummary.h"

#include "domain/PrintableText.h"

#include <algorithm>
#include <limits>

namespace carbon3d {

TraceSummary summarizeTrace(const CarbonTrace& trace) {
    TraceSummary summary;
    summary.rows = trace.size();
    summary.startUtc = trace.startUtc;
    summary.endUtc = trace.endUtc();
    summary.stepSeconds = trace.stepSeconds;
    if (trace.empty()) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        summary.minGPerKwh = summary.meanGPerKwh = summary.maxGPerKwh = nan;
        return summary;
    }
    const auto [lo, hi] = std::minmax_element(trace.gPerKwh.begin(), trace.gPerKwh.end());
    summary.minGPerKwh = *lo;
    summary.maxGPerKwh = *hi;
    // Neumaier summation: a year of 5-minute slots is 105,120 values; keep the mean exact to ~1 ulp.
    double sum = 0.0;
    double compensation = 0.0;
    for (const double v : trace.gPerKwh) {
        const double t = sum + v;
        compensation += std::abs(sum) >= std::abs(v) ? (sum - t) + v : (v - t) + sum;
        sum = t;
    }
    summary.meanGPerKwh = (sum + compensation) / static_cast<double>(trace.size());
    return summary;
}

std::string traceAssumptionsText(const CarbonTrace& trace) {
    const TraceProvenance& source = trace.provenance;
    std::string text = source.format.empty() ? std::string("a trace") : source.format;
    if (!source.column.empty())
        text += ", column '" + printable(source.column) + "'";
    text += std::string(", ") + carbonSignalName(trace.signal) + " gCO2e/kWh";
    text += trace.timeZoneAssumed ? "; " + timeZoneAssumedWarning(trace) : "; time zone " + trace.timeZone;
    text += "; " + std::to_string(trace.size()) + " slots of " + std::to_string(trace.stepSeconds / 60) +
            " min from " + formatIsoUtc(trace.startUtc);
    for (const std::string& repair : source.repairs)
        text += "; repaired: " + printable(repair);
    for (const std::string& note : source.notes)
        text += "; " + printable(note);
    return text;
}

} // namespace carbon3d
