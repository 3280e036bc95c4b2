// SPDX-License-Identifier: MIT
// The policies that reproduce other people's systems, decision by decision against those systems' own code
// run on the same inputs. The reference files are committed (tests/data/peers, each with a README naming the
// peer, its commit and the command that wrote it); scripts/peer-decisions writes them again where the peer's
// code is at hand. Every difference that remains is named in docs/POLICIES.md.
#include "domain/CsvText.h"
#include "domain/InputFile.h"
#include "domain/Time.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyRunner.h"

#include <QTest>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>

using namespace carbon3d;

namespace {

const std::string kRoot = CARBON3D_SOURCE_DIR;
const std::string kTraces = kRoot + "/sample_data/traces";

// One job's decision: the hours it ran, as offsets from its submission, and its operational emissions.
struct JobDecision {
    std::set<long> hours;
    double g = 0.0;
};
using DecisionKey = std::pair<UtcSeconds, std::string>; // submission, policy
using Decisions = std::map<DecisionKey, JobDecision>;

std::set<long> parseHours(std::string_view text) {
    std::set<long> hours;
    std::istringstream in{std::string(text)};
    long hour = 0;
    while (in >> hour)
        hours.insert(hour);
    return hours;
}

// A reference file: submitted,policy,hours,g (scripts/peers/gaia_wait_awhile.py).
Decisions readReference(const std::string& path) {
    const std::string text = readInputFile(path, 64 << 20, "a peer's decision file");
    Decisions decisions;
    forEachCsvDataRow(text, path, 4, [&](const std::vector<CsvCell>& cells, int line) {
        const std::optional<UtcSeconds> submitted = parseIsoDateTime(cells[0].text);
        const std::optional<double> g = parseCsvNumber(cells[3].text);
        if (!submitted || !g)
            QFAIL(qPrintable(
                QStringLiteral("%1:%2: unreadable row").arg(QString::fromStdString(path)).arg(line)));
        decisions[{*submitted, std::string(cells[1].text)}] = {parseHours(cells[2].text), *g};
    });
    return decisions;
}

// The study's decisions: for every feasible cell, the hours (from the cell's start) in which it trained.
Decisions studyDecisions(const StudyDefinition& study) {
    Decisions decisions;
    std::mutex guard;
    StudyRunOptions options;
    options.keepSeries = true;
    options.onCell = [&](CellResult&& result) {
        if (!result.feasible)
            return;
        const UtcSeconds start = cellSetup(study, result.cell).scenario.startUtc;
        JobDecision decision;
        decision.g = result.run.metrics.operationalG;
        for (const IntervalRecord& interval : result.run.series) {
            if (interval.activity != IntervalActivity::Training || interval.end <= interval.start)
                continue;
            for (UtcSeconds t = interval.start; t < interval.end; t += kSecondsPerHour)
                decision.hours.insert(static_cast<long>((t - start) / kSecondsPerHour));
        }
        const std::lock_guard<std::mutex> lock(guard);
        decisions[{start, result.run.policy}] = std::move(decision);
    };
    runStudy(study, options);
    return decisions;
}

} // namespace

class PeerDecisionsTest : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Let's Wait Awhile's setting (the bundled study: a 4-hour job at 1 kW submitted every hour of 2022 in
    // Germany, 16 hours to its deadline, a perfect forecast) against GAIA's simulator (umassos/GAIA), whose
    // `oracle_carbon_slot` and `SuspendSchedulingPolicy` are the two Wait Awhile policies. Every job runs in
    // the same hours both ways; its emissions agree to 1e-9 relative (GAIA sums each hour's intensity over
    // 720 five-second ticks, we multiply once: only round-off separates them).
    void waitAwhileDecidesAsGaia() {
        const StudyDefinition study =
            loadStudy(kRoot + "/sample_data/studies/wait-awhile-germany-hourly.json", kTraces);
        const Decisions reference = readReference(kRoot + "/tests/data/peers/wait-awhile/gaia-de-2022.csv");
        const Decisions ours = studyDecisions(study);
        std::map<std::string, int> jobs;
        std::map<std::string, int> identical;
        std::map<std::string, int> shown; // the first few differences of each policy, to start from
        for (const auto& [key, peer] : reference) {
            ++jobs[key.second];
            const auto found = ours.find(key);
            if (found == ours.end()) {
                qWarning("%s %s: no feasible cell here", formatIsoUtc(key.first).c_str(), key.second.c_str());
                continue;
            }
            const bool sameHours = found->second.hours == peer.hours;
            const double relative = std::abs(found->second.g - peer.g) / peer.g;
            if (sameHours && relative < 1e-9)
                ++identical[key.second];
            else if (++shown[key.second] <= 5)
                qWarning("%s %s: differs (%.9g g against GAIA's %.9g g)", formatIsoUtc(key.first).c_str(),
                         key.second.c_str(), found->second.g, peer.g);
        }
        QCOMPARE(ours.size(), reference.size()); // no cell feasible here that GAIA could not place
        for (const std::string policy : {"wait-awhile", "wait-awhile-interruptible"}) {
            qInfo("%s: %d of %d jobs identical to GAIA's", policy.c_str(), identical[policy], jobs[policy]);
            QCOMPARE(jobs[policy], 8745); // every hour of 2022 whose 16-hour deadline fits the trace
            QCOMPARE(identical[policy], jobs[policy]);
        }
    }
};

QTEST_GUILESS_MAIN(PeerDecisionsTest)
#include "tst_peerdecisions.moc"
