// SPDX-License-Identifier: MIT
#pragma once

#include "storage/StoredStudy.h"
#include "study/StudyFigures.h"
#include "study/StudyTable.h"

#include <cstddef>
#include <functional>
#include <string>

namespace carbon3d {

class ResultsStore;

// Reading a stored study without holding its cells (issue 44 item 4): an export streams them, and a figure
// keeps only what it draws of them.

// Writes the study's table as CSV (writeStudyCsv's format, byte for byte) in two passes over its stored
// cells, keeping none: the baseline's totals (BaselineTotals), then a line per cell. Memory does not grow
// with the study (issue 44 item 4: holding the table took 1.67 GB at 981,120 cells). Returns the rows
// written; InputError naming the file when it cannot be written (the old file then stays).
std::size_t exportStudyCsv(const ResultsStore& store, const StoredStudy& study,
                           const std::string& baselinePolicy, const std::string& path);

// A stored study's rows as a figure reads them (StudyFigures.h): the baseline's totals are read once, when
// made; then each pass streams the cells again, keeping none. Wrap it in KeptRows to read some of them
// (savings stay against every cell's baseline, kept or not).
class StoredStudyRows final : public StudyRowSource {
public:
    StoredStudyRows(const ResultsStore& store, const StoredStudy& study, const std::string& baselinePolicy);
    const StudyHeader& header() const override { return m_header; }
    const StoredStudy& study() const { return m_study; } // as it was when read
    void forEachRow(const std::function<void(const StudyRow&)>& visit) const override;

private:
    const ResultsStore& m_store;
    StoredStudy m_study;
    StudyHeader m_header;
    BaselineTotals m_totals;
};

} // namespace carbon3d
