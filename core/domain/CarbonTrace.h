// SPDX-License-Identifier: MIT
#pragma once

#include "domain/SharedSeries.h"
#include "domain/Time.h"

#include <cstddef>
#include <string>
#include <vector>

namespace carbon3d {

// Average (attributional) intensity is what grid operators and Electricity Maps publish by default;
// marginal intensity (WattTime MOER) is the emission rate of the generator that responds to a change
// in load. They answer different questions and give different savings (docs/MODEL.md section 7).
enum class CarbonSignal { Average, Marginal };

const char* carbonSignalName(CarbonSignal signal); // "average" / "marginal"

// Where a trace came from and what was done to it on the way in.
struct TraceProvenance {
    std::string sourceFile;    // path as given by the user
    std::string format;        // e.g. "canonical-csv", "electricitymaps-csv", "watttime-moer-csv"
    std::string column;        // which source column was used, e.g. "Carbon Intensity gCO2eq/kWh (LCA)"
    std::string contentSha256; // hex SHA-256 of the file's bytes (identifies the trace in the results store)
    std::string attribution;   // licence / attribution text that must travel with the data
    std::vector<std::string>
        repairs; // every explicit repair applied (empty unless the user asked for repairs)
    // Facts about the data that changed nothing but a reader should know, e.g. "1227 of 8760 rows are
    // flagged as estimated by the source" or "48 rows use the forecast because the actual is null".
    std::vector<std::string> notes;
    std::size_t estimatedRows =
        0; // rows the source marks as estimated/modelled or forecast-in-place-of-actual
    // The direct (operational) intensity was asked for: a file holding both columns gives another trace than
    // its default, so the trace's identity says so (ScenarioJson's traceFingerprint).
    bool directColumn = false;
};

// A piecewise-constant carbon-intensity signal on a uniform UTC grid.
// Slot i covers [startUtc + i*stepSeconds, startUtc + (i+1)*stepSeconds); its value holds over the
// whole slot (timestamps mark the START of an interval, docs/MODEL.md section 1).
struct CarbonTrace {
    std::string regionId;         // e.g. "US-CAL-CISO" (Electricity Maps zone id)
    std::string timeZone = "UTC"; // IANA zone of the region, for local-time rules and plots
    // No zone was given and the region is not one whose zone is known (traces/RegionTimeZones.h), so
    // timeZone is UTC by assumption: every run on it says so in a warning.
    bool timeZoneAssumed = false;
    CarbonSignal signal = CarbonSignal::Average;
    UtcSeconds startUtc = 0;         // start of slot 0, seconds since the Unix epoch
    std::int64_t stepSeconds = 3600; // slot length, 300..3600 s
    // Shared by copies until one changes (SharedSeries): a study copies its trace into every cell.
    SharedSeries gPerKwh;         // one value per slot, gCO2eq/kWh, of kind `signal`
    SharedSeries marginalGPerKwh; // optional companion marginal series (same grid), empty if absent
    TraceProvenance provenance;

    std::size_t size() const { return gPerKwh.size(); }
    bool empty() const { return gPerKwh.empty(); }
    UtcSeconds endUtc() const { return startUtc + static_cast<std::int64_t>(size()) * stepSeconds; }
    UtcSeconds slotStart(std::size_t i) const {
        return startUtc + static_cast<std::int64_t>(i) * stepSeconds;
    }
    bool hasMarginal() const { return !marginalGPerKwh.empty(); }
};

// What a run on a trace whose time zone is assumed (CarbonTrace::timeZoneAssumed) warns, and validate prints.
std::string timeZoneAssumedWarning(const CarbonTrace& trace);

} // namespace carbon3d
