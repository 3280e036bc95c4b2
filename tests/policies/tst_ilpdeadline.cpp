// SPDX-License-Identifier: MIT
// What the ILP's default solver (solver=labels) does instead of branch and bound, and the guarantees
// docs/POLICIES.md states for it. A horizon reaching the deadline is solved by completion slot
// (HorizonLabelSearch.h): it finds the program's optimum, so its schedule emits no more forecast carbon
// than branch and bound's and exactly as little as branch and bound's proven optimum. A horizon before the
// deadline whose heuristic schedule is within mip_gap of the LP bound keeps it, as branch and bound would.
// Checked over randomised grids of real cases: the default scenario's performance-model menu and
// overheads, parked GPUs charged or released, the seven 2022 traces at random hours, every kind of
// starting state and a spread of work targets.
#include "config/ScenarioJson.h"
#include "engine/CostModel.h"
#include "engine/policies/HorizonLabelSearch.h"
#include "engine/policies/IlpPolicy.h"
#include "engine/policies/ScheduleGraph.h"
#include "runner/ScenarioRunner.h"
#include "traces/TraceLoader.h"

#include <QTest>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace carbon3d;

namespace {

const char* const kTraces[] = {"DE", "FR", "GB", "SE-SE3", "US-CAL-CISO", "US-TEX-ERCO", "ZA"};

// The seven 2022 traces shipped with the program.
std::vector<CarbonTrace> sampleTraces() {
    std::vector<CarbonTrace> traces;
    for (const char* region : kTraces)
        traces.push_back(loadCarbonTrace(std::string(CARBON3D_SOURCE_DIR) + "/sample_data/traces/" + region +
                                         "_2022.csv"));
    return traces;
}

PreparedScenario defaultScenario(double backfill) {
    Scenario scenario = loadScenario(CARBON3D_SOURCE_DIR "/sample_data/scenarios/default.json");
    scenario.modelling.backfill = backfill;
    return prepareScenario(scenario);
}

// `slots` hours of a trace from slot `first`, as a forecast issued at its start.
Forecast forecastOf(const CarbonTrace& trace, std::size_t first, std::size_t slots) {
    Forecast forecast;
    forecast.issuedUtc = trace.slotStart(first);
    forecast.firstSlotUtc = forecast.issuedUtc;
    forecast.stepSeconds = trace.stepSeconds;
    for (std::size_t i = first; i < first + slots; ++i)
        forecast.horizon.push_back(trace.gPerKwh[i]);
    return forecast;
}

IlpPolicy prepared(IlpParameters parameters, const SimulationInput& input, const CostModel& costs) {
    IlpPolicy policy(parameters);
    policy.prepare(PlanningContext{input, costs, [] { return std::vector<UtcSeconds>{}; }});
    return policy;
}

} // namespace

class TestIlpDeadline : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void completionSlotSearchIsOptimalOnRealCases() {
        const std::vector<CarbonTrace> traces = sampleTraces();
        std::mt19937 random(44); // fixed: the same grid every run
        int compared = 0;
        int proven = 0;
        for (double backfill : {0.0, 1.0}) {
            const PreparedScenario scenario = defaultScenario(backfill);
            const CostModel costs(scenario.input);
            IlpParameters branchAndBound;
            branchAndBound.branchAndBoundOnly = true;
            branchAndBound.mipGap = 0.0;      // prove the optimum where the nodes allow
            branchAndBound.nodeLimit = 20000; // enough for most of these small horizons
            IlpPolicy bySlot = prepared(IlpParameters{}, scenario.input, costs);
            IlpPolicy byBranching = prepared(branchAndBound, scenario.input, costs);
            const int options = costs.optionCount();
            for (int c = 0; c < 24; ++c) {
                const CarbonTrace& trace = traces[random() % traces.size()];
                const auto slots = static_cast<std::size_t>(3 + random() % 8);
                const std::size_t first = random() % (trace.size() - slots);
                const int current = std::uniform_int_distribution<int>(-2, options - 1)(random);
                // Work: a fraction of what the fastest option does in the whole window.
                const double fraction = std::uniform_real_distribution<double>(0.15, 0.95)(random);
                const double work =
                    fraction * costs.workRate(costs.fastestOption()) * 3600.0 * static_cast<double>(slots);
                const Forecast forecast = forecastOf(trace, first, slots);
                const auto now = static_cast<double>(forecast.firstSlotUtc);
                const double deadline = now + 3600.0 * static_cast<double>(slots);
                const IlpSolve a = bySlot.solve(forecast, now, deadline, work, current);
                const IlpSolve b = byBranching.solve(forecast, now, deadline, work, current);
                const QString name = QStringLiteral("%1 from slot %2, %3 h, state %4, %5 of the window")
                                         .arg(QString::fromStdString(trace.regionId))
                                         .arg(first)
                                         .arg(slots)
                                         .arg(current)
                                         .arg(fraction);
                QCOMPARE(a.method, std::string("completion-slot search"));
                QCOMPARE(b.method, std::string("branch and bound"));
                QVERIFY2(a.solved == b.solved, qPrintable(name));
                if (!a.solved)
                    continue;
                ++compared;
                // GLPK solves to relative tolerances of about 1e-7 (its simplex's bound and reduced-cost
                // tolerances): 1e-6 of the objective is the most its proven optimum can differ by.
                const double tolerance = 1e-6 * std::abs(b.objectiveG);
                QVERIFY2(a.objectiveG <= b.objectiveG + tolerance,
                         qPrintable(name + QStringLiteral(": %1 g > branch and bound's %2 g")
                                               .arg(a.objectiveG, 0, 'f', 3)
                                               .arg(b.objectiveG, 0, 'f', 3)));
                if (b.limit.empty()) {
                    ++proven;
                    QVERIFY2(std::abs(a.objectiveG - b.objectiveG) <= tolerance,
                             qPrintable(name + QStringLiteral(": %1 g, the proven optimum %2 g")
                                                   .arg(a.objectiveG, 0, 'f', 3)
                                                   .arg(b.objectiveG, 0, 'f', 3)));
                }
            }
        }
        qInfo("%d compared, %d proven", compared, proven);
        // The grid is not vacuous: most cases have a schedule, most optima are proven.
        QVERIFY2(compared >= 16, qPrintable(QString::number(compared)));
        QVERIFY2(proven >= 12, qPrintable(QString::number(proven)));
    }

    void aSeedKeptWithoutGlpkIsWhatGlpkKeeps() {
        // Before the deadline, a horizon whose heuristic schedule is within mip_gap of the Lagrangian bound
        // keeps it without GLPK: branch and bound, seeded with it, stops at its root there and keeps the
        // same schedule. Randomised over real cases as above, 24 h horizons three days from the deadline.
        const std::vector<CarbonTrace> traces = sampleTraces();
        std::mt19937 random(45); // fixed: the same grid every run
        const PreparedScenario scenario = defaultScenario(0.0);
        const CostModel costs(scenario.input);
        IlpParameters labels;
        labels.horizonHours = 24.0;
        IlpParameters glpk = labels;
        glpk.branchAndBoundOnly = true;
        IlpPolicy shortcut = prepared(labels, scenario.input, costs);
        IlpPolicy branchAndBound = prepared(glpk, scenario.input, costs);
        const int options = costs.optionCount();
        int kept = 0;
        for (int c = 0; c < 16; ++c) {
            const CarbonTrace& trace = traces[random() % traces.size()];
            const std::size_t first = random() % (trace.size() - 72);
            const int current = std::uniform_int_distribution<int>(-2, options - 1)(random);
            const double fraction = std::uniform_real_distribution<double>(0.2, 0.9)(random);
            const double work = fraction * costs.workRate(costs.fastestOption()) * 72.0 * 3600.0;
            const Forecast forecast = forecastOf(trace, first, 72);
            const auto now = static_cast<double>(forecast.firstSlotUtc);
            const IlpSolve a = shortcut.solve(forecast, now, now + 72.0 * 3600.0, work, current);
            if (a.method != "heuristic within mip_gap")
                continue;
            ++kept;
            const IlpSolve b = branchAndBound.solve(forecast, now, now + 72.0 * 3600.0, work, current);
            QVERIFY2(a.plan == b.plan,
                     qPrintable(QStringLiteral("%1 from slot %2, state %3, %4 of three days")
                                    .arg(QString::fromStdString(trace.regionId))
                                    .arg(first)
                                    .arg(current)
                                    .arg(fraction)));
        }
        qInfo("%d of 16 horizons kept their heuristic schedule", kept);
        QVERIFY2(kept >= 8, qPrintable(QString::number(kept))); // the grid exercises the shortcut
    }

    void aSearchStoppedAtItsLabelCapSaysSo() {
        // Cut off at no labels, the search keeps the schedule it was given and does not claim a proof; the
        // policy then hands the horizon to branch and bound (IlpPolicy::solve).
        const PreparedScenario scenario = defaultScenario(0.0);
        const CostModel costs(scenario.input);
        const CarbonTrace trace = loadCarbonTrace(CARBON3D_SOURCE_DIR "/sample_data/traces/GB_2022.csv");
        const Forecast forecast = forecastOf(trace, 3000, 12);
        const ScheduleGraph graph(costs,
                                  forecast.pieces(static_cast<double>(forecast.firstSlotUtc),
                                                  static_cast<double>(forecast.horizonEndUtc()), false),
                                  kNotStarted, /*canFinish=*/true);
        const double work = 0.5 * costs.workRate(costs.fastestOption()) * 12.0 * 3600.0;
        const SchedulePath seed = lagrangianSchedule(graph, work, 1.0);
        QVERIFY(!seed.states.empty());
        const HorizonSearchResult cut = searchHorizon(graph, costs, work, seed, 0);
        QVERIFY(!cut.complete);
        QVERIFY(!cut.path.states.empty() && cut.objectiveG <= seed.carbonG);
        const HorizonSearchResult whole = searchHorizon(graph, costs, work, seed, 1000000);
        QVERIFY(whole.complete);
        QVERIFY(whole.objectiveG <= seed.carbonG);
    }
};

QTEST_GUILESS_MAIN(TestIlpDeadline)
#include "tst_ilpdeadline.moc"
