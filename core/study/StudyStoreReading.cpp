// SPDX-License-Identifier: MIT
#include "study/StudyStoreReading.h"

#include "domain/OutputFile.h"
#include "storage/ResultsStore.h"
#include "study/StudyTable.h"

namespace carbon3d {

std::size_t exportStudyCsv(const ResultsStore& store, const StoredStudy& study,
                           const std::string& baselinePolicy, const std::string& path) {
    const StoredStudyRows rows(store, study, baselinePolicy);
    AtomicTextOutput output(path, "cannot write the study table");
    output.write(studyCsvHeader(study.columns));
    std::size_t written = 0;
    rows.forEachRow([&](const StudyRow& row) {
        output.write(studyCsvLine(row));
        ++written;
    });
    output.commit();
    return written;
}

StoredStudyRows::StoredStudyRows(const ResultsStore& store, const StoredStudy& study,
                                 const std::string& baselinePolicy)
    : m_store(store)
    , m_study(study)
    , m_header{study.columns, baselinePolicy}
    , m_totals(study.columns, baselinePolicy) {
    m_store.forEachCell(m_study.id,
                        [this](StoredCell&& cell) { m_totals.add(studyRowOf(m_study, std::move(cell))); });
}

void StoredStudyRows::forEachRow(const std::function<void(const StudyRow&)>& visit) const {
    m_store.forEachCell(m_study.id, [&](StoredCell&& cell) {
        StudyRow row = studyRowOf(m_study, std::move(cell));
        row.savingsVsBaseline = m_totals.savingsOf(row);
        visit(row);
    });
}

} // namespace carbon3d
