// SPDX-License-Identifier: MIT
#include "reports/StudyLesson.h"

#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "engine/PolicyRegistry.h"
#include "reports/NumberFormat.h"
#include "reports/Prose.h"
#include "study/StudyCells.h"
#include "study/StudyRecords.h"
#include "study/StudyRunner.h"
#include "study/StudyTable.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

namespace carbon3d::reports {

namespace {

double median(std::vector<double> values) {
    if (values.empty())
        return std::nan("");
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

int requireColumn(const StudyTable& table, const char* name) {
    const int column = table.column(name);
    if (column < 0)
        throw InputError("study", 0, 0, std::string("the lesson's study needs the axis '") + name + "'");
    return column;
}

} // namespace

StudyLessonNumbers computeStudyLesson(const StudyDefinition& study) {
    std::vector<StudyRow> rows;
    std::mutex mutex;
    StudyRunOptions options;
    options.onCell = [&](CellResult&& result) {
        StudyRow row = studyRowOf(study, result);
        const std::lock_guard<std::mutex> lock(mutex);
        rows.push_back(std::move(row));
    };
    runStudy(study, options);
    // Cells finish in any order; the table (and so the text) follows the cell order.
    std::sort(rows.begin(), rows.end(),
              [](const StudyRow& a, const StudyRow& b) { return a.index < b.index; });
    StudyLessonNumbers numbers;
    numbers.policy = focusedPolicy().name;
    numbers.baseline = defaultBaselinePolicy().name;
    numbers.cells = rows.size();
    const StudyTable table = studyTable(axisColumns(study), std::move(rows), numbers.baseline);
    const auto at = [](const StudyRow& row, int column) {
        return row.values[static_cast<std::size_t>(column)];
    };
    const int start = requireColumn(table, "start");
    const int region = requireColumn(table, "region");
    const int slack = requireColumn(table, "slack");
    const int parked = requireColumn(table, "parked_gpus");
    const int policy = requireColumn(table, "policy");

    std::map<std::pair<std::string, std::string>, std::vector<double>> groups;
    std::vector<std::pair<std::string, std::string>> order;
    double largestSlack = 0.0;
    for (const StudyRow& row : table.rows)
        largestSlack = std::max(largestSlack, parseDecimal(at(row, slack)).value_or(0.0));
    std::map<std::string, std::vector<double>> byRegion;
    std::vector<std::string> regionOrder;
    for (const StudyRow& row : table.rows) {
        if (at(row, policy) != numbers.policy || !std::isfinite(row.savingsVsBaseline))
            continue;
        ++numbers.compared;
        const auto key = std::make_pair(at(row, parked), at(row, slack));
        if (groups.find(key) == groups.end())
            order.push_back(key);
        groups[key].push_back(row.savingsVsBaseline);
        if (at(row, parked) == "released" && parseDecimal(at(row, slack)).value_or(0.0) == largestSlack) {
            if (byRegion.find(at(row, region)) == byRegion.end())
                regionOrder.push_back(at(row, region));
            byRegion[at(row, region)].push_back(row.savingsVsBaseline);
        }
        if (row.savingsVsBaseline > numbers.bestSavings) {
            numbers.bestSavings = row.savingsVsBaseline;
            numbers.bestRegion = at(row, region);
            numbers.bestStart = at(row, start).substr(0, 10);
            numbers.bestCell = static_cast<std::size_t>(row.index);
        }
    }
    if (numbers.compared == 0)
        throw InputError("study", 0, 0,
                         "no cell of " + numbers.policy + " has a " + numbers.baseline + " to compare with");
    for (const auto& key : order) {
        const std::vector<double>& values = groups[key];
        StudyLessonGroup group;
        group.parked = key.first;
        group.slack = parseDecimal(key.second).value_or(0.0);
        group.cells = values.size();
        group.median = median(values);
        group.best = *std::max_element(values.begin(), values.end());
        group.paying = static_cast<std::size_t>(
            std::count_if(values.begin(), values.end(), [](double v) { return v > 0.01; }));
        numbers.groups.push_back(group);
    }
    for (const std::string& name : regionOrder)
        numbers.regions.push_back({name, median(byRegion[name])});
    std::stable_sort(
        numbers.regions.begin(), numbers.regions.end(),
        [](const StudyLessonRegion& a, const StudyLessonRegion& b) { return a.median > b.median; });
    return numbers;
}

JsonValue studyLessonScenario(const StudyDefinition& study, const StudyLessonNumbers& n,
                              const std::string& studyFile, const std::string& scenarioDir) {
    std::string text = "A study of " + grouped(static_cast<long long>(n.cells)) + " runs (" + studyFile +
                       "). " + study.description + " Each " + n.policy + " run is compared with the " +
                       n.baseline + " run of the same start, grid, slack and accounting.";
    // Per accounting, the slacks in the study's order.
    std::vector<std::string> parkedOrder;
    for (const StudyLessonGroup& g : n.groups)
        if (std::find(parkedOrder.begin(), parkedOrder.end(), g.parked) == parkedOrder.end())
            parkedOrder.push_back(g.parked);
    text += " Who pays for parked GPUs decides most.";
    for (const std::string& parked : parkedOrder) {
        std::vector<std::string> medians;
        std::vector<std::string> paying;
        std::size_t cells = 0;
        for (const StudyLessonGroup& g : n.groups) {
            if (g.parked != parked)
                continue;
            medians.push_back(percent(g.median) + " with " + fixed(g.slack * 100.0, 0) + " % slack");
            paying.push_back(grouped(static_cast<long long>(g.paying)));
            cells = g.cells;
        }
        text += " With parked GPUs " +
                std::string(parked == "idle" ? "idle and charged to the job" : "released to other work") +
                ", the median saving is " + spokenList(medians, "and") + " (" + spokenList(paying, "and") +
                " of " + grouped(static_cast<long long>(cells)) + " runs save more than 1 %).";
    }
    std::vector<std::string> regionTexts;
    for (const StudyLessonRegion& r : n.regions)
        regionTexts.push_back(r.region + " " + percent(r.median));
    text += " Then the grid: with parked GPUs released and the largest slack, the median saving is " +
            joinedText(regionTexts) + ", from the grid where it pays most to the one where it pays least.";
    text += " The best single run saves " + percent(n.bestSavings) + " (" + n.bestRegion + ", start " +
            n.bestStart +
            "): it is the scenario this lesson opens. The Study tab sweeps any scenario the same way, and "
            "carbon3d-cli study run " +
            studyFile + " reproduces these numbers.";
    Scenario best = cellSetup(study, cellAt(study, n.bestCell)).scenario;
    best.name = "Learn: when does dynamic 3D parallelism pay? (a study)";
    best.description = text;
    best.policies = study.base.policies; // the two compared, with the base lesson's others for context
    return toJson(best, scenarioDir);
}

} // namespace carbon3d::reports
