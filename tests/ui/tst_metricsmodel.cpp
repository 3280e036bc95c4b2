// SPDX-License-Identifier: MIT
#include "models/MetricsTableModel.h"

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
};

QTEST_MAIN(TestMetricsModel)
#include "tst_metricsmodel.moc"
