// SPDX-License-Identifier: MIT
#include "reports/StudyLesson.h"

#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "reports/NumberFormat.h"
#include "runner/ReshapingOutlook.h"
#include "runner/ScenarioRunner.h"
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "study/StudyTable.h"
#include "validation/Statistics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

namespace carbon3d::reports {

namespace {

// A lead or a loss smaller than this (a point of the baseline's emissions) is a tie: the engine's decision
// grid and overheads move runs by that much without any policy being better.
constexpr double kPoint = 0.01;

int requireColumn(const StudyTable& table, const char* name) {
    const int column = table.column(name);
    if (column < 0)
        throw InputError("study", 0, 0, std::string("the lesson's study needs the axis '") + name + "'");
    return column;
}

template <typename T> void appendOnce(std::vector<T>& list, const T& value) {
    if (std::find(list.begin(), list.end(), value) == list.end())
        list.push_back(value);
}

std::vector<StudyRow> runAll(const StudyDefinition& study) {
    std::vector<StudyRow> rows;
    std::mutex mutex;
    StudyRunOptions options;
    options.onCell = [&](CellResult&& result) {
        StudyRow row = studyRowOf(study, result);
        const std::lock_guard<std::mutex> lock(mutex);
        rows.push_back(std::move(row));
    };
    runStudy(study, options);
    // Cells finish in any order; the numbers (and so the text) follow the cell order.
    std::sort(rows.begin(), rows.end(),
              [](const StudyRow& a, const StudyRow& b) { return a.index < b.index; });
    return rows;
}

// The table's columns the lesson reads.
struct LessonColumns {
    int gpus, start, region, parked, forecast, policy;
    explicit LessonColumns(const StudyTable& table)
        : gpus(requireColumn(table, "gpus"))
        , start(requireColumn(table, "start"))
        , region(requireColumn(table, "region"))
        , parked(requireColumn(table, "parked_gpus"))
        , forecast(requireColumn(table, "forecast"))
        , policy(requireColumn(table, "policy")) {}
};

const std::string& cellText(const StudyRow& row, int column) {
    return row.values[static_cast<std::size_t>(column)];
}

// One run of the job: every policy of one setting, start and grid, by the policy column's text.
using LessonRun = std::map<std::string, const StudyRow*>;

// The focused policy's run beside the strongest simpler policy of the same run.
struct ComparedRun {
    const StudyRow* focused = nullptr;
    double simplerSaving = 0.0;
    std::string strongest;
    double lead() const { return focused->savingsVsBaseline - simplerSaving; }
};

std::optional<ComparedRun> compareRun(const LessonRun& run, const StudyLessonNumbers& n) {
    const auto focused = run.find(n.policy);
    if (focused == run.end() || !std::isfinite(focused->second->savingsVsBaseline))
        return std::nullopt;
    ComparedRun compared;
    compared.focused = focused->second;
    double least = INFINITY;
    for (const std::string& name : n.simpler) {
        const auto found = run.find(name);
        if (found == run.end() || !found->second->feasible ||
            !std::isfinite(found->second->savingsVsBaseline))
            continue;
        if (found->second->metrics.totalG < least) {
            least = found->second->metrics.totalG;
            compared.simplerSaving = found->second->savingsVsBaseline;
            compared.strongest = name;
        }
    }
    if (compared.strongest.empty())
        return std::nullopt;
    return compared;
}

using GroupKey = std::tuple<std::string, std::string, std::string>; // gpus, parked, forecast

StudyLessonGroup summarise(const GroupKey& key, const std::vector<ComparedRun>& compared,
                           const std::vector<std::string>& simplerOrder) {
    StudyLessonGroup group;
    std::tie(group.gpus, group.parked, group.forecast) = key;
    group.runs = compared.size();
    std::vector<double> own, simpler, leads;
    std::map<std::string, std::size_t> strongest;
    for (const ComparedRun& run : compared) {
        own.push_back(run.focused->savingsVsBaseline);
        simpler.push_back(run.simplerSaving);
        leads.push_back(run.lead());
        group.ahead += run.lead() > kPoint ? 1 : 0;
        group.behind += run.lead() < -kPoint ? 1 : 0;
        ++strongest[run.strongest];
    }
    group.policyMedian = median(own);
    group.simplerMedian = median(simpler);
    group.leadMedian = median(leads);
    for (const std::string& name : simplerOrder) // ties go to the study's order
        if (strongest[name] > group.usualStrongestRuns) {
            group.usualStrongest = name;
            group.usualStrongestRuns = strongest[name];
        }
    return group;
}

StudyLessonJob jobOf(const StudyDefinition& study, const std::string& gpus, std::int64_t cell) {
    const Scenario scenario = cellSetup(study, cellAt(study, static_cast<std::size_t>(cell))).scenario;
    const ReshapingOutlook outlook = reshapingOutlook(prepareScenario(scenario));
    return {gpus, outlook.fullSize, outlook.mostEfficient, outlook.activeSpread()};
}

// The typical run of a group: the one whose lead is nearest the group's median (the first on a tie).
const ComparedRun& typicalRun(const std::vector<ComparedRun>& runs, double medianLead) {
    const ComparedRun* typical = &runs.front();
    for (const ComparedRun& run : runs)
        if (std::abs(run.lead() - medianLead) < std::abs(typical->lead() - medianLead))
            typical = &run;
    return *typical;
}

} // namespace

StudyDefinition loadStudyLesson(const std::string& sampleDataDirectory) {
    const std::string inSampleData = std::string(kStudyLessonFile).substr(std::string("sample_data").size());
    return loadStudy(sampleDataDirectory + inSampleData, sampleDataDirectory + "/traces");
}

StudyLessonNumbers computeStudyLesson(const StudyDefinition& study) {
    StudyLessonNumbers numbers;
    numbers.policy = focusedPolicy().name;
    numbers.baseline = defaultBaselinePolicy().name;
    numbers.defaultForecast = ForecastSpec{}.kind;
    std::vector<StudyRow> rows = runAll(study);
    numbers.cells = rows.size();
    const StudyTable table = studyTable(axisColumns(study), std::move(rows), numbers.baseline);
    const LessonColumns column(table);

    // Runs keyed by every axis but the policy, in cell order.
    std::map<std::vector<std::string>, LessonRun> runs;
    std::vector<std::vector<std::string>> runOrder;
    for (const StudyRow& row : table.rows) {
        std::vector<std::string> key = row.values;
        key.erase(key.begin() + column.policy);
        if (runs.find(key) == runs.end())
            runOrder.push_back(key);
        runs[key][cellText(row, column.policy)] = &row;
        const PolicyInfo* info = findPolicy(cellText(row, column.policy));
        if (info != nullptr && info->traits.simplerPlan != SimplerPlan::None)
            appendOnce(numbers.simpler, info->name);
    }
    if (numbers.simpler.empty())
        throw InputError("study", 0, 0, "the lesson's study runs no policy simpler than " + numbers.policy);

    std::map<GroupKey, std::vector<ComparedRun>> grouped;
    std::vector<GroupKey> groupOrder;
    for (const auto& key : runOrder) {
        const std::optional<ComparedRun> compared = compareRun(runs[key], numbers);
        if (!compared)
            continue;
        const StudyRow& row = *compared->focused;
        const GroupKey group{cellText(row, column.gpus), cellText(row, column.parked),
                             cellText(row, column.forecast)};
        if (grouped.find(group) == grouped.end())
            groupOrder.push_back(group);
        grouped[group].push_back(*compared);
        // The job's menu from a run with parked GPUs released: charged as active, the outlook's most
        // efficient configuration is the one of least energy per token on the GPUs it runs.
        if (cellText(row, column.parked) == kParkedReleased &&
            std::none_of(numbers.jobs.begin(), numbers.jobs.end(),
                         [&](const StudyLessonJob& job) { return job.gpus == cellText(row, column.gpus); }))
            numbers.jobs.push_back(jobOf(study, cellText(row, column.gpus), row.index));
    }

    // The lesson opens the setting that leads most with parked GPUs released under the default forecast.
    std::optional<std::size_t> openedGroup; // index into groupOrder and numbers.groups
    for (const GroupKey& key : groupOrder) {
        const StudyLessonGroup group = summarise(key, grouped[key], numbers.simpler);
        const bool candidate = group.parked == kParkedReleased && group.forecast == numbers.defaultForecast;
        if (candidate && (!openedGroup || group.leadMedian > numbers.groups[*openedGroup].leadMedian))
            openedGroup = numbers.groups.size();
        numbers.groups.push_back(group);
    }
    if (!openedGroup)
        throw InputError("study", 0, 0,
                         "the lesson's study has no " + numbers.policy + " run with a " + numbers.baseline +
                             " and a simpler policy, parked GPUs released, under the default forecast (" +
                             numbers.defaultForecast + ")");
    const ComparedRun& opened =
        typicalRun(grouped[groupOrder[*openedGroup]], numbers.groups[*openedGroup].leadMedian);
    numbers.openedCell = static_cast<std::size_t>(opened.focused->index);
    numbers.openedRegion = cellText(*opened.focused, column.region);
    numbers.openedStart = cellText(*opened.focused, column.start).substr(0, 10);
    numbers.openedGpus = cellText(*opened.focused, column.gpus);
    numbers.openedStrongest = opened.strongest;
    numbers.openedLead = opened.lead();
    return numbers;
}

bool reshapingPays(const StudyLessonNumbers& n, const std::string& gpus) {
    bool any = false;
    for (const StudyLessonGroup& g : n.groups) {
        if (g.gpus != gpus || g.parked != kParkedReleased)
            continue;
        any = true;
        if (!(g.leadMedian > kPoint))
            return false;
    }
    return any;
}

namespace {

std::string points(double fraction) {
    return fixed(fraction * 100.0, 1) + " points";
}

const StudyLessonJob& jobFor(const StudyLessonNumbers& n, const std::string& gpus) {
    for (const StudyLessonJob& job : n.jobs)
        if (job.gpus == gpus)
            return job;
    throw InputError("study", 0, 0, "no job of " + gpus + " GPUs in the lesson's numbers");
}

std::string forecastName(const StudyLessonNumbers& n, const std::string& forecast) {
    if (forecast == "oracle")
        return "a perfect forecast";
    return forecast == n.defaultForecast ? "the default forecast (" + forecast + ")"
                                         : "the " + forecast + " forecast";
}

// "1,024 GPUs": the gpus column's count for prose.
std::string gpusText(const std::string& gpus) {
    const std::optional<double> count = parseDecimal(gpus);
    return (count ? grouped(static_cast<long long>(*count)) : gpus) + " GPUs";
}

// "the full-size configuration (d256 t2 p1) spends 33.0 % more energy per token than the most efficient one
// (d16 t1 p1)"
std::string spreadText(const StudyLessonJob& job) {
    return "the full-size configuration (" + job.fullSize + ") spends " + percent(job.spread - 1.0) +
           " more energy per token than the most efficient one (" + job.mostEfficient + ")";
}

// One setting over both forecasts, e.g. "dynamic-3d saves a median 17.4 % and 16.3 % against static-max
// under a perfect forecast and the default forecast (ridge), the strongest simpler policy 15.3 % and 15.2 %
// (most often best-static); dynamic-3d is more than a point ahead in 65 and 43 of 84 runs and behind in 0
// and 13".
std::string settingText(const StudyLessonNumbers& n, const std::vector<const StudyLessonGroup*>& groups) {
    std::vector<std::string> forecasts, own, simpler, usual, ahead, behind;
    std::size_t runs = 0;
    for (const StudyLessonGroup* g : groups) {
        forecasts.push_back(forecastName(n, g->forecast));
        own.push_back(percent(g->policyMedian));
        simpler.push_back(percent(g->simplerMedian));
        appendOnce(usual, g->usualStrongest);
        ahead.push_back(grouped(static_cast<long long>(g->ahead)));
        behind.push_back(grouped(static_cast<long long>(g->behind)));
        runs = g->runs;
    }
    return n.policy + " saves a median " + spokenList(own, "and") + " against " + n.baseline + " under " +
           spokenList(forecasts, "and") + ", the strongest simpler policy " + spokenList(simpler, "and") +
           " (most often " + spokenList(usual, "or") + "); " + n.policy + " is more than a point ahead in " +
           spokenList(ahead, "and") + " of " + grouped(static_cast<long long>(runs)) +
           " runs and behind in " + spokenList(behind, "and");
}

std::vector<const StudyLessonGroup*> groupsOf(const StudyLessonNumbers& n, const std::string& gpus,
                                              const std::string& parked) {
    std::vector<const StudyLessonGroup*> groups;
    for (const StudyLessonGroup& g : n.groups)
        if ((gpus.empty() || g.gpus == gpus) && g.parked == parked)
            groups.push_back(&g);
    return groups;
}

// Why reshaping pays or not for one GPU count, from the settings' own numbers.
std::string verdictText(const StudyLessonNumbers& n, const std::string& gpus) {
    const std::vector<const StudyLessonGroup*> released = groupsOf(n, gpus, kParkedReleased);
    if (reshapingPays(n, gpus)) {
        const bool mostlySimpler =
            std::all_of(released.begin(), released.end(),
                        [](const StudyLessonGroup* g) { return g->simplerMedian > g->leadMedian; });
        return mostlySimpler ? "Reshaping pays here, though most of its saving is what the strongest simpler "
                               "policy finds too."
                             : "Reshaping pays here, and most of its saving is its own.";
    }
    const bool forecastHurts = std::any_of(released.begin(), released.end(), [&](const StudyLessonGroup* g) {
        return g->forecast == n.defaultForecast && g->behind > g->ahead;
    });
    return std::string(
               "Reshaping does not pay here: the spread leaves it little a simpler plan does not find") +
           (forecastHurts ? ", and under the default forecast it falls behind more often than it leads."
                          : ".");
}

// Whether any setting with parked GPUs charged to the job leads by more than a point at the median.
bool paysWhileIdle(const StudyLessonNumbers& n) {
    const std::vector<const StudyLessonGroup*> idle = groupsOf(n, "", kParkedIdle);
    return std::any_of(idle.begin(), idle.end(),
                       [](const StudyLessonGroup* g) { return g->leadMedian > kPoint; });
}

} // namespace

JsonValue studyLessonScenario(const StudyDefinition& study, const StudyLessonNumbers& n,
                              const std::string& studyFile, const std::string& scenarioDir) {
    std::string text = "A study of " + grouped(static_cast<long long>(n.cells)) + " runs (" + studyFile +
                       "). " + study.description + " In each run " + n.policy +
                       " is set beside the strongest simpler policy, the one of " +
                       spokenList(n.simpler, "and") + " that emitted the least in the same setting.";
    std::vector<std::string> spreads;
    for (const StudyLessonJob& job : n.jobs)
        spreads.push_back("on " + gpusText(job.gpus) + " " + spreadText(job));
    text += " What reshaping has to work with is the menu's spread: " + spokenList(spreads, "and") + ".";
    for (const StudyLessonJob& job : n.jobs)
        text += " With parked GPUs released, on " + gpusText(job.gpus) + " " +
                settingText(n, groupsOf(n, job.gpus, kParkedReleased)) + ". " + verdictText(n, job.gpus);
    const std::vector<const StudyLessonGroup*> idle = groupsOf(n, "", kParkedIdle);
    if (!idle.empty()) {
        std::size_t ahead = 0;
        std::size_t runs = 0;
        for (const StudyLessonGroup* g : idle) {
            ahead = std::max(ahead, g->ahead);
            runs = g->runs;
        }
        text += " With parked GPUs idle and charged to the job, " + n.policy +
                " is more than a point ahead in at most " + grouped(static_cast<long long>(ahead)) + " of " +
                grouped(static_cast<long long>(runs)) + " runs of any setting" +
                (paysWhileIdle(n) ? "."
                                  : ": a parked GPU still draws idle power and carries embodied carbon, so a "
                                    "smaller configuration saves little the timing policies do not.");
    }
    text += " The lesson opens on a typical run of the setting where reshaping leads most: " +
            gpusText(n.openedGpus) + " in " + n.openedRegion + " from " + n.openedStart +
            ", parked GPUs released, the default forecast, where " + n.policy + " saves " +
            points(n.openedLead) + " more than " + n.openedStrongest +
            " (the median lead of that setting). The Study tab sweeps any scenario the same way, and "
            "carbon3d-cli study run " +
            studyFile + " reproduces these numbers.";
    Scenario opened = cellSetup(study, cellAt(study, n.openedCell)).scenario;
    opened.name = "Learn: when does dynamic 3D parallelism pay? (a study)";
    opened.description = text;
    opened.policies = study.base.policies; // every compared policy, the oracle beside them
    return toJson(opened, scenarioDir);
}

std::string studyLessonTableMarkdown(const StudyLessonNumbers& n) {
    std::ostringstream md;
    md << "Every number below comes from the study `" << kStudyLessonFile << "` ("
       << grouped(static_cast<long long>(n.cells))
       << " runs; the Learn page's lesson is written from the same numbers). In each run " << n.policy
       << " is set beside the strongest simpler policy of the same setting: the one of "
       << spokenList(n.simpler, "and") << " that emitted the least. *Lead* is " << n.policy
       << "'s saving minus that policy's, in points of " << n.baseline
       << "'s emissions; *ahead* and *behind* count runs where it exceeds a point either way.\n\n";
    md << "| GPUs | energy per token, full size over most efficient | parked GPUs | forecast | " << n.policy
       << " median saving | strongest simpler median saving | most often strongest | median lead | ahead | "
          "behind |\n|---:|---:|---|---|---:|---:|---|---:|---:|---:|\n";
    for (const StudyLessonGroup& g : n.groups) {
        const StudyLessonJob& job = jobFor(n, g.gpus);
        md << "| " << g.gpus << " | " << fixed(job.spread, 2) << "x | " << g.parked << " | " << g.forecast
           << " | " << percent(g.policyMedian) << " | " << percent(g.simplerMedian) << " | "
           << g.usualStrongest << " (" << g.usualStrongestRuns << " of " << g.runs << ") | "
           << points(g.leadMedian) << " | " << g.ahead << " | " << g.behind << " |\n";
    }
    return md.str();
}

std::string studyLessonVerdictMarkdown(const StudyLessonNumbers& n) {
    std::ostringstream md;
    for (const StudyLessonJob& job : n.jobs) {
        md << "- **Reshaping " << (reshapingPays(n, job.gpus) ? "pays" : "does not pay") << " on "
           << gpusText(job.gpus) << "**: " << spreadText(job) << "; with parked GPUs released " << n.policy
           << "'s median lead over the strongest simpler policy is ";
        std::vector<std::string> leads;
        for (const StudyLessonGroup* g : groupsOf(n, job.gpus, kParkedReleased))
            leads.push_back(points(g->leadMedian) + " under " + forecastName(n, g->forecast));
        md << spokenList(leads, "and") << ".\n";
    }
    md << "- *Pays* means a median lead of more than a point under every forecast with parked GPUs released ("
       << kStudyLessonFile << "). "
       << (paysWhileIdle(n)
               ? "Some setting with parked GPUs idle and charged to the job also leads by more than a "
                 "point at the median."
               : "With parked GPUs idle and charged to the job no setting leads by more than a point "
                 "at the median: a parked GPU still draws idle power and carries embodied carbon.")
       << "\n";
    return md.str();
}

} // namespace carbon3d::reports
