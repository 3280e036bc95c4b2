// SPDX-License-Identifier: MIT
// The policies that reproduce other people's systems, decision by decision against those systems' own code
// run on the same inputs. The reference files are committed (tests/data/peers, each with a README naming the
// peer, its commit and the command that wrote it); scripts/peer-decisions writes them again where the peer's
// code is at hand. Every difference that remains is named in docs/POLICIES.md.
#include "config/ConfigFiles.h"
#include "config/ScenarioJson.h"
#include "domain/CsvText.h"
#include "domain/InputFile.h"
#include "domain/NumberText.h"
#include "domain/Time.h"
#include "engine/forecast/SvrForecaster.h"
#include "runner/ScenarioRunner.h"
#include "study/StudyCells.h"
#include "study/StudyDefinition.h"
#include "study/StudyRunner.h"
#include "traces/TraceLoader.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
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

// A reference file: submitted,policy,hours[,g] (scripts/peers/gaia_wait_awhile.py writes the total,
// lwa_decisions.py does not: Let's Wait Awhile reports no job's emissions; g is then NaN).
Decisions readReference(const std::string& path, std::size_t columns) {
    const std::string text = readInputFile(path, 64 << 20, "a peer's decision file");
    Decisions decisions;
    forEachCsvDataRow(text, path, columns, [&](const std::vector<CsvCell>& cells, int line) {
        const std::optional<UtcSeconds> submitted = parseIsoDateTime(cells[0].text);
        const std::optional<double> g =
            columns > 3 ? parseCsvNumber(cells[3].text) : std::numeric_limits<double>::quiet_NaN();
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

// `scenario` with its one region on the bundled trace `file` (its id and time zone the trace's).
Scenario onBundledTrace(Scenario scenario, const std::string& file) {
    RegionSpec& region = scenario.regions.front();
    region.tracePath = kTraces + "/" + file;
    region.trace = loadCarbonTrace(region.tracePath);
    region.regionId = region.trace.regionId;
    region.timeZone = region.trace.timeZone;
    return scenario;
}

// A schedule by the hour: per hour of the window (from the start) the workers and the fraction of the hour
// run.
struct HourRun {
    int workers = 0;
    double fraction = 0.0;
};
using HourlySchedule = std::map<long, HourRun>;

// CarbonScaler's reference (scripts/peers/carbonscaler_agent.py): per case its schedule and its total.
struct ScalerReference {
    std::map<int, HourlySchedule> schedules;
    std::map<int, double> totalG;
};

ScalerReference readScalerReference(const std::string& folder) {
    ScalerReference reference;
    const std::string schedules = folder + "/agent-schedules.csv";
    forEachCsvDataRow(readInputFile(schedules, 64 << 20, "a peer's decision file"), schedules, 4,
                      [&](const std::vector<CsvCell>& cells, int) {
                          const int number = static_cast<int>(*parseCsvNumber(cells[0].text));
                          const long hour = static_cast<long>(*parseCsvNumber(cells[1].text));
                          reference.schedules[number][hour] = {
                              static_cast<int>(*parseCsvNumber(cells[2].text)),
                              *parseCsvNumber(cells[3].text)};
                      });
    const std::string totals = folder + "/agent-totals.csv";
    forEachCsvDataRow(readInputFile(totals, 64 << 20, "a peer's decision file"), totals, 6,
                      [&](const std::vector<CsvCell>& cells, int) {
                          reference.totalG[static_cast<int>(*parseCsvNumber(cells[0].text))] =
                              *parseCsvNumber(cells[5].text);
                      });
    return reference;
}

HourlySchedule hourlySchedule(const RunResult& run, UtcSeconds start) {
    HourlySchedule schedule;
    for (const IntervalRecord& interval : run.series) {
        if (interval.activity != IntervalActivity::Training)
            continue;
        for (UtcSeconds t = interval.start; t < interval.end;) {
            const long hour = static_cast<long>((t - start) / kSecondsPerHour);
            const UtcSeconds hourEnd = start + (hour + 1) * kSecondsPerHour;
            const UtcSeconds end = std::min(interval.end, hourEnd);
            HourRun& slot = schedule[hour];
            slot.workers = interval.gpusActive;
            slot.fraction += static_cast<double>(end - t) / kSecondsPerHour;
            t = end;
        }
    }
    return schedule;
}

// The hours that differ ("" when none): the same workers for the same share of the hour, to the engine's
// second, make an hour equal.
std::string scheduleDifference(const HourlySchedule& ours, const HourlySchedule& theirs) {
    std::set<long> hours;
    for (const auto& [hour, run] : ours)
        hours.insert(hour);
    for (const auto& [hour, run] : theirs)
        hours.insert(hour);
    std::ostringstream out;
    for (long hour : hours) {
        const auto a = ours.find(hour);
        const auto b = theirs.find(hour);
        const HourRun mine = a == ours.end() ? HourRun{} : a->second;
        const HourRun peer = b == theirs.end() ? HourRun{} : b->second;
        if (mine.workers != peer.workers || std::abs(mine.fraction - peer.fraction) > 1.0 / kSecondsPerHour)
            out << " hour " << hour << ": " << mine.workers << " x " << mine.fraction << " against "
                << peer.workers << " x " << peer.fraction << ";";
    }
    return out.str();
}

// Chase's reference (scripts/peers/chase_carbon.py): per case and 30-minute row, the forecast and the limit.
struct ChaseDecision {
    double forecast = 0.0;
    double powerLimitW = 0.0;
};
using ChaseReference = std::map<std::pair<int, long>, ChaseDecision>;

ChaseReference readChaseReference(const std::string& path) {
    ChaseReference reference;
    forEachCsvDataRow(readInputFile(path, 64 << 20, "a peer's decision file"), path, 4,
                      [&](const std::vector<CsvCell>& cells, int) {
                          reference[{static_cast<int>(*parseCsvNumber(cells[0].text)),
                                     static_cast<long>(*parseCsvNumber(cells[1].text))}] = {
                              *parseCsvNumber(cells[2].text), *parseCsvNumber(cells[3].text)};
                      });
    return reference;
}

// A case's window as Chase's code reads it: `hours` of the hourly trace from `start`, each hour two
// 30-minute rows.
CarbonTrace halfHourlyWindow(const CarbonTrace& hourly, UtcSeconds start, int hours) {
    CarbonTrace window = hourly;
    window.startUtc = start;
    window.stepSeconds = kSecondsPerHour / 2;
    window.gPerKwh.clear();
    window.marginalGPerKwh.clear();
    const auto first = static_cast<std::size_t>((start - hourly.startUtc) / hourly.stepSeconds);
    for (int h = 0; h < hours; ++h)
        for (int half = 0; half < 2; ++half)
            window.gPerKwh.push_back(hourly.gPerKwh.at(first + static_cast<std::size_t>(h)));
    return window;
}

// A schedule by training step: each phase's first and last step (exclusive) and its (t, p).
struct StepPhase {
    long startStep = 0;
    long endStep = 0;
    int tp = 0;
    int pp = 0;
    bool operator==(const StepPhase&) const = default;
};
using StepSchedule = std::vector<StepPhase>;

// The authors' greedy reference (scripts/peers/greedy_lookahead.py): per case its phases (those of no steps,
// the launch configuration it leaves at once, left out) and its replayed grams and seconds.
struct GreedyReference {
    std::map<int, StepSchedule> schedules;
    std::map<int, std::pair<double, double>> totals; // g, s
};

GreedyReference readGreedyReference(const std::string& folder) {
    GreedyReference reference;
    const std::string phases = folder + "/greedy-phases.csv";
    forEachCsvDataRow(
        readInputFile(phases, 64 << 20, "a peer's decision file"), phases, 5,
        [&](const std::vector<CsvCell>& cells, int) {
            const auto value = [&](int k) { return static_cast<long>(*parseCsvNumber(cells[k].text)); };
            const StepPhase phase{value(1), value(2), static_cast<int>(value(3)), static_cast<int>(value(4))};
            if (phase.endStep > phase.startStep)
                reference.schedules[static_cast<int>(value(0))].push_back(phase);
        });
    const std::string totals = folder + "/greedy-totals.csv";
    forEachCsvDataRow(readInputFile(totals, 64 << 20, "a peer's decision file"), totals, 7,
                      [&](const std::vector<CsvCell>& cells, int) {
                          reference.totals[static_cast<int>(*parseCsvNumber(cells[0].text))] = {
                              *parseCsvNumber(cells[5].text), *parseCsvNumber(cells[6].text)};
                      });
    return reference;
}

// A run's schedule by step (a step is one work unit): its training intervals, merged while the (t, p) stays;
// a phase boundary off a whole step by more than round-off is kept fractional, so that it differs.
StepSchedule stepSchedule(const RunResult& run) {
    StepSchedule schedule;
    double steps = 0.0;
    for (const IntervalRecord& interval : run.series) {
        if (interval.activity != IntervalActivity::Training)
            continue;
        const double from = steps;
        steps += interval.workDone;
        const double whole = std::round(steps);
        const long end = std::abs(steps - whole) < 1e-6 ? static_cast<long>(whole) : -1;
        if (!schedule.empty() && schedule.back().tp == interval.config.tp &&
            schedule.back().pp == interval.config.pp)
            schedule.back().endStep = end;
        else
            schedule.push_back(
                {static_cast<long>(std::round(from)), end, interval.config.tp, interval.config.pp});
    }
    return schedule;
}

std::string describe(const StepSchedule& schedule) {
    std::ostringstream out;
    for (const StepPhase& phase : schedule)
        out << " " << phase.startStep << "-" << phase.endStep << " t" << phase.tp << "p" << phase.pp;
    return out.str();
}

} // namespace

class PeerDecisionsTest : public QObject {
    Q_OBJECT
    // The bundled Let's Wait Awhile study's decisions, run once for both peers that judge them.
    Decisions m_waitAwhile;
    const Decisions& waitAwhileStudy() {
        if (m_waitAwhile.empty())
            m_waitAwhile = studyDecisions(
                loadStudy(kRoot + "/sample_data/studies/wait-awhile-germany-hourly.json", kTraces));
        return m_waitAwhile;
    }

private Q_SLOTS:
    // Let's Wait Awhile's setting (the bundled study: a 4-hour job at 1 kW submitted every hour of 2022 in
    // Germany, 16 hours to its deadline, a perfect forecast) against GAIA's simulator (umassos/GAIA), whose
    // `oracle_carbon_slot` and `SuspendSchedulingPolicy` are the two Wait Awhile policies. Every job runs in
    // the same hours both ways; its emissions agree to 1e-9 relative (GAIA sums each hour's intensity over
    // 720 five-second ticks, we multiply once: only round-off separates them).
    void waitAwhileDecidesAsGaia() {
        const Decisions reference =
            readReference(kRoot + "/tests/data/peers/wait-awhile/gaia-de-2022.csv", 4);
        const Decisions& ours = waitAwhileStudy();
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

    // The same study against Let's Wait Awhile's own simulator (dos-group/lets-wait-awhile, its ad-hoc
    // strategy; scripts/peers/lwa_decisions.py). Non-interruptible: every job starts where ours does.
    // Interruptible: where they differ, Let's Wait Awhile runs more hours than the job needs, every one of
    // ours and extra hours at exactly the intensity of the dirtiest hour ours runs: its rule takes every
    // slot at or below the K-th cheapest value, so a tie at that value runs one slot more (12 jobs in June
    // 2022, where DE's trace repeats 336.1 g/kWh). Any other difference fails.
    void waitAwhileDecidesAsLetsWaitAwhile() {
        const Decisions reference = readReference(kRoot + "/tests/data/peers/wait-awhile/lwa-de-2022.csv", 3);
        const Decisions& ours = waitAwhileStudy();
        const CarbonTrace trace = loadCarbonTrace(kTraces + "/DE_2022.csv");
        std::map<std::string, int> identical;
        int ties = 0;
        for (const auto& entry : reference) {
            const DecisionKey& key = entry.first; // named, not bound: the lambdas below capture it
            const JobDecision& peer = entry.second;
            const JobDecision& mine = ours.at(key);
            if (mine.hours == peer.hours) {
                ++identical[key.second];
                continue;
            }
            const auto at = [&](long hour) {
                return trace.gPerKwh.at(
                    static_cast<std::size_t>((key.first - trace.startUtc) / kSecondsPerHour + hour));
            };
            double dirtiest = 0.0;
            for (long hour : mine.hours)
                dirtiest = std::max(dirtiest, at(hour));
            const bool tie =
                key.second == "wait-awhile-interruptible" &&
                std::includes(peer.hours.begin(), peer.hours.end(), mine.hours.begin(), mine.hours.end()) &&
                std::all_of(peer.hours.begin(), peer.hours.end(),
                            [&](long hour) { return mine.hours.count(hour) > 0 || at(hour) == dirtiest; });
            QVERIFY2(tie, qPrintable(QString::fromStdString(formatIsoUtc(key.first) + " " + key.second)));
            ++ties;
        }
        qInfo("Let's Wait Awhile: %d and %d of 8745 jobs identical (non-interruptible, interruptible); %d "
              "interruptible jobs run an extra hour tied with their dirtiest",
              identical["wait-awhile"], identical["wait-awhile-interruptible"], ties);
        QCOMPARE(identical["wait-awhile"], 8745);
        QCOMPARE(identical["wait-awhile-interruptible"] + ties, 8745);
    }

    // CarbonScaler's greedy against its authors' code (umassos/carbonAdvisor's CarbonScaleAgent) on the
    // grid of tests/data/peers/carbonscaler/cases.json: 7 traces x 4 starts x 2 deadlines x 2 job sizes
    // on a concave scale profile of 1 to 8 replicas, perfect forecast, the paper's modelling (base.json).
    // Identical: every hour the same replicas for the same share of it, to a second (the engine's clock is
    // whole seconds; the agent's trimmed hour is a real fraction). Totals within 0.1 %: that second's work
    // at most, which the engine runs and the agent does not.
    void carbonScalerPlansAsItsAuthorsCode() {
        const std::string folder = kRoot + "/tests/data/peers/carbonscaler";
        const JsonValue cases = readJsonFile(folder + "/cases.json");
        const Scenario base = loadScenario(folder + "/base.json");
        const ScalerReference reference = readScalerReference(folder);
        int number = 0;
        int identical = 0;
        int withinTotals = 0;
        int shown = 0;
        double largestRelative = 0.0;
        for (const JsonValue& trace : cases.find("traces")->items()) {
            Scenario inRegion = onBundledTrace(base, trace.toString());
            // The paper counts the servers' energy only: no embodied carbon.
            inRegion.cluster.embodiedKgPerGpu = 0.0;
            for (const JsonValue& start : cases.find("starts")->items()) {
                for (const JsonValue& hours : cases.find("deadline_hours")->items()) {
                    for (const JsonValue& fraction : cases.find("work_fractions")->items()) {
                        Scenario s = inRegion;
                        s.startUtc = *parseIsoDateTime(start.toString());
                        s.deadline = DeadlineSpec{DeadlineSpec::Kind::Hours, hours.toNumber()};
                        const double largest =
                            std::max_element(
                                s.operatingPoints->points.begin(), s.operatingPoints->points.end(),
                                [](const auto& a, const auto& b) { return a.throughput < b.throughput; })
                                ->throughput;
                        s.job.work = fraction.toNumber() * largest * hours.toNumber() * kSecondsPerHour;
                        const RunResult run = runPolicy(prepareScenario(s), PolicySpec{"carbonscaler", {}});
                        const std::string difference = scheduleDifference(hourlySchedule(run, s.startUtc),
                                                                          reference.schedules.at(number));
                        const double theirs = reference.totalG.at(number);
                        const double relative = std::abs(run.metrics.operationalG - theirs) / theirs;
                        identical += difference.empty() ? 1 : 0;
                        if (difference.empty() && relative < 1e-3) {
                            ++withinTotals;
                            largestRelative = std::max(largestRelative, relative);
                        }
                        if ((!difference.empty() || relative >= 1e-3) && ++shown <= 5)
                            qWarning("case %d (%s %s %g h, %g of the window): %.6g g against %.6g g;%s",
                                     number, trace.toString().c_str(), start.toString().c_str(),
                                     hours.toNumber(), fraction.toNumber(), run.metrics.operationalG, theirs,
                                     difference.c_str());
                        ++number;
                    }
                }
            }
        }
        qInfo(
            "carbonscaler: %d of %d schedules identical to the agent's, %d of them with totals within 0.1 %% "
            "(at most %.2g apart)",
            identical, number, withinTotals, largestRelative);
        QCOMPARE(number, static_cast<int>(reference.totalG.size()));
        QCOMPARE(identical, number);
        QCOMPARE(withinTotals, number);
    }

    // The dynamic-parallelism authors' greedy against their code (Wafik20/Megatron-LM's greedy_scheduler.py,
    // its as_offline_schedule) on the grid of tests/data/peers/greedy/cases.json: 3 strategy sets x 4 traces
    // x 2 starts x 2 deadlines, a 10,000-step job launched in the fastest strategy, perfect forecast.
    // Identical: the same (t, p) for every step. Completion within 1e-9 relative (both clocks add the same
    // step times and switches, in another order). Emissions within 0.1 %: their code prices each step at
    // the intensity where it starts, the engine splits a step that crosses an hour (about one step of a
    // thousand per hour at these step times, at the hour's change of intensity).
    void greedyDecidesAsItsAuthorsCode() {
        const std::string folder = kRoot + "/tests/data/peers/greedy";
        const JsonValue cases = readJsonFile(folder + "/cases.json");
        const Scenario base = loadScenario(folder + "/base.json");
        const GreedyReference reference = readGreedyReference(folder);
        int number = 0;
        int identical = 0;
        int switching = 0;
        int shown = 0;
        double farthestG = 0.0;
        double farthestS = 0.0;
        for (const JsonValue::Member& set : cases.find("strategy_sets")->members()) {
            const std::string& name = set.key;
            Scenario withSet = base;
            withSet.cluster.pue = 1.0; // the strategies' power is the whole draw
            withSet.cluster.embodiedKgPerGpu = 0.0;
            withSet.operatingPoints->points.clear();
            for (const JsonValue& strategy : set.value.items()) {
                OperatingPoint point;
                point.tp = static_cast<int>(strategy.find("tp")->toNumber());
                point.pp = static_cast<int>(strategy.find("pp")->toNumber());
                point.dp = withSet.gpus / (*point.tp * *point.pp);
                point.throughput = 1.0 / strategy.find("step_time_s")->toNumber();
                point.powerW = strategy.find("power_w")->toNumber();
                point.powerScope = PowerScope::Facility;
                withSet.operatingPoints->points.push_back(point);
            }
            withSet.job.work = cases.find("total_steps")->toNumber();
            for (const JsonValue& trace : cases.find("traces")->items()) {
                const Scenario inRegion = onBundledTrace(withSet, trace.toString());
                for (const JsonValue& start : cases.find("starts")->items()) {
                    for (const JsonValue& hours : cases.find("deadline_hours")->items()) {
                        Scenario s = inRegion;
                        s.startUtc = *parseIsoDateTime(start.toString());
                        s.deadline = DeadlineSpec{DeadlineSpec::Kind::Hours, hours.toNumber()};
                        const RunResult run = runPolicy(prepareScenario(s), s.policies.front());
                        const StepSchedule ours = stepSchedule(run);
                        const StepSchedule& theirs = reference.schedules.at(number);
                        const auto [g, seconds] = reference.totals.at(number);
                        const bool same = ours == theirs;
                        identical += same ? 1 : 0;
                        switching += theirs.size() > 1 ? 1 : 0;
                        farthestG = std::max(farthestG, std::abs(run.metrics.operationalG - g) / g);
                        farthestS =
                            std::max(farthestS, std::abs(run.metrics.completionSeconds - seconds) / seconds);
                        if (!same && ++shown <= 3)
                            qWarning("case %d (%s %s %s %g h): ours%s\n against%s", number, name.c_str(),
                                     trace.toString().c_str(), start.toString().c_str(), hours.toNumber(),
                                     describe(ours).c_str(), describe(theirs).c_str());
                        ++number;
                    }
                }
            }
        }
        qInfo("greedy: %d of %d schedules identical step for step to the authors' code (%d of them switch); "
              "emissions at most %.2g apart, completion %.2g",
              identical, number, switching, farthestG, farthestS);
        QCOMPARE(number, static_cast<int>(reference.totals.size()));
        QCOMPARE(identical, number);
        QVERIFY2(farthestG < 1e-3, qPrintable(QString::number(farthestG)));
        QVERIFY2(farthestS < 1e-9, qPrintable(QString::number(farthestS)));
    }

    // Chase against its authors' code (ml-energy/zeus, branch chase: zeus/carbon.py's CarbonMonitor and
    // carbon_cost) on the grid of tests/data/peers/chase/cases.json: 7 traces x 4 five-day windows x 2 etas,
    // 180 decisions each. Chase's SVR as its code fits it (once, on raw values, C 100, gamma 1e-4, a free
    // bias), so the forecasts agree to 0.05 g/kWh (scikit-learn stops its solver at a 1e-3 violation of the
    // optimality conditions, ours at 1e-9, which leaves about 0.01 g/kWh between the fits; the decision
    // thresholds lie tens of g/kWh apart), and every
    // 30-minute row runs at the power limit Chase's code picks.
    void chaseDecidesAsItsAuthorsCode() {
        const std::string folder = kRoot + "/tests/data/peers/chase";
        const JsonValue cases = readJsonFile(folder + "/cases.json");
        const Scenario base = loadScenario(folder + "/base.json");
        const ChaseReference reference = readChaseReference(folder + "/zeus-decisions.csv");
        const auto hours = static_cast<int>(cases.find("hours")->toNumber());
        const auto firstRow = static_cast<long>(cases.find("first_decision_row")->toNumber());
        int number = 0;
        int decisions = 0;
        int identical = 0;
        int shown = 0;
        double farthest = 0.0; // the largest forecast difference, g/kWh
        for (const JsonValue& trace : cases.find("traces")->items()) {
            const CarbonTrace hourly = loadCarbonTrace(kTraces + "/" + trace.toString());
            for (const JsonValue& start : cases.find("starts")->items()) {
                const CarbonTrace window =
                    halfHourlyWindow(hourly, *parseIsoDateTime(start.toString()), hours);
                for (const JsonValue& eta : cases.find("etas")->items()) {
                    SvrForecaster forecaster(window, SvrFit::OnceRaw);
                    Scenario s = base;
                    s.policies.front().options["eta"] = shortestNumber(eta.toNumber());
                    RegionSpec& region = s.regions.front();
                    region.trace = window;
                    region.regionId = window.regionId;
                    region.timeZone = window.timeZone;
                    s.startUtc = window.slotStart(static_cast<std::size_t>(firstRow));
                    s.deadline =
                        DeadlineSpec{DeadlineSpec::Kind::Hours,
                                     static_cast<double>(window.endUtc() - s.startUtc) / kSecondsPerHour};
                    // As much work as the fastest limit does in the window: any slower choice leaves some at
                    // the trace's end, so the job trains through every row Chase decides.
                    double fastest = 0.0;
                    for (const OperatingPoint& point : s.operatingPoints->points)
                        fastest = std::max(fastest, point.throughput);
                    s.job.work = fastest * static_cast<double>(window.endUtc() - s.startUtc);
                    const PreparedScenario prepared = prepareScenario(s);
                    const RunResult run = runPolicy(prepared, s.policies.front());
                    std::map<long, double> limits; // row -> the limit it trained at
                    for (const IntervalRecord& interval : run.series)
                        if (interval.activity == IntervalActivity::Training)
                            limits[static_cast<long>((interval.start - window.startUtc) /
                                                     window.stepSeconds)] = interval.powerLimitW;
                    for (long row = firstRow; row < static_cast<long>(window.size()); ++row) {
                        const ChaseDecision& theirs = reference.at({number, row});
                        std::vector<double> forecast;
                        forecaster.predict(static_cast<std::size_t>(row), 1, forecast);
                        farthest = std::max(farthest, std::abs(forecast.front() - theirs.forecast));
                        const auto ours = limits.find(row);
                        const bool same = ours != limits.end() && ours->second == theirs.powerLimitW;
                        identical += same ? 1 : 0;
                        ++decisions;
                        if (!same && ++shown <= 5)
                            qWarning("case %d row %ld: %g W against %g W (forecast %.6g against %.6g)",
                                     number, row, ours == limits.end() ? 0.0 : ours->second,
                                     theirs.powerLimitW, forecast.front(), theirs.forecast);
                    }
                    ++number;
                }
            }
        }
        qInfo("chase: %d of %d decisions identical to Chase's code; forecasts at most %.2g g/kWh apart",
              identical, decisions, farthest);
        QCOMPARE(decisions, static_cast<int>(reference.size()));
        QCOMPARE(identical, decisions);
        QVERIFY2(farthest <= 0.05, qPrintable(QString::number(farthest)));
    }
};

QTEST_GUILESS_MAIN(PeerDecisionsTest)
#include "tst_peerdecisions.moc"
