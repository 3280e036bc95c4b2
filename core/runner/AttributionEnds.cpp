// SPDX-License-Identifier: MIT
#include "runner/AttributionEnds.h"

#include "domain/NumberText.h"
#include "domain/Savings.h"
#include "engine/policies/DecisionReasons.h"
#include "runner/ScenarioRunner.h"

#include <cmath>

namespace carbon3d {

namespace {

constexpr double kCharged = 0.0;
constexpr double kReleased = 1.0;

AttributionEnd endOf(const PreparedScenario& prepared, double backfill, const AskedRun& run,
                     const AskedRun& baseline, const SimulationHooks& hooks) {
    if (prepared.input.modelling.backfill == backfill)
        return {backfill, baseline.metrics, run.metrics};
    const PreparedScenario there = atBackfill(prepared, backfill);
    AttributionEnd end{backfill, {}, {}};
    end.baseline = runPolicy(there, baseline.policy, hooks).metrics;
    end.run = runPolicy(there, run.policy, hooks).metrics;
    return end;
}

// "12 h later", "3.5 h sooner", "at the same time" (within a minute).
std::string completionText(double runSeconds, double baselineSeconds) {
    const double difference = runSeconds - baselineSeconds;
    if (std::abs(difference) < 60.0)
        return "finishing at the same time";
    return "finishing " + hoursText(std::abs(difference)) + (difference > 0.0 ? " later" : " sooner");
}

} // namespace

PreparedScenario atBackfill(PreparedScenario prepared, double backfill) {
    prepared.scenario.modelling.backfill = backfill;
    prepared.input.modelling.backfill = backfill;
    return prepared;
}

AnswerAtBothEnds runAtBothEnds(const PreparedScenario& prepared, const AskedRun& run,
                               const AskedRun& baseline, const SimulationHooks& hooks) {
    return {endOf(prepared, kCharged, run, baseline, hooks),
            endOf(prepared, kReleased, run, baseline, hooks)};
}

std::string answerText(const AttributionEnd& end) {
    const RunMetrics& base = end.baseline;
    const RunMetrics& run = end.run;
    const double saved = base.totalG - run.totalG;
    const double fraction = savingsFraction(base.totalG, run.totalG);
    std::string text;
    if (std::isnan(fraction))
        text = "has no baseline emissions to save against";
    else if (std::abs(fraction) < 0.0005) // rounds to 0.0 %
        text = "emits what the baseline emits";
    else if (saved > 0.0)
        text = "saves " + fixedNumber(100.0 * fraction, 1) + " % (" + carbonText(saved) + ")";
    else
        text = "emits " + fixedNumber(-100.0 * fraction, 1) + " % more (" + carbonText(-saved) + ")";
    if (base.costUsd > 0.0 && !std::isnan(run.costUsd)) {
        const double change = run.costUsd / base.costUsd - 1.0;
        text += std::abs(change) < 0.0005 ? " at the same cost"
                                          : " for " + fixedNumber(100.0 * std::abs(change), 1) + " % " +
                                                (change > 0.0 ? "more" : "less") + " cost";
    }
    if (!run.finished)
        return text + ", but does not finish in the simulated window";
    text += ", " + completionText(run.completionSeconds, base.completionSeconds);
    if (!run.deadlineMet)
        text += ", " + hoursText(run.lateSeconds) + " past its deadline";
    return text;
}

} // namespace carbon3d
