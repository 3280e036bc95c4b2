// SPDX-License-Identifier: MIT
#include "storage/StoredRun.h"

#include <QCryptographicHash>

namespace carbon3d {

StoredTrace storedTraceOf(const CarbonTrace& trace) {
    StoredTrace stored;
    stored.regionId = trace.regionId;
    stored.contentSha256 = trace.provenance.contentSha256;
    stored.sourceColumn = trace.provenance.column;
    stored.sourceFile = trace.provenance.sourceFile;
    stored.format = trace.provenance.format;
    stored.signal = carbonSignalName(trace.signal);
    stored.stepSeconds = trace.stepSeconds;
    stored.startUtc = trace.startUtc;
    stored.rows = static_cast<std::int64_t>(trace.size());
    stored.attribution = trace.provenance.attribution;
    if (stored.contentSha256.empty()) {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        const auto addBytes = [&hash](const void* data, std::size_t size) {
            hash.addData(QByteArrayView(static_cast<const char*>(data), static_cast<qsizetype>(size)));
        };
        addBytes(&trace.startUtc, sizeof trace.startUtc);
        addBytes(&trace.stepSeconds, sizeof trace.stepSeconds);
        addBytes(trace.gPerKwh.data(), trace.gPerKwh.size() * sizeof(double));
        addBytes(trace.marginalGPerKwh.data(), trace.marginalGPerKwh.size() * sizeof(double));
        stored.contentSha256 = "values:" + hash.result().toHex().toStdString();
    }
    return stored;
}

std::vector<StoredTrace> storedTracesOf(const Scenario& scenario) {
    std::vector<StoredTrace> traces;
    traces.reserve(scenario.regions.size());
    for (const RegionSpec& region : scenario.regions) {
        StoredTrace trace = storedTraceOf(region.trace);
        if (trace.regionId.empty())
            trace.regionId = region.regionId; // the scenario names the region when the trace file does not
        traces.push_back(std::move(trace));
    }
    return traces;
}

const char* runStatusName(RunStatus status) {
    switch (status) {
    case RunStatus::MetDeadline:
        return "met-deadline";
    case RunStatus::MissedDeadline:
        return "missed-deadline";
    case RunStatus::Unfinished:
        return "unfinished";
    }
    return "?";
}

RunStatus runStatusOf(const RunMetrics& metrics) {
    if (!metrics.finished)
        return RunStatus::Unfinished;
    return metrics.deadlineMet ? RunStatus::MetDeadline : RunStatus::MissedDeadline;
}

} // namespace carbon3d
