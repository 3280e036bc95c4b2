// SPDX-License-Identifier: MIT
#include "EngineTestSupport.h"
#include "engine/CostModel.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/BestStaticPolicy.h"
#include "engine/policies/Dynamic3dPolicy.h"
#include "engine/policies/SuspendResumePolicy.h"
#include "engine/policies/TertilePolicy.h"

#include <QTest>

using namespace carbon3d;
using namespace carbon3d::test;

namespace {

// A: 2 of 4 GPUs, 1 unit/s at 500 W (500 J/unit); B: 4 GPUs, 1.5 units/s at 1200 W (800 J/unit).
// PUE 1, no idle power, no embodied carbon, no overheads unless a case sets them.
SimulationInput baseInput() {
    return makeInput(makeTrace(std::vector<double>(48, 100.0)),
                     {makeOption(2, 1.0, 500.0), makeOption(4, 1.5, 1200.0)}, 1.0, kJune1,
                     kJune1 + kSecondsPerDay);
}

Forecast makeForecast(const std::vector<double>& hourly) {
    Forecast forecast;
    forecast.issuedUtc = kJune1;
    forecast.firstSlotUtc = kJune1;
    forecast.stepSeconds = 3600;
    forecast.horizon = hourly;
    forecast.dailyProfile.assign(24, hourly.back());
    return forecast;
}

// One decision of `policy` at the start, on `forecast`, with `work` left and the deadline `hours` away.
Decision decideExplained(Policy& policy, const SimulationInput& input, const Forecast& forecast, double work,
                         int hours, int current = kNotStarted) {
    const CostModel costs(input);
    const PlanningContext context{input, costs, [] { return std::vector<UtcSeconds>{}; }};
    policy.prepare(context);
    DecisionState state;
    state.nowUtc = kJune1;
    state.deadlineUtc = kJune1 + hours * kSecondsPerHour;
    state.workRemaining = work;
    state.currentOption = current;
    state.forecast = [&forecast]() -> const Forecast& { return forecast; };
    state.explain = true;
    return policy.decide(state);
}

int decideOnce(Policy& policy, const SimulationInput& input, const Forecast& forecast, double work, int hours,
               int current = kNotStarted) {
    return decideExplained(policy, input, forecast, work, hours, current).option;
}

} // namespace

class TestPolicies : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Issue 15, item 2: runs of one policy with different options are named apart, by what differs.
    void runLabelsNameWhatDiffers() {
        const std::map<std::string, std::string> defaults{{"hysteresis", "true"},
                                                          {"inner", "static-max"},
                                                          {"migration", "scenario"},
                                                          {"wan_gbps", "10"},
                                                          {"window_hours", "6"}};
        QCOMPARE(policyRunLabel("static-max", {}), std::string("static-max"));
        QCOMPARE(policyRunLabel("multi-region", defaults), std::string("multi-region"));
        auto chasing = defaults;
        chasing["hysteresis"] = "false";
        QCOMPARE(policyRunLabel("multi-region", chasing), std::string("multi-region (hysteresis=false)"));
        auto reshaping = defaults;
        reshaping["inner"] = "dynamic-3d";
        reshaping["inner.hysteresis"] = "true"; // the inner policy's default: not named
        QCOMPARE(policyRunLabel("multi-region", reshaping), std::string("multi-region (inner=dynamic-3d)"));
        reshaping["inner.hysteresis"] = "false";
        QCOMPARE(policyRunLabel("multi-region", reshaping),
                 std::string("multi-region (inner=dynamic-3d, inner.hysteresis=false)"));
        // What a plan recorded about itself is no option: the oracle's solved_by stays out of the name.
        QCOMPARE(policyRunLabel("oracle", {{"method", "auto"}, {"solved_by", "lagrangian"}}),
                 std::string("oracle"));
        // A default the policy records in its shortest text is still the default: the ILP's 300000 ms
        // safety net, recorded as "3e+05", named every default ilp run "ilp (time_limit_ms=3e+05)".
        QCOMPARE(policyRunLabel("ilp", {{"time_limit_ms", "3e+05"}, {"mip_gap", "0.01"}}),
                 std::string("ilp"));
        QCOMPARE(policyRunLabel("ilp", {{"time_limit_ms", "2e+05"}}),
                 std::string("ilp (time_limit_ms=2e+05)"));
    }

    void bestStatic_data() {
        QTest::addColumn<QList<double>>("hourly");
        QTest::addColumn<int>("expected");
        // 5400 units. A takes 1.5 h, B 1 h.
        // Forecast 100 then 400: A = 500 W x (1 h x 100 + 0.5 h x 400) = 0.5 kW x 300 = 150 g;
        // B = 1.2 kWh x 100 = 120 g -> B.
        QTest::newRow("clean hour then dirty") << QList<double>{100, 400, 400, 400} << 1;
        // Flat 100: A = 0.75 kWh x 100 = 75 g; B = 120 g -> A (less energy per unit).
        QTest::newRow("flat") << QList<double>{100, 100, 100, 100} << 0;
    }
    void bestStatic() {
        QFETCH(QList<double>, hourly);
        QFETCH(int, expected);
        BestStaticPolicy policy;
        const SimulationInput input = baseInput();
        QCOMPARE(decideOnce(policy, input, makeForecast({hourly.begin(), hourly.end()}), 5400.0, 4),
                 expected);
    }

    void suspendResume_data() {
        QTest::addColumn<QList<double>>("hourly");
        QTest::addColumn<double>("percentile");
        QTest::addColumn<bool>("fitSize");
        QTest::addColumn<int>("expected");
        // 5400 units: A (1 unit/s, 500 W) takes 1.5 h, B (2 units/s, 1200 W) 0.75 h. Window of 4 h.
        // Median (50th percentile by duration) of {400, 100, 100, 400} is 100.
        QTest::newRow("dirty now: pause")
            << QList<double>{400, 100, 100, 400} << 50.0 << false << int(kPaused);
        QTest::newRow("clean now: run the fastest")
            << QList<double>{100, 400, 400, 100} << 50.0 << false << 1;
        // Flat 100: it expects to run all 4 h, where best-static picks A (0.75 kWh x 100 = 75 g against
        // B's 1.2 kW x 0.75 h x 100 = 90 g); the fastest form runs B.
        QTest::newRow("flat, fit: A") << QList<double>{100, 100, 100, 100} << 50.0 << true << 0;
        QTest::newRow("flat, fastest: B") << QList<double>{100, 100, 100, 100} << 50.0 << false << 1;
        // 25th percentile of {100, 400, 400, 400} is 100: it expects to run 1 h, where only B (0.75 h) fits.
        QTest::newRow("fit, little clean time: B") << QList<double>{100, 400, 400, 400} << 25.0 << true << 1;
    }
    void suspendResume() {
        QFETCH(QList<double>, hourly);
        QFETCH(double, percentile);
        QFETCH(bool, fitSize);
        QFETCH(int, expected);
        SuspendResumePolicy policy(percentile, fitSize);
        const SimulationInput input = baseInput();
        QCOMPARE(decideOnce(policy, input, makeForecast({hourly.begin(), hourly.end()}), 5400.0, 4),
                 expected);
    }

    void tertile_data() {
        QTest::addColumn<QList<double>>("hourly");
        QTest::addColumn<int>("expected");
        // Window of 3 h with terciles 100 and 200 (duration-weighted, smallest value reaching 1/3, 2/3).
        QTest::newRow("low -> fastest (B)") << QList<double>{100, 200, 300} << 1;
        QTest::newRow("high -> least energy per unit (A)") << QList<double>{300, 200, 100} << 0;
        // Middle -> best-static for 1800 units: A = 0.25 kWh x 200 = 50 g, B = 0.4 kWh x 200 = 80 g.
        QTest::newRow("middle -> best-static (A)") << QList<double>{200, 100, 300} << 0;
        QTest::newRow("flat -> best-static (A)") << QList<double>{200, 200, 200} << 0;
    }
    void tertile() {
        QFETCH(QList<double>, hourly);
        QFETCH(int, expected);
        TertilePolicy policy;
        const SimulationInput input = baseInput();
        QCOMPARE(decideOnce(policy, input, makeForecast({hourly.begin(), hourly.end()}), 1800.0, 3),
                 expected);
    }

    void dynamic3dPlansTheCleanSlots() {
        // 10800 units, deadline 4 h, forecast 100, 400, 400, 100. Contiguous plans: A (3 h) =
        // 0.5 kW x (100 + 400 + 400) = 450 g; B (2 h) = 1.2 kW x (100 + 400) = 600 g. The Lagrangian
        // plan runs B in hours 0 and 3: 1.2 kW x (100 + 100) = 240 g -> start with B now.
        Dynamic3dPolicy policy(12.0, true, 1.0, false); // the rule alone: these decisions are its
        const SimulationInput input = baseInput();
        QCOMPARE(decideOnce(policy, input, makeForecast({100, 400, 400, 100}), 10800.0, 4), 1);
    }

    void dynamic3dPricesPastTheHorizonWithItsRiskMargin_data() {
        QTest::addColumn<double>("risk");
        QTest::addColumn<int>("expected");
        // 5400 units, deadline 4 h, not started. The forecast knows hour 0 only (400 g/kWh); past it the
        // profile says 300 g/kWh, give or take 150 (the last 7 days' spread).
        // Risk 0 prices the rest at 300: waiting an hour, then A for 1.5 h = 0.75 kWh x 300 = 225 g, beats
        // starting A now = 0.5 kWh x 400 + 0.25 kWh x 300 = 275 g (B is dearer either way): wait.
        QTest::newRow("risk-neutral: wait for the profile") << 0.0 << int(kNotStarted);
        // Risk 1 prices it at 300 + 150 = 450: waiting = 0.75 x 450 = 337.5 g, starting A now = 200 + 0.25 x
        // 450 = 312.5 g: start A now.
        QTest::newRow("one deviation: start now") << 1.0 << 0;
    }
    void dynamic3dPricesPastTheHorizonWithItsRiskMargin() {
        QFETCH(double, risk);
        QFETCH(int, expected);
        Dynamic3dPolicy policy(12.0, true, risk, false); // the rule alone
        Forecast forecast = makeForecast({400});
        forecast.dailyProfile.assign(24, 300.0);
        forecast.dailySpread.assign(24, 150.0);
        QCOMPARE(decideOnce(policy, baseInput(), forecast, 5400.0, 4), expected);
    }

    void dynamic3dHysteresis_data() {
        QTest::addColumn<double>("preemptionS");
        QTest::addColumn<int>("expected");
        QTest::addColumn<QString>("reason"); // the "why" panel's words for the same arithmetic
        // Running B with 5400 units left, deadline 3 h, forecast 400, 400, 100: the plan pauses two
        // hours and runs B in the clean hour. Lambda is the least price at which B beats A there:
        // 1200 x 100 / 3.6e6 - 1.5 lambda <= 500 x 100 / 3.6e6 - lambda, so lambda = 7/180 g per unit.
        // Saving of pausing over the 2 h: (1200 x 400 / 3.6e6 - 1.5 x 7/180) g/s x 7200 s = 540 g.
        // Resume cost with preemption 600 s: 1200 W x 600 s at 400 g/kWh = 80 g + lambda x 900 units
        // = 35 g -> 115 g < 540 g: pause.
        QTest::newRow("cheap preemption: pause")
            << 600.0 << int(kPaused)
            << QStringLiteral("saves 540 g over the next 2 h against 115 g for the switch: switches");
        // Preemption 7200 s: 960 g + lambda x 10800 units = 420 g -> 1380 g > the saving: keep running B.
        QTest::newRow("dear preemption: keep running")
            << 7200.0 << 1
            << QStringLiteral("saves 540 g over the next 2 h against 1.4 kg for the switch: stays");
    }
    void dynamic3dHysteresis() {
        QFETCH(double, preemptionS);
        QFETCH(int, expected);
        QFETCH(QString, reason);
        Dynamic3dPolicy policy(12.0, true, 1.0, false); // the rule alone: these decisions are its
        SimulationInput input = baseInput();
        input.modelling.preemptionSeconds = preemptionS;
        const Decision decision = decideExplained(policy, input, makeForecast({400, 400, 100}), 5400.0, 3, 1);
        QCOMPARE(decision.option, expected);
        QVERIFY2(QString::fromStdString(decision.reason).contains(reason), decision.reason.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPolicies)
#include "tst_policies.moc"
