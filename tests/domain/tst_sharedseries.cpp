// SPDX-License-Identifier: MIT
// A trace's values shared by its copies until one changes (domain/SharedSeries.h): a change never reaches
// another copy, and a copy that only reads never copies the values.
#include "domain/SharedSeries.h"

#include <QTest>
#include <thread>

using namespace carbon3d;

class TstSharedSeries : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void copiesShareUntilOneChanges() {
        SharedSeries original{1.0, 2.0, 3.0};
        const SharedSeries copy = original;
        QCOMPARE(copy.data(), std::as_const(original).data()); // shared: the same values
        original[1] = 20.0;                                    // a change makes them the changer's own
        QCOMPARE(copy[1], 2.0);
        QCOMPARE(original[1], 20.0);
        QVERIFY(copy.data() != std::as_const(original).data());
        SharedSeries grown = copy;
        grown.push_back(4.0);
        QCOMPARE(copy.size(), std::size_t{3});
        QCOMPARE(grown.size(), std::size_t{4});
        grown.clear();
        QVERIFY(grown.empty());
        QCOMPARE(copy.values(), (std::vector<double>{1.0, 2.0, 3.0}));
    }

    void anEmptySeriesReadsAsAnEmptyVector() {
        const SharedSeries none;
        QVERIFY(none.empty());
        QCOMPARE(none.size(), std::size_t{0});
        QVERIFY(none.begin() == none.end());
        QVERIFY(none == SharedSeries(std::vector<double>{}));
        SharedSeries filled;
        filled.resize(2, 5.0);
        QCOMPARE(filled.values(), (std::vector<double>{5.0, 5.0}));
    }

    // Cells of a study copy one base trace on several threads at once and change their own copies: each
    // sees its own values and the base stays as it was (run under ThreadSanitizer by scripts/tsan).
    void copiesOnThreadsStayApart() {
        const SharedSeries base(std::vector<double>(1000, 1.0));
        std::vector<std::thread> threads;
        std::vector<double> sums(4, 0.0);
        for (std::size_t t = 0; t < sums.size(); ++t)
            threads.emplace_back([&base, &sums, t] {
                for (int round = 0; round < 100; ++round) {
                    SharedSeries mine = base;
                    mine[0] = static_cast<double>(t);
                    sums[t] += mine[0] + mine[999];
                }
            });
        for (std::thread& thread : threads)
            thread.join();
        for (std::size_t t = 0; t < sums.size(); ++t)
            QCOMPARE(sums[t], 100.0 * (static_cast<double>(t) + 1.0));
        QCOMPARE(base[0], 1.0);
    }
};

QTEST_GUILESS_MAIN(TstSharedSeries)
#include "tst_sharedseries.moc"
