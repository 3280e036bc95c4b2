// SPDX-License-Identifier: MIT
#pragma once

#include "study/StudyFigures.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// What the Study page shows of a study (docs/STUDIES.md "In the studio"): the heatmap's policy and, for
// every axis it does not draw, the value it holds, each with its values to choose from; the heatmap and
// the CDF. Computed from a StudyRowSource, so that a study in memory (running on the page) and a study in the
// store (reopened, read off the GUI thread without holding its cells) show the same way (issue 44 item 4).

// The choices asked for. A policy or facet not given (or no longer among the values) takes its default: the
// focused policy when the study has it, else its first that is not the baseline; a facet's first value in
// study order, so that a heatmap cell is one run, as a click opens it.
struct StudyViewChoice {
    std::string policy;
    std::map<std::string, std::string> facets; // axis group name -> a value's text, or kPooledFacet
};
inline constexpr const char* kPooledFacet = ""; // the facet pools (means over) all its values

struct StudyFacet {
    StudyAxisGroup axis;
    std::vector<std::string> values; // in study order
    std::string held;                // the value held, kPooledFacet when pooled
};

struct StudyView {
    StudyHeader header;
    std::size_t rows = 0;              // rows read
    std::vector<std::string> policies; // in study order
    std::string policy;                // the heatmap's
    std::vector<StudyFacet> facets;    // the axes the heatmap does not draw (start, region and policy)
    // A figure that cannot be drawn (a study without a region axis, no cell of the policy with savings)
    // is a note saying why and nothing else, shown in the figure's place.
    StudyFigureData heatmap;
    StudyFigureData cdf;
};

// Three passes over `rows`: the values, the CDF, the heatmap of the rows the facets hold.
StudyView studyView(const StudyRowSource& rows, const StudyViewChoice& choice);
// The same in two steps, so that a reader can keep the first while the choices change (the store's thread
// keeps it per study: a new choice then costs one pass). The first: the values and the CDF, which no choice
// changes; the second: the choices resolved against those values, and the heatmap they hold.
StudyView studyOverview(const StudyRowSource& rows);
void chooseAndDrawHeatmap(StudyView& view, const StudyRowSource& rows, const StudyViewChoice& choice);

// The axes the heatmap draws; every other is a facet.
bool drawnByTheHeatmap(const std::string& axis);

} // namespace carbon3d
