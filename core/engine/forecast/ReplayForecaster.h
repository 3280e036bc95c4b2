// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ForecastArchive.h"
#include "engine/forecast/Forecaster.h"

#include <memory>

namespace carbon3d {

// Replays the forecasts a team kept (ForecastArchive): a forecast issued at the start of slot `first` is the
// archive's latest issue published at or before that instant, averaged onto the trace's slots. Nothing
// published later is seen. Where that issue predicts nothing (beyond its reach, or before the archive's
// first issue) the forecast falls back to persistence: the issue's last prediction for later slots, the last
// observed value when there is no issue at all. The fallbacks are counted and a run says so
// (coverageWarning).
class ReplayForecaster : public Forecaster {
public:
    // Throws InputError when the archive is for another region or another signal than the trace.
    ReplayForecaster(std::shared_ptr<const ForecastArchive> archive, const CarbonTrace& trace);
    std::string name() const override { return "replay"; }
    void predict(std::size_t first, std::size_t count, std::vector<double>& out) override;
    std::string coverageWarning() const override;

private:
    std::shared_ptr<const ForecastArchive> m_archive;
    const CarbonTrace& m_trace;
    std::size_t m_slotsPredicted = 0;
    std::size_t m_slotsFromFallback = 0;
    std::size_t m_forecastsWithoutIssue = 0;
};

} // namespace carbon3d
