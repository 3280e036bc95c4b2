// SPDX-License-Identifier: MIT
// Where a saving comes from (runner/SavingSplit.h) over a randomised grid of real cases: the default
// scenario's job and cluster, the bundled 2022 traces, random starts, slack, overheads, attribution of parked
// GPUs and forecast. For every policy of the catalogue on every case, at both ends of the attribution, the
// three parts add up to what the run saved against static-max, the first two are never negative, and each
// part equals the difference of the counterfactual runs it names, each run here on its own.
#include "EngineTestSupport.h"
#include "config/ScenarioJson.h"
#include "engine/PolicyRegistry.h"
#include "runner/SavingSplit.h"
#include "runner/ScenarioRunner.h"
#include "traces/TraceLoader.h"

#include <QTest>
#include <algorithm>
#include <random>
#include <sstream>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// Each part is a difference of two totals of ~10^2-10^3 intervals, and their sum is compared with another
// such difference: 1e-9 of the baseline's total covers the summation order.
constexpr double kTolerance = 1e-9;

Scenario randomCase(std::mt19937_64& random, const Scenario& base, const std::string& forecast,
                    std::string& description) {
    Scenario s = base;
    const std::string drawn = randomBundledCase(random, s);
    s.modelling.preemptionSeconds = pick<double>(random, {0, 600, 1800});
    s.modelling.reconfigurationSeconds = pick<double>(random, {0, 600, 1800});
    s.modelling.backfill = pick<double>(random, {0.0, 0.5, 1.0});
    s.forecast.kind = forecast;
    std::ostringstream text;
    text << drawn << ", backfill " << s.modelling.backfill << ", forecast " << s.forecast.kind;
    description = text.str();
    return s;
}

// The least total at one end over the catalogue's plans of one kind, run here each on its own.
double leastOf(const PreparedScenario& prepared, SimplerPlan kind, double RunMetrics::*end) {
    double least = std::numeric_limits<double>::infinity();
    for (const PolicyInfo& info : policyCatalog()) {
        if (info.traits.simplerPlan == kind)
            least = std::min(least, runPolicy(prepared, PolicySpec{info.name, {}}).metrics.*end);
    }
    return least;
}

} // namespace

class TestSavingSplit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void partsAddUpAtBothEnds() {
        const Scenario base =
            loadScenario(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/scenarios/default.json");
        std::mt19937_64 random(20261205); // fixed: a failure names its case and reproduces
        for (int c = 0; c < 8; ++c) {
            std::string description;
            const std::string forecast = c % 2 == 0 ? "oracle" : "ridge"; // the perfect and the default
            const PreparedScenario prepared =
                prepareScenario(randomCase(random, base, forecast, description));
            std::vector<PolicySpec> policies;
            for (const PolicyInfo& info : policyCatalog()) {
                if (!info.traits.choosesRegion)
                    policies.push_back({info.name, {}});
            }
            const std::vector<RunResult> runs = runAllPolicies(prepared, policies);
            const RunResult& baseline = runs.front();
            QCOMPARE(baseline.policy, defaultBaselinePolicy().name);
            QVERIFY(std::isnan(baseline.metrics.dedicatedSplit().totalG())); // it saves nothing by definition
            for (double RunMetrics::*end : {&RunMetrics::dedicatedG, &RunMetrics::sharedG}) {
                const bool dedicated = end == &RunMetrics::dedicatedG;
                const double e0 = baseline.metrics.*end;
                const double fixed = std::min(e0, leastOf(prepared, SimplerPlan::FixedConfiguration, end));
                const double simpler = std::min(fixed, leastOf(prepared, SimplerPlan::Timing, end));
                for (std::size_t i = 1; i < runs.size(); ++i) {
                    const RunMetrics& m = runs[i].metrics;
                    const SavingSplit split = dedicated ? m.dedicatedSplit() : m.sharedSplit();
                    const std::string where =
                        runs[i].policy + (dedicated ? " dedicated: " : " shared: ") + description;
                    QVERIFY2(std::abs(split.totalG() - (e0 - m.*end)) <= kTolerance * e0, where.c_str());
                    QVERIFY2(split.configurationG >= 0.0 && split.timingG >= 0.0, where.c_str());
                    QVERIFY2(std::abs(split.configurationG - (e0 - fixed)) <= kTolerance * e0, where.c_str());
                    QVERIFY2(std::abs(split.timingG - (fixed - simpler)) <= kTolerance * e0, where.c_str());
                }
            }
            // Under a perfect forecast dynamic-3d contains the simpler plans: at its own attribution (an end
            // of it) nothing is left beyond them to lose.
            const auto dynamic = std::find_if(runs.begin(), runs.end(), [](const RunResult& r) {
                return r.policy == focusedPolicy().name;
            });
            const double charged = dynamic->chargedParkedShare();
            if (prepared.scenario.forecast.kind == "oracle" && (charged == 0.0 || charged == 1.0))
                QVERIFY2(dynamic->metrics.splitCharging(charged).beyondG >=
                             -kTolerance * baseline.metrics.totalG,
                         description.c_str());
            const SavingSplit split = dynamic->metrics.splitCharging(charged);
            qDebug("%s: dynamic-3d %.1f + %.1f + %.1f kg", description.c_str(), split.configurationG / 1e3,
                   split.timingG / 1e3, split.beyondG / 1e3);
        }
    }
};

QTEST_GUILESS_MAIN(TestSavingSplit)
#include "tst_savingsplit.moc"
