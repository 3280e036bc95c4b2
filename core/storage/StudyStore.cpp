// SPDX-License-Identifier: MIT
// The results store's study operations (ResultsStore.h "Studies"), one transaction each, beside the run
// operations of ResultsStore.cpp. Tables: schema migration 4 (Schema.cpp), docs/DATABASE.md.
#include "domain/InputError.h"
#include "domain/Json.h"
#include "storage/BusyRetry.h"
#include "storage/ResultsStore.h"
#include "storage/SqliteStatement.h"
#include "storage/SqliteTransaction.h"

#include <chrono>
#include <sqlite3.h>

namespace carbon3d {

using namespace storage_detail;

namespace {

std::string textArrayJson(const std::vector<std::string>& texts) {
    return jsonStrings(texts).dump(-1);
}

std::vector<std::string> textArray(const std::string& json, const std::string& path) {
    std::vector<std::string> texts;
    const JsonValue array = parseJson(json, path); // kept: a range over a temporary's items would dangle
    for (const JsonValue& item : array.items())
        texts.push_back(item.toString());
    return texts;
}

constexpr const char* kStudyColumns =
    "SELECT s.id, s.name, s.study_hash, s.source_file, s.definition_json, s.columns_json, s.cell_count, "
    "s.program_version, s.created_at, "
    "(SELECT COUNT(*) FROM study_cells c WHERE c.study_id = s.id), "
    "(SELECT COUNT(*) FROM study_cells c WHERE c.study_id = s.id AND c.feasible = 0) FROM studies s ";

StoredStudy readStudy(const SqliteStatement& s, const std::string& path) {
    StoredStudy study;
    study.id = s.integer(0);
    study.name = s.text(1);
    study.hash = s.text(2);
    study.sourceFile = s.text(3);
    study.definitionJson = s.text(4);
    study.columns = textArray(s.text(5), path);
    study.cellCount = s.integer(6);
    study.programVersion = s.text(7);
    study.createdAt = s.integer(8);
    study.savedCells = s.integer(9);
    study.infeasibleCells = s.integer(10);
    return study;
}

StoredCell readCell(const SqliteStatement& s, const std::string& path) {
    StoredCell cell;
    cell.index = s.integer(0);
    cell.hash = s.text(1);
    cell.values = textArray(s.text(2), path);
    cell.feasible = s.integer(3) != 0;
    cell.reason = s.text(4);
    cell.metricsJson = s.isNull(5) ? std::string() : s.text(5);
    if (!s.isNull(6))
        cell.runId = s.integer(6);
    return cell;
}

} // namespace

StudyId ResultsStore::registerStudy(const StoredStudy& study) {
    checkWritable("saving a study");
    return retryingWhenBusy(m_path, "saving a study", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement find(m_db.get(), "SELECT id FROM studies WHERE study_hash = :hash", m_path);
        find.bindText(":hash", study.hash);
        if (find.step()) {
            const StudyId id = find.integer(0);
            transaction.commit();
            return id;
        }
        SqliteStatement insert(
            m_db.get(),
            "INSERT INTO studies (name, study_hash, source_file, definition_json, columns_json, "
            "cell_count, program_version, created_at) VALUES (:name, :hash, :source, "
            ":definition, :columns, :cells, :version, :created)",
            m_path);
        insert.bindText(":name", study.name);
        insert.bindText(":hash", study.hash);
        insert.bindText(":source", study.sourceFile);
        insert.bindText(":definition", study.definitionJson);
        insert.bindText(":columns", textArrayJson(study.columns));
        insert.bindInt(":cells", study.cellCount);
        insert.bindText(":version", study.programVersion);
        insert.bindInt(":created", std::chrono::duration_cast<std::chrono::seconds>(
                                       std::chrono::system_clock::now().time_since_epoch())
                                       .count());
        insert.exec();
        const StudyId id = sqlite3_last_insert_rowid(m_db.get());
        transaction.commit();
        return id;
    });
}

std::vector<StoredStudy> ResultsStore::listStudies() const {
    checkThread();
    return retryingWhenBusy(m_path, "listing studies", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        SqliteStatement s(m_db.get(), std::string(kStudyColumns) + "ORDER BY s.id", m_path);
        std::vector<StoredStudy> studies;
        while (s.step())
            studies.push_back(readStudy(s, m_path));
        return studies;
    });
}

StoredStudy ResultsStore::loadStudy(StudyId id) const {
    checkThread();
    return retryingWhenBusy(m_path, "loading a study", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        SqliteStatement s(m_db.get(), std::string(kStudyColumns) + "WHERE s.id = :id", m_path);
        s.bindInt(":id", id);
        if (!s.step())
            throw InputError(m_path, 0, 0, "no study with id " + std::to_string(id));
        return readStudy(s, m_path);
    });
}

std::vector<std::int64_t> ResultsStore::savedCellIndexes(StudyId id) const {
    checkThread();
    return retryingWhenBusy(m_path, "reading a study's cells", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
        SqliteStatement s(m_db.get(), "SELECT idx FROM study_cells WHERE study_id = :id ORDER BY idx",
                          m_path);
        s.bindInt(":id", id);
        std::vector<std::int64_t> indexes;
        while (s.step())
            indexes.push_back(s.integer(0));
        return indexes;
    });
}

std::vector<StoredCell> ResultsStore::loadCells(StudyId id) const {
    std::vector<StoredCell> cells;
    forEachCell(id, [&cells](StoredCell&& cell) { cells.push_back(std::move(cell)); });
    return cells;
}

void ResultsStore::forEachCell(StudyId id, const std::function<void(StoredCell&&)>& visit) const {
    checkThread();
    // Read a page at a time, each page its own read transaction, and visited once it is read: `visit` may
    // use this store. Saved cells never change, so pages read at different moments still fit together.
    constexpr std::int64_t kPage = 256;
    std::int64_t after = -1;
    for (;;) {
        std::vector<StoredCell> page = retryingWhenBusy(m_path, "reading a study's cells", [&] {
            SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Read, m_path);
            SqliteStatement s(
                m_db.get(),
                "SELECT idx, cell_hash, values_json, feasible, reason, metrics_json, run_id "
                "FROM study_cells WHERE study_id = :id AND idx > :after ORDER BY idx LIMIT :page",
                m_path);
            s.bindInt(":id", id);
            s.bindInt(":after", after);
            s.bindInt(":page", kPage);
            std::vector<StoredCell> cells;
            while (s.step())
                cells.push_back(readCell(s, m_path));
            return cells;
        });
        if (page.empty())
            return;
        after = page.back().index;
        for (StoredCell& cell : page)
            visit(std::move(cell));
    }
}

std::vector<std::int64_t> ResultsStore::saveCells(StudyId id, const std::vector<StoredCell>& cells) {
    checkWritable("saving study cells");
    return retryingWhenBusy(m_path, "saving study cells", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement insert(
            m_db.get(),
            "INSERT OR IGNORE INTO study_cells (study_id, idx, cell_hash, values_json, "
            "feasible, reason, metrics_json, run_id) VALUES (:study, :idx, :hash, :values, "
            ":feasible, :reason, :metrics, :run)",
            m_path);
        SqliteStatement existing(m_db.get(),
                                 "SELECT cell_hash, metrics_json, feasible FROM study_cells "
                                 "WHERE study_id = :study AND idx = :idx",
                                 m_path);
        std::vector<std::int64_t> conflicts;
        const auto alreadySaved = [&](const StoredCell& cell) {
            existing.bindInt(":study", id);
            existing.bindInt(":idx", cell.index);
            if (!existing.step()) {
                existing.reset();
                return false;
            }
            // The same cell is fine (a merge of overlapping shards), another result is not.
            const bool same = existing.text(0) == cell.hash &&
                              (existing.isNull(1) ? std::string() : existing.text(1)) == cell.metricsJson &&
                              (existing.integer(2) != 0) == cell.feasible;
            if (!same)
                conflicts.push_back(cell.index);
            existing.reset();
            return true;
        };
        for (const StoredCell& cell : cells) {
            std::optional<RunId> runId = cell.runId;
            if (cell.runToSave) {
                if (alreadySaved(cell))
                    continue; // its run too, saved with it before
                runId = insertRun(cell.runToSave->scenario, cell.runToSave->run, cell.runToSave->traces, {});
            }
            insert.bindInt(":study", id);
            insert.bindInt(":idx", cell.index);
            insert.bindText(":hash", cell.hash);
            insert.bindText(":values", textArrayJson(cell.values));
            insert.bindInt(":feasible", cell.feasible ? 1 : 0);
            insert.bindText(":reason", cell.reason);
            if (cell.metricsJson.empty())
                insert.bindNull(":metrics");
            else
                insert.bindText(":metrics", cell.metricsJson);
            if (runId)
                insert.bindInt(":run", *runId);
            else
                insert.bindNull(":run");
            insert.exec();
            if (sqlite3_changes(m_db.get()) == 0)
                alreadySaved(cell);
        }
        transaction.commit();
        return conflicts;
    });
}

void ResultsStore::deleteStudy(StudyId id) {
    checkWritable("deleting a study");
    retryingWhenBusy(m_path, "deleting a study", [&] {
        SqliteTransaction transaction(m_db.get(), SqliteTransaction::Kind::Write, m_path);
        SqliteStatement runs(
            m_db.get(),
            "DELETE FROM runs WHERE id IN (SELECT run_id FROM study_cells WHERE study_id = :id "
            "AND run_id IS NOT NULL)",
            m_path);
        runs.bindInt(":id", id);
        runs.exec();
        SqliteStatement remove(m_db.get(), "DELETE FROM studies WHERE id = :id", m_path);
        remove.bindInt(":id", id);
        remove.exec();
        if (sqlite3_changes(m_db.get()) == 0)
            throw InputError(m_path, 0, 0, "no study with id " + std::to_string(id));
        deleteUnusedScenariosAndTraces(); // of the runs that held cells' series
        transaction.commit();
        return 0;
    });
}

} // namespace carbon3d
