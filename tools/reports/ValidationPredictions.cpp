// SPDX-License-Identifier: MIT
#include "reports/ValidationPredictions.h"

namespace carbon3d::reports {

namespace {

GroupSeries& groupNamed(std::vector<GroupSeries>& groups, const std::string& name) {
    for (GroupSeries& g : groups)
        if (g.name == name)
            return g;
    groups.push_back({name, {}});
    return groups.back();
}

} // namespace

void Series::add(double predictedS, double measuredS) {
    predicted.push_back(predictedS);
    measured.push_back(measuredS);
}

ErrorStats Series::errors() const {
    return errorStats(predicted, measured);
}

double Series::spearman() const {
    return carbon3d::spearman(predicted, measured);
}

const Series& ValidationPredictions::set(ValidationSource source) const {
    switch (source) {
    case ValidationSource::Sc21:
        return sc21;
    case ValidationSource::VtrainMulti:
        return multi;
    case ValidationSource::VtrainSingle:
        return single;
    }
    return sc21;
}

const GroupSeries* ValidationPredictions::findMultiGroup(const std::string& name) const {
    for (const GroupSeries& g : multiGroups)
        if (g.name == name)
            return &g;
    return nullptr;
}

ValidationPredictions predictValidationSet(const std::vector<ValidationRow>& rows,
                                           const PerfCalibration& calibration) {
    ValidationPredictions out;
    out.rows.reserve(rows.size());
    for (const ValidationRow& row : rows) {
        PredictedRow p{row, {}, 0.0};
        p.predictedS = predictStepS(row, calibration, &p.chosen);
        switch (row.source) {
        case ValidationSource::Sc21:
            out.sc21.add(p.predictedS, row.measuredStepS);
            break;
        case ValidationSource::VtrainMulti:
            out.multi.add(p.predictedS, row.measuredStepS);
            groupNamed(out.multiGroups, row.group).series.add(p.predictedS, row.measuredStepS);
            out.multiSamples.push_back({row.group, p.chosen, p.predictedS, row.measuredStepS});
            break;
        case ValidationSource::VtrainSingle:
            out.single.add(p.predictedS, row.measuredStepS);
            groupNamed(out.singleGroups, row.group).series.add(p.predictedS, row.measuredStepS);
            break;
        }
        out.rows.push_back(std::move(p));
    }
    return out;
}

} // namespace carbon3d::reports
