// SPDX-License-Identifier: MIT
#include "domain/RunSeries.h"

#include <QTest>

using namespace carbon3d;

namespace {

IntervalRecord interval(UtcSeconds start, UtcSeconds end, double powerW, double emissionsG,
                        double embodiedG) {
    IntervalRecord r;
    r.start = start;
    r.end = end;
    r.facilityPowerW = powerW;
    r.emissionsG = emissionsG;
    r.embodiedG = embodiedG;
    return r;
}

} // namespace

class TestRunSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void stepSeriesMergesEqualNeighbours() {
        RunResult run;
        run.series = {interval(0, 100, 5.0, 1, 0), interval(100, 200, 5.0, 1, 0),
                      interval(200, 250, 7.0, 1, 0)};
        const TimeSeries s = stepSeries(run, [](const IntervalRecord& r) { return r.facilityPowerW; });
        // Points: (0,5) covers 0..200, (200,7) covers 200..250, closing (250,7).
        QCOMPARE(s.t, (std::vector<double>{0, 200, 250}));
        QCOMPARE(s.v, (std::vector<double>{5, 7, 7}));
    }

    void cumulativeEmissionsIsExactAtBoundaries() {
        RunResult run;
        run.series = {interval(0, 100, 0, 10.0, 1.0), interval(100, 300, 0, 20.0, 2.0)};
        const TimeSeries operational = cumulativeEmissions(run, false);
        QCOMPARE(operational.v,
                 (std::vector<double>{0, 10, 30})); // sums of exact values: no tolerance needed
        const TimeSeries total = cumulativeEmissions(run, true);
        QCOMPARE(total.v.back(), 33.0); // 10 + 1 + 20 + 2
    }

    void intervalLookupIsHalfOpen() {
        RunResult run;
        run.series = {interval(0, 100, 1, 0, 0), interval(150, 200, 2, 0, 0)};
        QCOMPARE(intervalAt(run, 0)->facilityPowerW, 1.0);
        QCOMPARE(intervalAt(run, 99.9)->facilityPowerW, 1.0);
        QVERIFY(intervalAt(run, 120) == nullptr); // gap
        QCOMPARE(intervalAt(run, 150)->facilityPowerW, 2.0);
        QVERIFY(intervalAt(run, 200) == nullptr); // end is exclusive
        QVERIFY(intervalAt(run, -1) == nullptr);
    }
};

QTEST_GUILESS_MAIN(TestRunSeries)
#include "tst_runseries.moc"
