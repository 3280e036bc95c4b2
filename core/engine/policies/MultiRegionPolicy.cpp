// SPDX-License-Identifier: MIT
#include "engine/policies/MultiRegionPolicy.h"

#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "perf/ModelMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace carbon3d {

double checkpointBytes(double parameters) {
    return parameters * (2.0 + 12.0);
}

double checkpointMigrationSeconds(double parameters, double wanBitsPerSecond, double restartSeconds) {
    return checkpointBytes(parameters) * 8.0 / wanBitsPerSecond + restartSeconds;
}

std::vector<PolicyOptionInfo> migrationPricingOptions() {
    return {choiceOption("migration", "scenario", {"scenario", "checkpoint"},
                         "scenario (modelling.migration_seconds) | checkpoint (params x 14 B x 8 / WAN + "
                         "preemption_seconds)"),
            numberOption("wan_gbps", "10", 1e-6, 1e6, "WAN bandwidth for the checkpoint transfer, Gbit/s")};
}

MigrationPricing migrationPricing(const PolicyOptions& options) {
    return {options.text("migration") == "checkpoint", 1e9 * options.number("wan_gbps")};
}

void recordMigrationPricing(const MigrationPricing& pricing, std::map<std::string, std::string>& options) {
    options["migration"] = pricing.checkpoint ? "checkpoint" : "scenario";
    options["wan_gbps"] = shortestNumber(pricing.wanBitsPerSecond / 1e9);
}

std::optional<SimulationInput> priceMigration(const MigrationPricing& pricing,
                                              const InputAdaptation& adaptation,
                                              std::optional<SimulationInput> changed,
                                              const SimulationInput& input) {
    if (!pricing.checkpoint)
        return changed;
    if (!changed)
        changed = input;
    changed->modelling.migrationSeconds = std::round(
        checkpointMigrationSeconds(parameterCount(adaptation.scenario.job.model), pricing.wanBitsPerSecond,
                                   adaptation.scenario.modelling.preemptionSeconds));
    return changed;
}

MultiRegionPolicy::MultiRegionPolicy(MultiRegionParameters parameters, std::unique_ptr<Policy> inner)
    : m_p(std::move(parameters))
    , m_inner(std::move(inner)) {}

std::optional<SimulationInput> MultiRegionPolicy::adaptInput(const InputAdaptation& adaptation,
                                                             const SimulationInput& input) {
    return priceMigration(m_p.migration, adaptation, m_inner->adaptInput(adaptation, input), input);
}

std::map<std::string, std::string> MultiRegionPolicy::options() const {
    // Numbers in the shortest text that reads back to the same value, whatever the locale.
    std::map<std::string, std::string> result{{"window_hours", shortestNumber(m_p.windowHours)},
                                              {"hysteresis", m_p.hysteresis ? "true" : "false"},
                                              {"inner", m_p.innerName}};
    recordMigrationPricing(m_p.migration, result);
    for (const auto& [key, value] : m_inner->options())
        result["inner." + key] = value;
    return result;
}

void MultiRegionPolicy::prepare(const PlanningContext& context) {
    m_input = &context.input;
    m_costs = &context.costs;
    const std::size_t n = context.input.regions.size();
    m_forecasters.clear();
    m_forecasters.resize(n);
    m_forecasts.assign(n, Forecast{});
    m_issuedAt.assign(n, std::numeric_limits<UtcSeconds>::min());
    m_inner->prepare(context);
}

const Forecast& MultiRegionPolicy::forecastOf(int region, UtcSeconds now) {
    const auto r = static_cast<std::size_t>(region);
    if (m_issuedAt[r] != now) {
        // Each region has its own forecaster (the same kind and seed as the engine's): a policy never
        // sees another region's future truth unless the forecast kind is the oracle.
        if (!m_forecasters[r])
            m_forecasters[r] = makeForecaster(m_input->forecast, m_input->regions[r]);
        m_forecasts[r] = issueForecast(*m_forecasters[r], m_input->regions[r], now,
                                       m_input->forecast.effectiveHorizonHours());
        m_issuedAt[r] = now;
    }
    return m_forecasts[r];
}

Decision MultiRegionPolicy::decide(const DecisionState& state) {
    const int regions = static_cast<int>(m_input->regions.size());
    const auto now = static_cast<double>(state.nowUtc);
    // Compare over [now, now + window), cut at the deadline and at every region's trace end.
    double end = std::min(now + m_p.windowHours * 3600.0, static_cast<double>(state.deadlineUtc));
    for (const CarbonTrace& trace : m_input->regions)
        end = std::min(end, static_cast<double>(trace.endUtc()));
    end = std::max(end, now + 1.0);
    std::vector<double> meanCi(static_cast<std::size_t>(regions));
    int best = state.region;
    for (int r = 0; r < regions; ++r)
        meanCi[static_cast<std::size_t>(r)] = forecastOf(r, state.nowUtc).integral(now, end) / (end - now);
    for (int r = 0; r < regions; ++r)
        if (meanCi[static_cast<std::size_t>(r)] < meanCi[static_cast<std::size_t>(best)])
            best = r; // strict: ties keep the current region, then the lower index
    int target = state.region;
    std::string moveNote; // why it moves or stays, for the reason
    if (state.currentOption == kNotStarted || !m_p.hysteresis) {
        target = best; // before the first start a move costs nothing (no checkpoint exists yet)
    } else if (best != state.region) {
        // Saving: the fastest option's carbon rate difference over the window (embodied cancels).
        // Cost: the migration overhead in the target region plus the same time of running again
        // there, because the work the job could have done during the move is done later.
        const int k = m_costs->fastestOption();
        const double windowS = end - now;
        const double migrationS = std::round(m_input->modelling.migrationSeconds);
        const double ciHere = meanCi[static_cast<std::size_t>(state.region)];
        const double ciThere = meanCi[static_cast<std::size_t>(best)];
        const double savingG =
            (m_costs->costRateGPerS(k, ciHere) - m_costs->costRateGPerS(k, ciThere)) * windowS;
        const double costG =
            (m_costs->overheadCostRateGPerS(k, ciThere) + m_costs->costRateGPerS(k, ciThere)) * migrationS;
        if (savingG > costG)
            target = best;
        if (state.explain)
            moveNote = "; moving to " + m_input->regions[static_cast<std::size_t>(best)].regionId +
                       " saves " + carbonText(savingG) + " over the window against " + carbonText(costG) +
                       " for the migration: " + (target == best ? "moves" : "stays");
    }
    DecisionState inner = state;
    inner.region = target;
    inner.forecast = [this, target, t = state.nowUtc]() -> const Forecast& { return forecastOf(target, t); };
    Decision decision = m_inner->decide(inner);
    if (state.explain) {
        std::string means;
        for (int r = 0; r < regions; ++r)
            appendSeparated(means, m_input->regions[static_cast<std::size_t>(r)].regionId + " " +
                                       intensityText(meanCi[static_cast<std::size_t>(r)]));
        decision.reason = "in " + m_input->regions[static_cast<std::size_t>(target)].regionId +
                          "; mean forecast over the next " + hoursText(end - now) + ": " + means + moveNote +
                          "; there, " + m_inner->name() + ": " + decision.reason;
    }
    // A pause stays where it is: the checkpoint moves only with a job that runs (the engine charges the
    // migration when a running or resuming job changes region).
    if (decision.option < 0 && state.currentOption != kNotStarted)
        decision.region = state.region;
    else
        decision.region = target;
    return decision;
}

PolicyInfo multiRegionPolicyInfo() {
    PolicyInfo info{
        "multi-region",
        "Follows the cleanest grid: each decision, the region of least mean forecast CI over the next window "
        "(a move only when its forecast saving exceeds the migration's cost); a single-region policy decides "
        "what runs there.",
        "Multi-region migration (docs/MODEL.md 9.8; the carbon-aware training article)",
        {innerPolicyOption("inner", "static-max",
                           "single-region policy deciding what runs in the chosen region; its options as "
                           "inner.KEY=VALUE"),
         numberOption("window_hours", "6", 0.01, 24 * 365,
                      "forecast window over which regions are compared, h"),
         flagOption("hysteresis", true, "false: move whenever another region's window mean is lower")},
        {},
        {0x56B4E9, LineDash::Dashed, PlotMarker::Peace},
        [](const PolicyOptions& o) {
            MultiRegionParameters p;
            p.innerName = o.text("inner");
            p.windowHours = o.number("window_hours");
            p.hysteresis = o.flag("hysteresis");
            p.migration = migrationPricing(o);
            return std::make_unique<MultiRegionPolicy>(p, makeInnerPolicy("multi-region", o, true));
        }};
    for (PolicyOptionInfo& option : migrationPricingOptions())
        info.options.push_back(std::move(option));
    info.traits.wrapsPolicy = true;
    info.traits.choosesRegion = true;
    info.traits.changesJobOrMenu = true;
    return info;
}

} // namespace carbon3d
