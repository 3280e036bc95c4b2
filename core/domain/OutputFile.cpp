// SPDX-License-Identifier: MIT
#include "domain/OutputFile.h"

#include "domain/FileIdentity.h"
#include "domain/InputError.h"

#include <QSaveFile>

namespace carbon3d {

void writeFileAtomically(const std::string& path, const std::string& text, const std::string& problem) {
    AtomicTextOutput output(path, problem);
    output.write(text);
    output.commit();
}

AtomicTextOutput::AtomicTextOutput(std::string path, std::string problem)
    : m_path(std::move(path))
    , m_problem(std::move(problem)) {
    // The last guard for every output (CSV exports, series, reports): commands check their outputs against
    // their inputs before any work, and none may replace a results database this process holds open.
    if (const std::string database = openDatabaseAt(m_path); !database.empty())
        throw InputError(m_path, 0, 0,
                         m_problem + ": it is the results database " + database +
                             " this program has open (or one of its -wal, -shm, -journal files); choose "
                             "another output");
    m_file = std::make_unique<QSaveFile>(QString::fromStdString(m_path));
    if (!m_file->open(QIODevice::WriteOnly))
        fail();
}

AtomicTextOutput::~AtomicTextOutput() = default; // QSaveFile discards what was not committed

void AtomicTextOutput::write(std::string_view text) {
    if (m_file->write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()))
        fail();
}

void AtomicTextOutput::commit() {
    if (!m_file->commit())
        fail();
}

void AtomicTextOutput::fail() const {
    throw InputError(m_path, 0, 0, m_problem + ": " + m_file->errorString().toStdString());
}

} // namespace carbon3d
