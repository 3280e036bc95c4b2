// SPDX-License-Identifier: MIT
#include "study/StudyView.h"

#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"

#include <algorithm>

namespace carbon3d {

namespace {

std::string defaultPolicy(const std::vector<std::string>& policies, const std::string& baseline) {
    if (std::find(policies.begin(), policies.end(), focusedPolicy().name) != policies.end())
        return focusedPolicy().name;
    for (const std::string& policy : policies)
        if (policy != baseline)
            return policy;
    return policies.empty() ? std::string() : policies.front();
}

bool among(const std::vector<std::string>& values, const std::string& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

// A figure, or a note saying why it cannot be drawn.
template <typename Make> StudyFigureData drawOrSayWhy(const Make& make) {
    try {
        return make();
    } catch (const InputError& error) {
        StudyFigureData why;
        why.note = error.problem();
        return why;
    }
}

} // namespace

bool drawnByTheHeatmap(const std::string& axis) {
    return axis == "start" || axis == "region" || axis == "policy";
}

StudyView studyOverview(const StudyRowSource& rows) {
    StudyView view;
    view.header = rows.header();
    std::vector<AxisValuesInOrder> values;
    const std::vector<StudyAxisGroup> groups = studyAxisGroups(view.header);
    values.reserve(groups.size());
    for (const StudyAxisGroup& group : groups)
        values.emplace_back(view.header, group);
    rows.forEachRow([&](const StudyRow& row) {
        ++view.rows;
        for (AxisValuesInOrder& axis : values)
            axis.add(row);
    });
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].name == "policy")
            view.policies = values[g].values();
        if (!drawnByTheHeatmap(groups[g].name))
            view.facets.push_back({groups[g], values[g].values(), kPooledFacet});
    }
    if (view.rows > 0)
        view.cdf = drawOrSayWhy([&] { return studySavingsCdf(rows); });
    return view;
}

void chooseAndDrawHeatmap(StudyView& view, const StudyRowSource& rows, const StudyViewChoice& choice) {
    for (StudyFacet& facet : view.facets) {
        const auto asked = choice.facets.find(facet.axis.name);
        if (asked != choice.facets.end() &&
            (asked->second == kPooledFacet || among(facet.values, asked->second)))
            facet.held = asked->second;
        else
            facet.held = facet.values.empty() ? std::string(kPooledFacet) : facet.values.front();
    }
    view.policy = among(view.policies, choice.policy)
                      ? choice.policy
                      : defaultPolicy(view.policies, view.header.baselinePolicy);
    view.heatmap = StudyFigureData{};
    if (view.rows == 0)
        return;
    const KeptRows held(rows, [&view](const StudyRow& row) {
        return std::all_of(view.facets.begin(), view.facets.end(), [&](const StudyFacet& facet) {
            return facet.held == kPooledFacet || axisGroupText(view.header, facet.axis, row) == facet.held;
        });
    });
    view.heatmap = drawOrSayWhy([&] { return studySavingsHeatmap(held, view.policy); });
}

StudyView studyView(const StudyRowSource& rows, const StudyViewChoice& choice) {
    StudyView view = studyOverview(rows);
    chooseAndDrawHeatmap(view, rows, choice);
    return view;
}

} // namespace carbon3d
