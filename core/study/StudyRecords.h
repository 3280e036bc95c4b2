// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredStudy.h"
#include "study/StudyRunner.h"
#include "study/StudyTable.h"

namespace carbon3d {

// What the results store and the study tables keep of a study and of a finished cell: one conversion each,
// for the CLI, the studio and the reports alike.
StoredStudy storedStudyOf(const StudyDefinition& study);
// Metrics as exact JSON; with the run to save beside the cell when the result kept its series.
StoredCell storedCellOf(const StudyDefinition& study, const CellResult& result);
StudyRow studyRowOf(const StudyDefinition& study, const CellResult& result); // metrics as values

} // namespace carbon3d
