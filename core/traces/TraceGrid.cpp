// SPDX-License-Identifier: MIT
// Validation and repair shared by every format: rows -> uniform grid.

#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "traces/RawTrace.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string_view>

namespace carbon3d::traces_detail {

namespace {

// How a user turns repair mode on, for the messages that suggest it.
constexpr std::string_view kRepairHow =
    "\"repair\": true on the region in a scenario file, or carbon3d-cli validate --repair FILE";

// Longer gaps are left as errors: six slots (six hours on hourly data) is about what a short outage of
// a grid operator's feed produces; interpolating over longer spans would invent a day's shape.
constexpr std::int64_t kMaxRepairableMissingSlots = 6;

std::string slots(std::int64_t n) {
    return std::to_string(n) + (n == 1 ? " missing slot" : " missing slots");
}

std::string lineRef(const RawRow& row) {
    return "line " + std::to_string(row.line);
}

std::string spanText(UtcSeconds first, UtcSeconds last) {
    if (first == last)
        return shortUtc(first);
    const std::string a = shortUtc(first);
    const std::string b = shortUtc(last);
    // Same day: "2022-03-27T01:00Z..02:00Z".
    return a.compare(0, 11, b, 0, 11) == 0 ? a + ".." + b.substr(11) : a + ".." + b;
}

std::int64_t inferStep(const std::vector<RawRow>& rows) {
    if (rows.front().declaredStepSeconds > 0)
        return rows.front().declaredStepSeconds;
    // The most common spacing, ties to the shorter one: one gap or one stray row does not decide it.
    std::map<std::int64_t, std::size_t> counts;
    for (std::size_t i = 1; i < rows.size(); ++i)
        ++counts[rows[i].startUtc - rows[i - 1].startUtc];
    std::int64_t best = 0;
    std::size_t bestCount = 0;
    for (const auto& [delta, count] : counts) {
        if (count > bestCount) {
            best = delta;
            bestCount = count;
        }
    }
    return best;
}

// Newest-first files (as some provider APIs return them) are reversed: nothing is lost, so this is a
// note, not a repair.
void reverseIfNewestFirst(std::vector<RawRow>& rows, std::vector<std::string>& notes) {
    if (rows.size() >= 3) {
        bool descending = true;
        for (std::size_t i = 1; i < rows.size() && descending; ++i)
            descending = rows[i].startUtc < rows[i - 1].startUtc;
        if (descending) {
            std::reverse(rows.begin(), rows.end());
            notes.emplace_back("rows were newest first and were read in reverse order");
        }
    }
}

// Without repair, the first row out of order or repeated is an error that says how repair would fix it.
void requireSortedUnique(const std::vector<RawRow>& rows, const std::string& file) {
    for (std::size_t i = 1; i < rows.size(); ++i) {
        if (rows[i].startUtc < rows[i - 1].startUtc)
            throw InputError(file, rows[i].line, rows[i].column,
                             "unsorted rows: " + shortUtc(rows[i].startUtc) + " comes after " +
                                 shortUtc(rows[i - 1].startUtc) + " (" + lineRef(rows[i - 1]) +
                                 "): expected increasing times (repair mode sorts them; " +
                                 std::string(kRepairHow) + ")");
        if (rows[i].startUtc == rows[i - 1].startUtc)
            throw InputError(file, rows[i].line, rows[i].column,
                             "duplicate timestamp " + shortUtc(rows[i].startUtc) + ", already at " +
                                 lineRef(rows[i - 1]) +
                                 ": expected one row per time (repair mode drops exact duplicates; " +
                                 std::string(kRepairHow) + ")");
    }
}

// Repair: a stable sort by time (equal times keep their file order), reported with how many rows moved
// and the first line that did.
void sortRowsByTime(std::vector<RawRow>& rows, std::vector<std::string>& repairs) {
    const bool sorted = std::is_sorted(
        rows.begin(), rows.end(), [](const RawRow& a, const RawRow& b) { return a.startUtc < b.startUtc; });
    if (!sorted) {
        std::vector<RawRow> original = rows;
        std::stable_sort(rows.begin(), rows.end(),
                         [](const RawRow& a, const RawRow& b) { return a.startUtc < b.startUtc; });
        std::size_t moved = 0;
        int firstLine = 0;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].line != original[i].line) {
                ++moved;
                if (firstLine == 0 || original[i].line < firstLine)
                    firstLine = original[i].line;
            }
        }
        repairs.push_back("sorted the rows into time order: " + std::to_string(moved) +
                          " rows were out of place, the first at line " + std::to_string(firstLine));
    }
}

// Repair: drops a sorted row that repeats the previous one exactly; the same time with another value
// stays an error, since repair cannot know which value is right.
void dropExactDuplicates(std::vector<RawRow>& rows, bool hasMarginal, const std::string& file,
                         std::vector<std::string>& repairs) {
    std::vector<RawRow> unique;
    unique.reserve(rows.size());
    for (const RawRow& row : rows) {
        if (!unique.empty() && unique.back().startUtc == row.startUtc) {
            const RawRow& kept = unique.back();
            const bool same = kept.gPerKwh == row.gPerKwh &&
                              (!hasMarginal || kept.marginalGPerKwh == row.marginalGPerKwh) &&
                              kept.declaredStepSeconds == row.declaredStepSeconds;
            if (!same)
                throw InputError(file, row.line, row.column,
                                 "conflicting duplicate timestamp " + shortUtc(row.startUtc) + ": " +
                                     lineRef(kept) + " has " + shortestNumber(kept.gPerKwh) + ", this row " +
                                     shortestNumber(row.gPerKwh) +
                                     "; expected one value per time (only exact duplicates are dropped)");
            repairs.push_back("dropped the duplicate row at line " + std::to_string(row.line) +
                              " (same time " + shortUtc(row.startUtc) + " and value as " + lineRef(kept) +
                              ")");
            continue;
        }
        unique.push_back(row);
    }
    rows.swap(unique);
}

// The grid's resolution: inferred from the sorted rows, and only a step that divides an hour.
std::int64_t checkedStep(const std::vector<RawRow>& rows, const std::string& file) {
    if (rows.size() == 1 && rows.front().declaredStepSeconds == 0)
        throw InputError(file, rows.front().line, rows.front().column,
                         "a single row cannot define the resolution: expected at least two rows");
    const std::int64_t step = inferStep(rows);
    if (step < 300 || step > 3600 || 3600 % step != 0) {
        const RawRow& at = rows.size() > 1 ? rows[1] : rows[0];
        // Daily (or coarser) values cannot show the hour-to-hour swings every carbon-aware policy acts on;
        // averaging them back into hours would invent a flat day.
        const std::string coarse =
            step >= 86400 ? " (a daily file: download the hourly one, which providers publish beside it)"
                          : "";
        throw InputError(
            file, at.line, at.column,
            "resolution of " + std::to_string(step) + " s is not supported" + coarse +
                ": expected a step of 300 to 3600 s that divides 3600 s (e.g. 300, 900, 1800, 3600)");
    }
    return step;
}

// Repair: the `missing` slots between `previous` and `row`, linearly interpolated.
void interpolateGap(const RawRow& previous, const RawRow& row, std::int64_t missing, bool hasMarginal,
                    GridResult& result) {
    for (std::int64_t k = 1; k <= missing; ++k) {
        const double f = static_cast<double>(k) / static_cast<double>(missing + 1);
        result.gPerKwh.push_back(previous.gPerKwh + (row.gPerKwh - previous.gPerKwh) * f);
        if (hasMarginal)
            result.marginalGPerKwh.push_back(previous.marginalGPerKwh +
                                             (row.marginalGPerKwh - previous.marginalGPerKwh) * f);
    }
}

// The spacing from rows[i - 1] to rows[i]: a whole number of missing slots is a gap, filled when repair
// is on and the gap short; any other spacing is a change of resolution.
void appendGapBefore(const std::vector<RawRow>& rows, std::size_t i, std::int64_t step,
                     const std::string& file, bool repair, bool hasMarginal, GridResult& result) {
    const RawRow& row = rows[i];
    const RawRow& previous = rows[i - 1];
    const std::int64_t delta = row.startUtc - previous.startUtc;
    // A run of two equal longer spacings is a change of resolution, not a gap.
    const bool longerRun = i + 1 < rows.size() && rows[i + 1].startUtc - row.startUtc == delta;
    if (delta != step && (delta % step != 0 || longerRun))
        throw InputError(file, row.line, row.column,
                         "mixed resolutions: " + std::to_string(delta) + " s since " + lineRef(previous) +
                             ", expected " + std::to_string(step) + " s like the rest of the file");
    if (delta != step) {
        const std::int64_t missing = delta / step - 1;
        const UtcSeconds firstMissing = previous.startUtc + step;
        const UtcSeconds lastMissing = row.startUtc - step;
        if (!repair || missing > kMaxRepairableMissingSlots)
            throw InputError(file, row.line, row.column,
                             "gap of " + slots(missing) + " " + spanText(firstMissing, lastMissing) +
                                 " before this row: expected a row every " + std::to_string(step) + " s" +
                                 (repair ? std::string(" (repair fills at most 6 slots)")
                                         : " (repair mode fills up to 6; " + std::string(kRepairHow) + ")"));
        interpolateGap(previous, row, missing, hasMarginal, result);
        result.repairs.push_back("filled " + slots(missing) + " " + spanText(firstMissing, lastMissing) +
                                 " by linear interpolation");
    }
}

} // namespace

std::string shortUtc(UtcSeconds t) {
    std::string text = formatIsoUtc(t); // 2022-03-27T01:00:00Z
    if (text.size() == 20 && text.compare(16, 3, ":00") == 0)
        text.erase(16, 3);
    return text;
}

void checkIntensity(double gPerKwh, const std::string& file, int line, int column, std::string_view what) {
    if (!std::isfinite(gPerKwh))
        throw InputError(file, line, column,
                         "expected a finite number for " + std::string(what) + ", found " +
                             shortestNumber(gPerKwh));
    if (gPerKwh < 0.0)
        throw InputError(file, line, column,
                         "negative " + std::string(what) + " " + shortestNumber(gPerKwh) +
                             " g/kWh: expected a value >= 0");
    if (gPerKwh > kAbsurdGPerKwh)
        throw InputError(file, line, column,
                         "absurd " + std::string(what) + " " + shortestNumber(gPerKwh) +
                             " g/kWh: expected at most 3000 g/kWh (the dirtiest grids average about 1,000)");
}

GridResult buildUniformGrid(RawTrace& raw, const std::string& file, bool repair) {
    GridResult result;
    std::vector<RawRow>& rows = raw.rows;
    if (rows.empty())
        throw InputError(file, raw.headerLine, raw.headerColumn,
                         "no data rows (header only): expected at least two rows of " +
                             std::string(raw.format == kPriceTraceFormat ? "prices" : "carbon intensity"));

    reverseIfNewestFirst(rows, result.notes);

    // Order and duplicates.
    if (!repair) {
        requireSortedUnique(rows, file);
    } else {
        sortRowsByTime(rows, result.repairs);
        dropExactDuplicates(rows, raw.hasMarginal, file, result.repairs);
    }

    const std::int64_t step = checkedStep(rows, file);

    result.startUtc = rows.front().startUtc;
    result.stepSeconds = step;
    result.gPerKwh.reserve(rows.size());
    if (raw.hasMarginal)
        result.marginalGPerKwh.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RawRow& row = rows[i];
        if (row.declaredStepSeconds > 0 && row.declaredStepSeconds != step)
            throw InputError(file, row.line, row.column,
                             "mixed resolutions: this row covers " + std::to_string(row.declaredStepSeconds) +
                                 " s, expected " + std::to_string(step) + " s like the first row");
        if (i > 0)
            appendGapBefore(rows, i, step, file, repair, raw.hasMarginal, result);
        result.gPerKwh.push_back(row.gPerKwh);
        if (raw.hasMarginal)
            result.marginalGPerKwh.push_back(row.marginalGPerKwh);
    }
    return result;
}

} // namespace carbon3d::traces_detail
