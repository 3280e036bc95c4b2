// SPDX-License-Identifier: MIT
#include "engine/forecast/ReplayForecaster.h"

#include "domain/InputError.h"
#include "domain/NumberText.h"

namespace carbon3d {

ReplayForecaster::ReplayForecaster(std::shared_ptr<const ForecastArchive> archive, const CarbonTrace& trace)
    : m_archive(std::move(archive))
    , m_trace(trace) {
    if (!m_archive)
        throw InputError("forecast", 0, 0, "the replay forecast needs a forecast file (forecast.file)");
    if (!m_archive->regionId.empty() && !trace.regionId.empty() && m_archive->regionId != trace.regionId)
        throw InputError(m_archive->sourcePath, 0, 0,
                         "forecasts for region '" + m_archive->regionId + "': expected the run's region '" +
                             trace.regionId + "'");
    if (m_archive->signal && *m_archive->signal != trace.signal)
        throw InputError(m_archive->sourcePath, 0, 0,
                         std::string("forecasts of the ") + carbonSignalName(*m_archive->signal) +
                             " signal: expected the trace's " + carbonSignalName(trace.signal) +
                             " signal (a forecast of one cannot stand in for the other)");
}

void ReplayForecaster::predict(std::size_t first, std::size_t count, std::vector<double>& out) {
    out.assign(count, 0.0);
    const ForecastIssue* issue = m_archive->latestIssuedBy(m_trace.slotStart(first));
    // Persistence, past only: the last observed value (the first slot's own when nothing precedes it, the one
    // leak every past-only forecaster shares, docs/ENGINE.md).
    double held = m_trace.gPerKwh[first > 0 ? first - 1 : 0];
    if (issue == nullptr)
        ++m_forecastsWithoutIssue;
    for (std::size_t i = 0; i < count; ++i) {
        const UtcSeconds start = m_trace.slotStart(first + i);
        const std::optional<double> predicted =
            issue != nullptr ? issue->valueOver(start, start + m_trace.stepSeconds) : std::nullopt;
        if (predicted)
            held = *predicted;
        else
            ++m_slotsFromFallback;
        out[i] = held;
    }
    m_slotsPredicted += count;
}

std::string ReplayForecaster::coverageWarning() const {
    if (m_slotsFromFallback == 0)
        return {};
    std::string warning =
        "the forecast file predicted " +
        fixedNumber(100.0 * static_cast<double>(m_slotsPredicted - m_slotsFromFallback) /
                        static_cast<double>(m_slotsPredicted),
                    1) +
        " % of the slots the policy asked about; the rest held the last value (persistence)";
    if (m_forecastsWithoutIssue > 0)
        warning += "; " + std::to_string(m_forecastsWithoutIssue) +
                   " forecasts came before its first issue (" +
                   formatIsoUtc(m_archive->issues.front().issuedUtc) + ")";
    return warning;
}

} // namespace carbon3d
