// SPDX-License-Identifier: MIT
#include "runner/ReshapingOutlook.h"

#include "domain/NumberText.h"
#include "engine/CostModel.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/Dynamic3dPolicy.h"
#include "runner/ScenarioRunner.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace carbon3d {

namespace {

std::string configurationOf(const ExecutionOption& option) {
    return option.measured ? option.label : option.config.shapeLabel();
}

// Facility energy per unit of work of the option's active GPUs and nodes alone.
double activeJPerWork(const ExecutionOption& option, double pue) {
    return option.activePowerW * pue / option.workPerSecond;
}

void describeGrid(const SimulationInput& input, ReshapingOutlook& outlook) {
    const CarbonTrace& trace = input.regions.front();
    const auto slotOf = [&](UtcSeconds t) {
        return static_cast<std::size_t>(std::clamp<std::int64_t>((t - trace.startUtc) / trace.stepSeconds, 0,
                                                                 static_cast<std::int64_t>(trace.size())));
    };
    const std::size_t first = slotOf(input.startUtc);
    const std::size_t end = std::max(first + 1, slotOf(input.deadlineUtc));
    const auto perDay =
        static_cast<std::size_t>(std::max<std::int64_t>(1, kSecondsPerDay / trace.stepSeconds));
    outlook.windowMinGPerKwh = std::numeric_limits<double>::infinity();
    outlook.windowMaxGPerKwh = 0.0;
    double swings = 0.0;
    int days = 0;
    // Whole days from the start; a window shorter than a day is one (shorter) day.
    for (std::size_t day = first; day < end; day += perDay) {
        const std::size_t dayEnd = std::min(end, day + perDay);
        if (dayEnd - day < perDay && days > 0)
            break;
        double low = std::numeric_limits<double>::infinity();
        double high = 0.0;
        double sum = 0.0;
        for (std::size_t slot = day; slot < dayEnd && slot < trace.size(); ++slot) {
            low = std::min(low, trace.gPerKwh[slot]);
            high = std::max(high, trace.gPerKwh[slot]);
            sum += trace.gPerKwh[slot];
        }
        const double mean = sum / static_cast<double>(dayEnd - day);
        if (mean > 0.0) {
            swings += (high - low) / mean;
            ++days;
        }
        outlook.windowMinGPerKwh = std::min(outlook.windowMinGPerKwh, low);
        outlook.windowMaxGPerKwh = std::max(outlook.windowMaxGPerKwh, high);
    }
    outlook.dailySwing = days > 0 ? swings / days : 0.0;
}

std::string percent(double fraction) {
    return fixedNumber(100.0 * fraction, 1) + " %";
}

} // namespace

ReshapingOutlook reshapingOutlook(const PreparedScenario& prepared) {
    const SimulationInput& input = prepared.input;
    const CostModel costs(input);
    ReshapingOutlook outlook;
    const auto full = static_cast<std::size_t>(costs.fastestOption());
    outlook.fullSize = configurationOf(input.menu[full]);
    outlook.fullSizeGpus = input.menu[full].gpusActive;
    outlook.fullSizeJPerWork = activeJPerWork(input.menu[full], input.pue);
    outlook.mostEfficientActiveJPerWork = outlook.fullSizeJPerWork;
    outlook.mostEfficientChargedJPerWork =
        costs.powerW(costs.fastestOption()) / costs.workRate(costs.fastestOption());
    outlook.mostEfficient = outlook.fullSize;
    outlook.mostEfficientGpus = outlook.fullSizeGpus;
    for (int k = 0; k < costs.optionCount(); ++k) {
        const ExecutionOption& option = input.menu[static_cast<std::size_t>(k)];
        outlook.mostEfficientActiveJPerWork =
            std::min(outlook.mostEfficientActiveJPerWork, activeJPerWork(option, input.pue));
        const double charged = costs.powerW(k) / costs.workRate(k);
        if (charged < outlook.mostEfficientChargedJPerWork) {
            outlook.mostEfficientChargedJPerWork = charged;
            outlook.mostEfficient = configurationOf(option);
            outlook.mostEfficientGpus = option.gpusActive;
        }
    }
    outlook.chargedParkedShare = costs.chargedParkedShare();
    describeGrid(input, outlook);
    return outlook;
}

namespace {

// What the seed policy's run drew on, in one sentence; empty when the batch has no split run of it.
std::string dynamic3dSplitText(const std::vector<RunResult>& runs) {
    const auto dynamic3d = std::find_if(
        runs.begin(), runs.end(), [](const RunResult& run) { return run.policy == focusedPolicy().name; });
    if (dynamic3d == runs.end())
        return {};
    const SavingSplit split = dynamic3d->metrics.splitFractionsCharging(dynamic3d->chargedParkedShare());
    if (std::isnan(split.totalG()))
        return {};
    const auto followed = dynamic3d->options.find(kFollowedPlanKey);
    const std::string how =
        followed == dynamic3d->options.end() ? std::string()
        : followed->second == kOwnPlan
            ? " (its own rule was the least of the plans it weighed)"
            : " (it followed " + followed->second + "'s plan, the least of the plans it weighed)";
    return "This run of dynamic-3d saved " + percent(split.totalG()) +
           " against static-max: " + percent(split.configurationG) +
           " from best-static's plan (one configuration held from the start; a smaller one also runs into "
           "later hours), " +
           percent(split.timingG) + " from timing (pausing and shifting), " + percent(split.beyondG) +
           " from reshaping beyond those plans" + how + ".";
}

} // namespace

std::vector<std::string> reshapingOutlookText(const ReshapingOutlook& o, const std::vector<RunResult>& runs) {
    std::vector<std::string> lines;
    lines.push_back("Energy per token: full size (" + o.fullSize + ", " + std::to_string(o.fullSizeGpus) +
                    " GPUs) spends " + percent(o.activeSpread() - 1.0) +
                    " more than the most efficient configuration on its own GPUs: that is the most reshaping "
                    "can save per token, before the grid's swings.");
    const std::string backfill = fixedNumber(1.0 - o.chargedParkedShare, 2);
    if (o.chargedParkedShare <= 0.0)
        lines.emplace_back(
            "Parked GPUs are released to other work (backfill 1): a smaller configuration pays "
            "nothing for the GPUs it parks, so shrinking when the grid is dirty saves their whole "
            "energy.");
    else
        lines.push_back("Parked GPUs are charged to this job (" + percent(o.chargedParkedShare) +
                        " of their idle power and embodied carbon, backfill " + backfill +
                        "): counting them, the most efficient configuration is " + o.mostEfficient + " on " +
                        std::to_string(o.mostEfficientGpus) + " GPUs and full size spends " +
                        percent(std::max(0.0, o.chargedSpread() - 1.0)) +
                        " more per token than it; a pause keeps paying for the whole allocation.");
    lines.push_back("The grid over the job's window: " + fixedNumber(o.windowMinGPerKwh, 0) + " to " +
                    fixedNumber(o.windowMaxGPerKwh, 0) + " g/kWh, swinging by " + percent(o.dailySwing) +
                    " of its mean within a day on average: what waiting and pausing have to work with.");
    if (std::string split = dynamic3dSplitText(runs); !split.empty())
        lines.push_back(std::move(split));
    return lines;
}

} // namespace carbon3d
