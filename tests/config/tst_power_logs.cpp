// SPDX-License-Identifier: MIT
// Every power-log format loads its fixture (laid out as the tool writes it) with the mean power computed by
// hand; what is left out (idle samples, missing readings, CPU-only runs) is said; malformed logs are refused
// at their line with what was expected.
#include "config/PowerLogs.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace carbon3d;

namespace {

std::string fixture(const char* name) {
    return std::string(CARBON3D_SOURCE_DIR) + "/tests/data/power/" + name;
}

bool notesSay(const PowerLogSummary& log, const std::string& part) {
    for (const std::string& note : log.notes)
        if (note.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestPowerLogs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Busy samples 380, 360, 390, 370, 400 W: mean 380 W (exact in binary; tolerance 0). Two idle samples (0
    // % utilisation) and one [N/A] reading are left out and said; two GPUs over 30 s.
    void nvidiaSmiWithUnits() {
        const PowerLogSummary log = loadPowerLog(fixture("nvidia_smi.csv"));
        QCOMPARE(log.format, std::string("nvidia-smi-csv"));
        QCOMPARE(log.scope, PowerScope::Gpu);
        QCOMPARE(log.meanPowerW, 380.0);
        QCOMPARE(log.samples, std::size_t(5));
        QCOMPARE(log.devices, 2);
        QCOMPARE(log.seconds, 30.0);
        QVERIFY(notesSay(log, "2 samples below 50 % utilisation"));
        QVERIFY(notesSay(log, "1 samples without a power reading"));
        QVERIFY(isPowerLog(fixture("nvidia_smi.csv")));
    }

    void nvidiaSmiWithoutUnits() {
        const PowerLogSummary log = loadPowerLog(fixture("nvidia_smi_nounits.csv"));
        QCOMPARE(log.meanPowerW, 300.0); // (300.5 + 299.5) / 2
        QCOMPARE(log.seconds, 5.0);
    }

    // Three GPU samples 350.25, 349.75 and 352 W across two header blocks: 350.666... W (tolerance 1e-9, one
    // division).
    void dcgmiDmon() {
        const PowerLogSummary log = loadPowerLog(fixture("dcgmi_dmon.txt"));
        QCOMPARE(log.format, std::string("dcgmi-dmon"));
        QVERIFY(std::abs(log.meanPowerW - 1052.0 / 3.0) < 1e-9);
        QCOMPARE(log.devices, 2);
        QVERIFY(notesSay(log, "N/A"));
    }

    // The GPU run: 2.4 kWh over 3,600 s on 8 GPUs = 300 W per GPU (tolerance 1e-9: kWh to J and one
    // division); the CPU-only run is left out and said; energy_consumed (2.61 kWh over 3,600 s) is 2,610 W.
    void codeCarbon() {
        const PowerLogSummary log = loadPowerLog(fixture("codecarbon_emissions.csv"));
        QCOMPARE(log.format, std::string("codecarbon-csv"));
        QVERIFY(std::abs(log.meanPowerW - 300.0) < 1e-9);
        QCOMPARE(log.devices, 8);
        QCOMPARE(log.samples, std::size_t(1));
        QVERIFY(notesSay(log, "2610.0 W"));
        QVERIFY(notesSay(log, "1 runs without GPU energy"));
    }

    // 2,520 J over two 2 s windows on two GPUs: 315 W per GPU (exact).
    void zeusMonitor() {
        const PowerLogSummary log = loadPowerLog(fixture("zeus_monitor.csv"));
        QCOMPARE(log.format, std::string("zeus-monitor-csv"));
        QCOMPARE(log.meanPowerW, 315.0);
        QCOMPARE(log.devices, 2);
        QCOMPARE(log.seconds, 4.0);
    }

    void malformedLogsAreRefusedAtTheirLine() {
        QTemporaryDir dir;
        struct Case {
            const char* text;
            int line;
            const char* says;
        };
        const Case cases[] = {
            {"timestamp, power.draw [W]\n2024/05/01 12:00:00.000, lots W\n", 2, "unparsable power"},
            {"timestamp, power.draw [W]\n2024/05/01 12:00:00.000, 90000 W\n", 2, "expected 0 to 5000 W"},
            {"timestamp, power.draw [W], utilization.gpu [%]\n2024/05/01 12:00:00.000, 300 W, 3 %\n", 1,
             "no busy sample"},
            {"start_time,window_name,elapsed_time,gpu0_energy\n1.0,step,2.0,-5\n", 2, "at least 0"},
            {"start_time,window_name,elapsed_time,gpu0_energy\n1.0,step,0,5\n", 1, "positive elapsed_time"},
            {"#Entity   GPUTL\nGPU 0   99\n", 1, "no POWER field"},
            {"timestamp,run_id,duration,gpu_energy,energy_consumed\n", 1, "gpu_count"},
            {"when,watts\n1,2\n", 1, "not a power log"},
        };
        for (const Case& c : cases) {
            const std::string path = dir.filePath(QStringLiteral("bad.csv")).toStdString();
            std::ofstream(path) << c.text;
            try {
                loadPowerLog(path);
                QFAIL(c.text);
            } catch (const InputError& error) {
                QVERIFY2(error.line() == c.line, (std::string(error.what()) + " | " + c.text).c_str());
                QVERIFY2(error.problem().find(c.says) != std::string::npos, error.what());
                QCOMPARE(error.file(), path);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestPowerLogs)
#include "tst_power_logs.moc"
