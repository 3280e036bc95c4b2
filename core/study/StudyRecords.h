// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredStudy.h"
#include "study/StudyRunner.h"
#include "study/StudyTable.h"

namespace carbon3d {

// What the results store and the study tables keep of a study and of a finished cell: one conversion each,
// for the CLI, the studio and the reports alike.
StoredStudy storedStudyOf(const StudyDefinition& study);
StoredCell storedCellOf(const StudyDefinition& study, const CellResult& result); // metrics as exact JSON
StudyRow studyRowOf(const StudyDefinition& study, const CellResult& result);     // metrics as values

} // namespace carbon3d
