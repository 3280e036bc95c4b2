// SPDX-License-Identifier: MIT
#include "models/MetricsTableModel.h"
#include "models/RunsTableModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace carbon3d;
using namespace carbon3d::ui;

class TestMetricsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passesTheModelTesterThroughResets() {
        MetricsTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunMetrics a;
        a.totalG = 2e6;
        a.operationalG = 1.5e6;
        a.embodiedG = 0.5e6;
        a.energyJ = 7.2e9;
        a.completionSeconds = 7200;
        a.finished = a.deadlineMet = true;
        RunMetrics b = a;
        b.totalG = 1.5e6;
        model.setRows({{QStringLiteral("static-max"), a}, {QStringLiteral("dynamic-3d"), b}});
        model.setBaselineRow(0);
        model.setRows({});
        model.setRows({{QStringLiteral("static-max"), a}, {QStringLiteral("dynamic-3d"), b}});
        QCOMPARE(model.rowCount(), 2);
    }

    void storedRunModelsPassTheModelTester() {
        RunsTableModel runs;
        QAbstractItemModelTester runsTester(&runs, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunSummary a;
        a.id = 7;
        a.policy = "oracle";
        a.metrics.totalG = 3.5e6;
        a.metrics.completionSeconds = 36000;
        RunSummary b = a;
        b.id = 8;
        runs.setRuns({a, b});
        QCOMPARE(runs.rowCount(), 2);
        QCOMPARE(runs.data(runs.index(0, RunsTableModel::Emissions)).toString(), QStringLiteral("3.50"));
        QCOMPARE(runs.data(runs.index(0, RunsTableModel::Completion)).toString(), QStringLiteral("10.0"));
        runs.setRuns({});

        DeltaTableModel deltas;
        QAbstractItemModelTester deltaTester(&deltas, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RunComparison row;
        row.runId = 8;
        row.baselineId = 7;
        row.savedG = 5e5;
        row.savedFraction = 0.125;
        deltas.setRows({row});
        QCOMPARE(deltas.data(deltas.index(0, DeltaTableModel::SavedFraction)).toString(),
                 QStringLiteral("12.5 %"));
        QCOMPARE(deltas.data(deltas.index(0, DeltaTableModel::Saved)).toString(), QStringLiteral("0.50"));
    }

    void showsDisplayUnitsAndSavings() {
        MetricsTableModel model;
        RunMetrics base;
        base.totalG = 2e6;             // 2 t
        base.energyJ = 7.2e9;          // 7.2e9 J / 3.6e9 J/MWh = 2 MWh
        base.completionSeconds = 5400; // 1.5 h
        base.finished = base.deadlineMet = true;
        RunMetrics better = base;
        better.totalG = 1.5e6; // saves (2 - 1.5) / 2 = 25 %
        model.setRows({{QStringLiteral("static-max"), base}, {QStringLiteral("dynamic-3d"), better}});
        model.setBaselineRow(0);
        // Exact binary fractions: compare without tolerance.
        QCOMPARE(model.numericValue(0, MetricsTableModel::TotalEmissions), 2.0);
        QCOMPARE(model.numericValue(0, MetricsTableModel::Energy), 2.0);
        QCOMPARE(model.numericValue(0, MetricsTableModel::Completion), 1.5);
        QCOMPARE(model.numericValue(1, MetricsTableModel::Savings), 0.25);
        QCOMPARE(model.data(model.index(1, MetricsTableModel::Savings)).toString(), QStringLiteral("25.0 %"));
        QCOMPARE(model.data(model.index(0, MetricsTableModel::Name)).toString(),
                 QStringLiteral("static-max (baseline)"));
        QCOMPARE(model.data(model.index(1, MetricsTableModel::DeadlineMet)).toString(),
                 QStringLiteral("met"));
        model.setBaselineRow(-1);
        QCOMPARE(model.data(model.index(1, MetricsTableModel::Savings)).toString(), QStringLiteral("\u2013"));
    }

    // Issue 43: a small job's emissions, energy and power read in kg, kWh and kW (0.03 t hid whether
    // embodied was half of it); the largest total decides, so a column never mixes units.
    void unitsFollowTheLargestValue() {
        RunMetrics small;
        small.totalG = 30125.0; // 30.125 kg
        small.embodiedG = 15000.0;
        small.energyJ = 3.6e8;       // 100 kWh
        small.averagePowerW = 2.5e4; // 25 kW
        small.costUsd = 750.0;       // under a thousand: USD
        MetricsTableModel model;
        model.setRows({{QStringLiteral("static-max"), small}});
        const auto header = [&](MetricsTableModel::Column column) {
            return model.headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        };
        QCOMPARE(header(MetricsTableModel::TotalEmissions), QStringLiteral("Total (kgCO\u2082e)"));
        QCOMPARE(header(MetricsTableModel::EmbodiedEmissions), QStringLiteral("Embodied (kgCO\u2082e)"));
        QCOMPARE(header(MetricsTableModel::Energy), QStringLiteral("Energy (kWh)"));
        QCOMPARE(header(MetricsTableModel::AveragePower), QStringLiteral("Avg power (kW)"));
        QCOMPARE(header(MetricsTableModel::Cost), QStringLiteral("Cost (USD)"));
        // Exact binary fractions: compare without tolerance.
        QCOMPARE(model.numericValue(0, MetricsTableModel::TotalEmissions), 30.125);
        QCOMPARE(model.data(model.index(0, MetricsTableModel::EmbodiedEmissions)).toString(),
                 QStringLiteral("15.00"));
        RunMetrics large = small;
        large.totalG = 1.5e6; // one row of a tonne or more: every row in tonnes
        model.setRows({{QStringLiteral("static-max"), small}, {QStringLiteral("oracle"), large}});
        QCOMPARE(header(MetricsTableModel::TotalEmissions), QStringLiteral("Total (tCO\u2082e)"));
        QCOMPARE(model.numericValue(0, MetricsTableModel::TotalEmissions), 0.030125);
    }

    // Issue 39: where the saving comes from, at the run's own attribution, in % of the baseline's emissions:
    // the mix of the two ends' splits that its totalG charges. Exact binary fractions throughout.
    void showsWhereTheSavingComesFrom() {
        RunMetrics run;
        run.totalG = 1.5e6;
        run.savingConfigurationDedicatedG = 0.25e6; // dedicated end: 0.25 + 0.5 - 0.25 = 0.5 t saved
        run.savingTimingDedicatedG = 0.5e6;
        run.savingBeyondDedicatedG = -0.25e6;
        run.savingConfigurationSharedG = 0.25e6; // shared end: 0.25 + 0 + 0.25 = 0.5 t saved
        run.savingTimingSharedG = 0.0;
        run.savingBeyondSharedG = 0.25e6;
        MetricsTableModel model;
        model.setRows({{QStringLiteral("dynamic-3d"), run, 1.0},
                       {QStringLiteral("dynamic-3d"), run, 0.5},
                       {QStringLiteral("static-max"), RunMetrics{}, 1.0}});
        // Charged whole (backfill 0): the dedicated end, of 1.5 + 0.5 = 2 t.
        QCOMPARE(model.data(model.index(0, MetricsTableModel::SavingSource)).toString(),
                 QStringLiteral("12.5 + 25.0 + -12.5 %"));
        // Half charged (backfill 0.5): the mean of both ends.
        QCOMPARE(model.data(model.index(1, MetricsTableModel::SavingSource)).toString(),
                 QStringLiteral("12.5 + 12.5 + 0.0 %"));
        QCOMPARE(model.numericValue(1, MetricsTableModel::SavingSource), 0.0);
        // Not split (the baseline, a run saved before): a dash.
        QCOMPARE(model.data(model.index(2, MetricsTableModel::SavingSource)).toString(),
                 QStringLiteral("\u2013"));
    }
};

QTEST_MAIN(TestMetricsModel)
#include "tst_metricsmodel.moc"
