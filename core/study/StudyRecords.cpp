// SPDX-License-Identifier: MIT
#include "study/StudyRecords.h"

#include "config/ScenarioHash.h"

namespace carbon3d {

StoredStudy storedStudyOf(const StudyDefinition& study) {
    StoredStudy stored;
    stored.name = study.name;
    stored.hash = study.hash;
    stored.sourceFile = study.sourceFile;
    stored.definitionJson = study.definitionJson;
    stored.columns = axisColumns(study);
    stored.cellCount = static_cast<std::int64_t>(cellCount(study));
    stored.programVersion = CARBON3D_VERSION;
    return stored;
}

StoredCell storedCellOf(const StudyDefinition& study, const CellResult& result) {
    StoredCell cell;
    cell.index = static_cast<std::int64_t>(result.cell.index);
    cell.hash = result.cell.hash;
    cell.values = cellValues(study, result.cell);
    cell.feasible = result.feasible;
    cell.reason = result.reason;
    if (result.feasible)
        cell.metricsJson = exactMetricsJson(result.run.metrics);
    if (result.feasible && !result.run.series.empty()) { // a study that keeps series
        const Scenario scenario = cellSetup(study, result.cell).scenario;
        cell.runToSave = std::make_shared<const StoredCell::RunToSave>(
            StoredCell::RunToSave{{scenario.name, canonicalJson(scenario), scenarioHash(scenario)},
                                  result.run,
                                  storedTracesOf(scenario)});
    }
    return cell;
}

StudyRow studyRowOf(const StudyDefinition& study, const CellResult& result) {
    StudyRow row;
    row.index = static_cast<std::int64_t>(result.cell.index);
    row.values = cellValues(study, result.cell);
    row.feasible = result.feasible;
    row.reason = result.reason;
    if (result.feasible)
        row.metrics = result.run.metrics;
    return row;
}

} // namespace carbon3d
