// SPDX-License-Identifier: MIT
#include "study/StudyFigures.h"

#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "study/StudyDefinition.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace carbon3d {

namespace {

constexpr std::int64_t kDay = 86400;
constexpr std::size_t kMostValuesNamed = 6; // a pooled axis with more is counted, not listed
// A CDF line's points at most: about twice the pixels across the widest figure preset (paper, two columns:
// 2,067 at 300 dpi), and a million-cell study's lines then draw in milliseconds (issue 44: the GUI thread is
// never to be blocked 50 ms).
constexpr std::size_t kMostCdfPoints = 4000;

int requireColumn(const StudyHeader& header, const std::string& key, const std::string& figure) {
    const int column = header.column(key);
    if (column < 0)
        throw InputError("study", 0, 0,
                         figure + " needs the study's '" + key + "' axis; its axes are " +
                             joinedText(header.axisColumns));
    return column;
}

bool drawn(const StudyRow& row) {
    return row.feasible && std::isfinite(row.savingsVsBaseline);
}

double numberIn(const std::string& text) {
    return parseDecimal(text).value_or(std::numeric_limits<double>::quiet_NaN());
}

std::string pooledNote(const StudyHeader& header, const std::vector<std::string>& kept) {
    std::string note;
    for (const StudyAxisGroup& group : studyAxisGroups(header))
        if (std::find(kept.begin(), kept.end(), group.name) == kept.end())
            appendSeparated(note, group.name);
    return note.empty() ? std::string() : "each point pools the cells over " + note;
}

// What each drawn cell is, axis by axis beyond `drawnAxes`: "gpus 1024" where the rows added hold one
// value, "mean over slack (0.25, 1)" where they pool several.
class HeldOrPooledNote {
public:
    HeldOrPooledNote(const StudyHeader& header, const std::vector<std::string>& drawnAxes) {
        for (StudyAxisGroup& group : studyAxisGroups(header))
            if (std::find(drawnAxes.begin(), drawnAxes.end(), group.name) == drawnAxes.end())
                m_axes.emplace_back(header, std::move(group));
    }
    void add(const StudyRow& row) {
        for (AxisValuesInOrder& axis : m_axes)
            axis.add(row);
    }
    std::string text() const {
        std::string held;
        std::string pooled;
        for (const AxisValuesInOrder& axis : m_axes) {
            const std::vector<std::string> values = axis.values();
            const std::string& name = axis.groupName();
            if (values.size() == 1)
                appendSeparated(held, name + " " + values.front());
            else if (values.size() > kMostValuesNamed)
                appendSeparated(pooled, name + " (" + std::to_string(values.size()) + " values)", " and ");
            else if (values.size() > 1)
                appendSeparated(pooled, name + " (" + joinedText(values) + ")", " and ");
        }
        std::string note = pooled.empty() ? std::string() : "mean over " + pooled;
        if (!held.empty())
            note += (note.empty() ? "" : "; ") + held;
        return note;
    }

private:
    std::vector<AxisValuesInOrder> m_axes;
};

// A running mean with its extremes: what a line's point or a heatmap's cell keeps of the savings that fell
// there, however many cells they are.
struct Pooled {
    double sum = 0.0;
    double least = std::numeric_limits<double>::infinity();
    double most = -std::numeric_limits<double>::infinity();
    std::size_t count = 0;
    void add(double value) {
        sum += value;
        least = std::min(least, value);
        most = std::max(most, value);
        ++count;
    }
    double mean() const { return sum / static_cast<double>(count); }
};

// Per policy and x: the savings that fell there.
using Groups = std::map<std::string, std::map<double, Pooled>>;

StudyFigureData linesFromGroups(const Groups& groups, bool band) {
    StudyFigureData figure;
    for (const auto& [policy, byX] : groups) {
        StudyLine line;
        line.policy = policy;
        for (const auto& [x, pooled] : byX) {
            line.x.push_back(x);
            line.y.push_back(pooled.mean());
            if (band) {
                line.low.push_back(pooled.least);
                line.high.push_back(pooled.most);
            }
        }
        figure.lines.push_back(std::move(line));
    }
    return figure;
}

} // namespace

std::vector<StudyAxisGroup> studyAxisGroups(const StudyHeader& header) {
    std::vector<StudyAxisGroup> groups;
    const int forecast = header.column(kForecastAxisColumns[0]);
    for (std::size_t c = 0; c < header.axisColumns.size(); ++c) {
        const std::string& column = header.axisColumns[c];
        const bool joinsForecast =
            forecast >= 0 && column != kForecastAxisColumns[0] &&
            std::find_if(std::begin(kForecastAxisColumns), std::end(kForecastAxisColumns),
                         [&](const char* name) { return column == name; }) != std::end(kForecastAxisColumns);
        if (!joinsForecast) {
            groups.push_back({column, {static_cast<int>(c)}});
            continue;
        }
        for (StudyAxisGroup& group : groups)
            if (group.name == kForecastAxisColumns[0])
                group.columns.push_back(static_cast<int>(c));
    }
    return groups;
}

AxisValuesInOrder::AxisValuesInOrder(const StudyHeader& header, StudyAxisGroup group)
    : m_header(header)
    , m_group(std::move(group)) {}

void AxisValuesInOrder::add(const StudyRow& row) {
    const auto [at, added] = m_firstCell.emplace(axisGroupText(m_header, m_group, row), row.index);
    if (!added)
        at->second = std::min(at->second, row.index);
}

std::vector<std::string> AxisValuesInOrder::values() const {
    std::vector<std::pair<std::int64_t, std::string>> ordered;
    ordered.reserve(m_firstCell.size());
    for (const auto& [value, index] : m_firstCell)
        ordered.emplace_back(index, value);
    std::sort(ordered.begin(), ordered.end());
    std::vector<std::string> values;
    values.reserve(ordered.size());
    for (auto& entry : ordered)
        values.push_back(std::move(entry.second));
    return values;
}

std::string axisGroupText(const StudyHeader& header, const StudyAxisGroup& group, const StudyRow& row) {
    const std::string& first = row.values[static_cast<std::size_t>(group.columns.front())];
    std::string details;
    for (std::size_t i = 1; i < group.columns.size(); ++i) {
        const auto c = static_cast<std::size_t>(group.columns[i]);
        if (!row.values[c].empty())
            appendSeparated(details, header.axisColumns[c] + " " + row.values[c]);
    }
    return details.empty() ? first : first + " (" + details + ")";
}

int StudyHeatmap::columnAt(UtcSeconds utc) const {
    if (starts.empty() || utc < starts.front() || utc >= endUtc)
        return -1;
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), utc) - starts.begin()) - 1;
}

StudyFigureData studySavingsHeatmap(const StudyRowSource& rows, const std::string& policy) {
    const StudyHeader& header = rows.header();
    const int start = requireColumn(header, "start", "the heatmap");
    const int region = requireColumn(header, "region", "the heatmap");
    const int policyColumn = requireColumn(header, "policy", "the heatmap");
    StudyFigureData figure;
    figure.xLabel = "Start (UTC)";
    figure.yLabel = "Region";
    StudyHeatmap& map = figure.heatmap;
    map.policy = policy;
    map.scaleLabel = policy + ": savings against " + header.baselinePolicy + " (%)";
    std::map<std::string, int> regionRow;
    std::map<std::pair<int, UtcSeconds>, Pooled> cells;
    std::map<std::pair<int, UtcSeconds>, std::int64_t> firstCells; // of the feasible cells, drawn or not
    std::set<UtcSeconds> starts;
    HeldOrPooledNote note(header, {"start", "region", "policy"});
    rows.forEachRow([&](const StudyRow& row) {
        const std::string& id = row.values[static_cast<std::size_t>(region)];
        if (regionRow.emplace(id, static_cast<int>(map.regions.size())).second)
            map.regions.push_back(id);
        if (row.values[static_cast<std::size_t>(policyColumn)] != policy)
            return;
        note.add(row);
        const std::optional<UtcSeconds> utc = parseIsoDateTime(row.values[static_cast<std::size_t>(start)]);
        if (utc)
            starts.insert(*utc);
        if (utc && row.feasible) {
            const auto [first, added] = firstCells.emplace(std::make_pair(regionRow[id], *utc), row.index);
            if (!added)
                first->second = std::min(first->second, row.index);
        }
        if (!drawn(row) || !utc) {
            ++figure.leftOut;
            return;
        }
        cells[{regionRow[id], *utc}].add(row.savingsVsBaseline);
    });
    if (cells.empty())
        throw InputError("study", 0, 0, "no cell of policy '" + policy + "' has savings to draw");
    map.starts.assign(starts.begin(), starts.end());
    map.spacing = 0;
    for (std::size_t i = 1; i < map.starts.size(); ++i)
        map.spacing = std::gcd(map.spacing, map.starts[i] - map.starts[i - 1]);
    if (map.spacing == 0)
        map.spacing = kDay;
    const std::size_t n = map.starts.size();
    map.endUtc = map.starts.back() + (n > 1 ? map.starts[n - 1] - map.starts[n - 2] : map.spacing);
    map.savings.assign(map.regions.size() * map.starts.size(), std::numeric_limits<double>::quiet_NaN());
    const auto at = [&map](const std::pair<int, UtcSeconds>& where) {
        return static_cast<std::size_t>(where.first) * map.starts.size() +
               static_cast<std::size_t>(map.columnAt(where.second));
    };
    for (const auto& [where, pooled] : cells)
        map.savings[at(where)] = pooled.mean();
    map.cells.assign(map.savings.size(), -1);
    for (const auto& [where, index] : firstCells)
        map.cells[at(where)] = index;
    figure.note = note.text();
    return figure;
}

StudyFigureData studySavingsCdf(const StudyRowSource& rows) {
    const StudyHeader& header = rows.header();
    const int policy = requireColumn(header, "policy", "the CDF");
    std::map<std::string, std::vector<double>> byPolicy; // 8 bytes a drawn cell: the CDF is every value
    std::size_t leftOut = 0;
    rows.forEachRow([&](const StudyRow& row) {
        if (!drawn(row)) {
            ++leftOut;
            return;
        }
        byPolicy[row.values[static_cast<std::size_t>(policy)]].push_back(row.savingsVsBaseline);
    });
    StudyFigureData figure;
    figure.xLabel = "Savings against " + header.baselinePolicy + " (%)";
    figure.yLabel = "Share of cells at or below (%)";
    figure.leftOut = leftOut;
    bool thinned = false;
    for (auto& [name, values] : byPolicy) {
        std::sort(values.begin(), values.end());
        StudyLine line;
        line.policy = name;
        // Every cell's point up to kMostCdfPoints; beyond, that many points evenly spaced in rank, the
        // first and last included: each still exactly a point of the empirical CDF.
        const std::size_t n = values.size();
        const std::size_t points = std::min(n, kMostCdfPoints);
        thinned = thinned || points < n;
        for (std::size_t k = 0; k < points; ++k) {
            const std::size_t i = points == n ? k : k * (n - 1) / (points - 1);
            line.x.push_back(values[i]);
            line.y.push_back(static_cast<double>(i + 1) / static_cast<double>(n));
        }
        figure.lines.push_back(std::move(line));
    }
    figure.note = pooledNote(header, {"policy"});
    if (thinned)
        appendSeparated(figure.note, "each line drawn at " + std::to_string(kMostCdfPoints) +
                                         " of its cells, evenly spaced in rank");
    return figure;
}

StudyFigureData studySavingsBySlack(const StudyRowSource& rows) {
    const StudyHeader& header = rows.header();
    const int slack = requireColumn(header, "slack", "savings against slack");
    const int policy = requireColumn(header, "policy", "savings against slack");
    Groups groups;
    std::size_t leftOut = 0;
    rows.forEachRow([&](const StudyRow& row) {
        if (!drawn(row)) {
            ++leftOut;
            return;
        }
        groups[row.values[static_cast<std::size_t>(policy)]]
              [numberIn(row.values[static_cast<std::size_t>(slack)])]
                  .add(row.savingsVsBaseline);
    });
    StudyFigureData figure = linesFromGroups(groups, false);
    figure.xLabel = "Slack (% over the carbon-agnostic runtime)";
    figure.yLabel = "Mean savings against " + header.baselinePolicy + " (%)";
    figure.leftOut = leftOut;
    figure.note = pooledNote(header, {"slack", "policy"});
    return figure;
}

const std::vector<std::string>& savingSplitParts() {
    static const std::vector<std::string> parts{"a more efficient configuration", "timing", "beyond both"};
    return parts;
}

namespace {

// The attribution ends a cell's split is drawn at: its own when the study sweeps who pays for parked GPUs
// (a schedule planned for released GPUs, priced as if charged, is not a plan anyone ran), else both ends of
// the same schedule, as the Results table's split does.
struct SplitEnd {
    const char* name;
    double charged; // share of parked GPUs charged to the job
};
constexpr SplitEnd kSplitEnds[] = {{"charged", 1.0}, {"released", 0.0}};

std::vector<SplitEnd> splitEndsOf(const StudyHeader& header, const StudyRow& row) {
    const auto value = [&](const char* key) -> std::optional<std::string> {
        const int column = header.column(key);
        if (column < 0)
            return std::nullopt;
        return row.values[static_cast<std::size_t>(column)];
    };
    std::optional<double> charged;
    if (const auto parked = value("parked_gpus"))
        charged = *parked == kParkedIdle ? 1.0 : 0.0;
    else if (const auto backfill = value(kBackfillKey))
        charged = 1.0 - numberIn(*backfill);
    for (const SplitEnd& end : kSplitEnds)
        if (charged && *charged == end.charged)
            return {end};
    return {std::begin(kSplitEnds), std::end(kSplitEnds)}; // not swept, or a share between the ends
}

} // namespace

StudyFigureData studySavingSplit(const StudyRowSource& rows) {
    const StudyHeader& header = rows.header();
    const int policy = requireColumn(header, "policy", "the saving split");
    // Per policy and end: the sums of each part's fraction and the cells counted.
    struct Sums {
        double part[3] = {0.0, 0.0, 0.0};
        std::size_t cells = 0;
    };
    std::map<std::pair<std::string, std::string>, Sums> sums; // (policy, end)
    std::vector<std::string> policies;
    std::size_t leftOut = 0;
    rows.forEachRow([&](const StudyRow& row) {
        const std::string& name = row.values[static_cast<std::size_t>(policy)];
        if (name == header.baselinePolicy)
            return;
        if (!drawn(row) || !std::isfinite(row.metrics.splitFractionsCharging(1.0).totalG())) {
            ++leftOut; // infeasible, or the study was not split
            return;
        }
        if (std::find(policies.begin(), policies.end(), name) == policies.end())
            policies.push_back(name);
        for (const SplitEnd& end : splitEndsOf(header, row)) {
            const auto key = std::make_pair(name, std::string(end.name));
            const SavingSplit split = row.metrics.splitFractionsCharging(end.charged);
            Sums& s = sums[key];
            s.part[0] += split.configurationG;
            s.part[1] += split.timingG;
            s.part[2] += split.beyondG;
            ++s.cells;
        }
    });
    // Each policy's ends side by side, the policies in the order of their first cells.
    StudyFigureData figure;
    for (const std::string& name : policies)
        for (const SplitEnd& end : kSplitEnds) {
            const auto found = sums.find(std::make_pair(name, std::string(end.name)));
            if (found == sums.end())
                continue;
            StudyLine line;
            line.policy = name;
            line.variant = end.name;
            for (int part = 0; part < 3; ++part) {
                line.x.push_back(part);
                line.y.push_back(found->second.part[part] / static_cast<double>(found->second.cells));
            }
            figure.lines.push_back(std::move(line));
        }
    figure.xLabel = "Policy, with parked GPUs charged to the job or released to other work";
    figure.yLabel = "Mean saving against " + header.baselinePolicy + " (%)"; // the legend says from what
    figure.leftOut = leftOut;
    if (figure.lines.empty()) {
        figure.note = "no split saving to draw: run the study with \"split_savings\": true";
        return figure;
    }
    figure.note = pooledNote(header, {"policy", "parked_gpus", kBackfillKey});
    if (leftOut > 0)
        appendSeparated(figure.note, std::to_string(leftOut) + " cells left out (infeasible or not split)");
    return figure;
}

StudyFigureData studySavingsByForecastError(const StudyRowSource& rows) {
    const StudyHeader& header = rows.header();
    const int error = requireColumn(header, kForecastAxisColumns[1], "savings against forecast error");
    const int seed = requireColumn(header, kForecastAxisColumns[2], "savings against forecast error");
    const int policy = requireColumn(header, "policy", "savings against forecast error");
    // First the mean over everything but the seed, per policy, level and seed; then the band over seeds.
    std::map<std::string, std::map<double, std::map<std::string, Pooled>>> bySeed;
    std::size_t leftOut = 0;
    rows.forEachRow([&](const StudyRow& row) {
        const std::string& level = row.values[static_cast<std::size_t>(error)];
        if (!drawn(row) || level.empty()) { // not a noisy forecast: no error level to place it at
            ++leftOut;
            return;
        }
        bySeed[row.values[static_cast<std::size_t>(policy)]][numberIn(level)]
              [row.values[static_cast<std::size_t>(seed)]]
                  .add(row.savingsVsBaseline);
    });
    Groups groups;
    for (const auto& [name, levels] : bySeed)
        for (const auto& [level, seeds] : levels)
            for (const auto& [seedText, pooled] : seeds)
                groups[name][level].add(pooled.mean());
    StudyFigureData figure = linesFromGroups(groups, true);
    figure.xLabel = "Forecast error (standard deviation, % of the trace mean)";
    figure.yLabel = "Savings against " + header.baselinePolicy + " (%)";
    figure.leftOut = leftOut;
    figure.note = "the line is the mean over seeds, the band runs from the worst seed to the best; " +
                  pooledNote(header, {"policy", "forecast"});
    return figure;
}

} // namespace carbon3d
