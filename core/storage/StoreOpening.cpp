// SPDX-License-Identifier: MIT
#include "storage/StoreOpening.h"

#include "domain/InputError.h"
#include "domain/TextList.h"
#include "storage/BusyRetry.h"
#include "storage/Schema.h"
#include "storage/SqliteStatement.h"
#include "storage/SqliteTransaction.h"

#include <QFile>
#include <QFileInfo>
#include <QString>
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <sqlite3.h>
#include <sstream>
#include <vector>

namespace carbon3d::storage_detail {

namespace {

using OpenCheck = ResultsStore::OpenCheck;

std::string refusal(const std::string& finding) {
    return finding + ". Carbon3D has not modified the file: choose another file, or start a new database";
}

// A file of another program, or from a newer Carbon3D, is refused before anything else is read.
void checkHeader(sqlite3* db, const std::string& path) {
    const auto pragmaInt = [&](const char* sql) {
        SqliteStatement s(db, sql, path);
        return s.step() ? s.integer(0) : 0;
    };
    // Reading the header is what fails for a file that is not SQLite ("file is not a database").
    const std::int64_t applicationId = pragmaInt("PRAGMA application_id");
    const std::int64_t version = pragmaInt("PRAGMA user_version");
    const std::int64_t objects = pragmaInt("SELECT count(*) FROM sqlite_master");
    if (applicationId != ResultsStore::kApplicationId && !(applicationId == 0 && objects == 0)) {
        std::ostringstream finding;
        finding << "is a SQLite database of another program (application_id 0x" << std::hex << applicationId
                << std::dec << ", " << objects << " schema objects; Carbon3D's files have application_id 0x"
                << std::hex << ResultsStore::kApplicationId << ")";
        throw InputError(path, 0, 0, refusal(finding.str()));
    }
    // A negative version is no version Carbon3D ever wrote; unchecked, it asked for migration -1 (found by
    // fuzzing: regressions/fuzz_store_open/negative-schema-version.sqlite).
    if (version < 0)
        throw InputError(path, 0, 0,
                         refusal("has schema version " + std::to_string(version) +
                                 ", which no Carbon3D writes: it is damaged or was edited"));
    if (version > ResultsStore::kSchemaVersion)
        throw InputError(path, 0, 0,
                         refusal("was written by a newer Carbon3D (schema version " +
                                 std::to_string(version) + "; this program knows versions up to " +
                                 std::to_string(ResultsStore::kSchemaVersion) +
                                 "): open it with that version"));
}

// PRAGMA quick_check(5): linear in the file size, hence optional (OpenCheck::HeaderOnly skips it).
void checkQuick(sqlite3* db, const std::string& path) {
    SqliteStatement s(db, "PRAGMA quick_check(5)", path);
    std::vector<std::string> findings;
    while (s.step())
        findings.push_back(s.text(0));
    if (findings.size() == 1 && findings.front() == "ok")
        return;
    throw InputError(path, 0, 0,
                     refusal("is damaged (SQLite quick_check: " + joinedText(findings, "; ") + ")"));
}

// The checks of a file that exists, on a connection that only reads.
void checkOpenFile(sqlite3* raw, const std::string& path, OpenCheck check) {
    try {
        checkHeader(raw, path);
        // The file's own schema version: a file Carbon3D wrote at that version has every column of it.
        if (const int version = userVersion(raw, path); version > 0)
            checkSchema(raw, path, version);
        if (check == OpenCheck::Quick)
            checkQuick(raw, path);
    } catch (const BusyError& error) {
        throw InputError(path, 0, 0,
                         std::string("the database stayed busy while checking it: ") + error.what());
    } catch (const InputError& error) {
        if (error.problem().find("Carbon3D has not modified") != std::string::npos)
            throw;
        // SQLite's own error while reading: say what kind of file this is, from the extended code.
        const int code = sqlite3_extended_errcode(raw) & 0xff;
        const std::string finding = code == SQLITE_NOTADB
                                        ? "is not a SQLite database (" + error.problem() + ")"
                                    : code == SQLITE_CORRUPT ? "is damaged (" + error.problem() + ")"
                                                             : "cannot be read (" + error.problem() + ")";
        throw InputError(path, 0, 0, refusal(finding));
    }
}

OwnedConnection openWithFlags(const std::string& name, const std::string& path, int flags) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &raw, flags, nullptr);
    OwnedConnection db(raw); // closed even when opening failed (SQLite allocates a handle anyway)
    if (rc != SQLITE_OK)
        throw InputError(path, 0, 0, refusal("cannot open the file: " + std::string(sqlite3_errstr(rc))));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, ResultsStore::kBusyTimeoutMs);
    return db;
}

// SQLite's URI form of a path (https://sqlite.org/uri.html): '%', '?', '#' and bytes outside printable
// ASCII are percent-encoded; the path is made absolute so that it never reads as an authority ("//host").
std::string sqliteUri(const std::string& path, const char* query) {
    const std::string absolute = std::filesystem::absolute(path).lexically_normal().string();
    std::string uri = "file:";
    for (const char c : absolute) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == '%' || byte == '?' || byte == '#' || byte < 0x21 || byte > 0x7e) {
            static constexpr char kHex[] = "0123456789ABCDEF";
            uri += '%';
            uri += kHex[byte >> 4];
            uri += kHex[byte & 0xf];
        } else {
            uri += c;
        }
    }
    return uri + query;
}

void applyMigration(sqlite3* db, const std::string& path, int version) {
    char* message = nullptr;
    const int rc = sqlite3_exec(db, migrationSql(version), nullptr, nullptr, &message);
    const std::string text = message != nullptr ? message : "";
    sqlite3_free(message);
    checkSqlite(db, rc, path, "schema migration to version " + std::to_string(version) + " (" + text + ")");
    // PRAGMA takes no bound parameters; both values are integers we control.
    std::string pragmas = "PRAGMA user_version = " + std::to_string(version) + ";";
    if (version == 1)
        pragmas += "PRAGMA application_id = " + std::to_string(ResultsStore::kApplicationId) + ";";
    checkSqlite(db, sqlite3_exec(db, pragmas.c_str(), nullptr, nullptr, nullptr), path,
                "setting the schema version");
}

// Every table's and view's column names, by name: what the queries of RowMapping rely on.
std::map<std::string, std::vector<std::string>> schemaColumns(sqlite3* db, const std::string& path) {
    std::map<std::string, std::vector<std::string>> columns;
    std::vector<std::string> names;
    {
        SqliteStatement objects(db, "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')", path);
        while (objects.step())
            names.push_back(objects.text(0));
    }
    for (const std::string& name : names) {
        SqliteStatement info(db, "SELECT name FROM pragma_table_info(:table)", path);
        info.bindText(":table", name);
        std::vector<std::string>& list = columns[name];
        while (info.step())
            list.push_back(info.text(0));
    }
    return columns;
}

// The schema that migrations 1..version create, built once per version in an in-memory database: the
// reference a file's schema is held to, with no second list of tables and columns to keep in step.
const std::map<std::string, std::vector<std::string>>& expectedColumns(int version) {
    static std::map<int, std::map<std::string, std::vector<std::string>>> cache;
    static std::mutex guard;
    const std::lock_guard lock(guard);
    const auto found = cache.find(version);
    if (found != cache.end())
        return found->second;
    sqlite3* raw = nullptr;
    sqlite3_open_v2(":memory:", &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, nullptr);
    const OwnedConnection memory(raw);
    for (int v = 1; v <= version; ++v)
        applyMigration(memory.get(), ":memory:", v);
    return cache.emplace(version, schemaColumns(memory.get(), ":memory:")).first->second;
}

} // namespace

void checkSchema(sqlite3* db, const std::string& path, int version) {
    std::map<std::string, std::vector<std::string>> actual;
    try {
        actual = schemaColumns(db, path);
    } catch (const InputError& error) { // a view whose query names a column its table lacks
        throw InputError(path, 0, 0, refusal("is damaged or was edited: " + error.problem()));
    }
    for (const auto& [name, columns] : expectedColumns(version)) {
        const auto found = actual.find(name);
        if (found == actual.end())
            throw InputError(path, 0, 0, refusal("is damaged or was edited: it has no '" + name + "'"));
        for (const std::string& column : columns) {
            if (std::find(found->second.begin(), found->second.end(), column) != found->second.end())
                continue;
            std::string finding = "is damaged or was edited: '";
            finding.append(name).append("' has no column '").append(column).append("'");
            throw InputError(path, 0, 0, refusal(finding));
        }
    }
}

void CloseOwnedConnection::operator()(sqlite3* db) const {
    sqlite3_close_v2(db);
}

// Everything here is read-only: a file we refuse must stay byte-for-byte as it was. One side effect
// remains: reading a WAL-mode file (ours, or a damaged copy of ours) creates its -wal and -shm companions
// when they are missing; a refusal removes the ones this check created, so the directory is left as found.
void checkBeforeWriting(const std::string& path, OpenCheck check) {
    const QString wal = QString::fromStdString(path + "-wal");
    const QString shm = QString::fromStdString(path + "-shm");
    const bool hadWal = QFileInfo::exists(wal);
    const bool hadShm = QFileInfo::exists(shm);
    try {
        const OwnedConnection db = openWithFlags(path, path, SQLITE_OPEN_READONLY);
        checkOpenFile(db.get(), path, check);
    } catch (const InputError&) {
        // Only files this check created and that hold nothing: an empty -wal, and the -shm index with it.
        if (!hadWal && QFileInfo(wal).size() == 0) {
            QFile::remove(wal);
            if (!hadShm)
                QFile::remove(shm);
        }
        throw;
    }
}

OwnedConnection openReadWrite(const std::string& path, ResultsStore::OpenMode mode) {
    sqlite3* raw = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
                      (mode == ResultsStore::OpenMode::CreateIfMissing ? SQLITE_OPEN_CREATE : 0);
    const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
    OwnedConnection db(raw); // closed even when opening failed (SQLite allocates a handle anyway)
    if (rc != SQLITE_OK)
        throw InputError(path, 0, 0,
                         "cannot open the results database for writing: " + std::string(sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, ResultsStore::kBusyTimeoutMs);
    retryingWhenBusy(path, "opening", [&] {
        // WAL: readers never block the writer nor it them, so the GUI can read while the CLI saves.
        // synchronous=NORMAL is safe against a crashed or killed process in WAL mode (a committed run stays
        // committed); only a power cut may lose the last commits, never corrupt the file.
        SqliteStatement wal(raw, "PRAGMA journal_mode = WAL", path);
        if (!wal.step() || wal.text(0) != "wal")
            throw InputError(path, 0, 0,
                             "cannot switch the database to WAL mode (is the directory read-only?)");
        SqliteStatement(raw, "PRAGMA synchronous = NORMAL", path).exec();
        // Never delete the WAL on close. SQLite deletes it when the closing connection gets an exclusive
        // lock, taken to mean "no other connection": a process that lost its POSIX locks (any descriptor on
        // the file closed in that process releases them all) then keeps writing into a deleted file, and
        // its runs vanish. Kept, the file is reset in place by the next writer (docs/DATABASE.md). A limit of
        // 0 empties it once checkpointed, so the closed database file stands alone: no stale frames beside
        // it.
        int persistWal = 1;
        sqlite3_file_control(raw, "main", SQLITE_FCNTL_PERSIST_WAL, &persistWal);
        SqliteStatement(raw, "PRAGMA journal_size_limit = 0", path).step();
        SqliteStatement(raw, "PRAGMA foreign_keys = ON", path).exec();
        return 0;
    });
    return db;
}

std::optional<std::string> whyUnwritable(const std::string& path) {
    std::vector<std::string> reasons;
    const QFileInfo file(QString::fromStdString(path));
    if (file.exists() && !file.isWritable())
        reasons.emplace_back("you have no permission to write the file");
    // A database not yet created goes into folders created for it: the nearest one that exists decides.
    QFileInfo directory(file.absolutePath());
    while (!directory.exists() && !directory.isRoot())
        directory = QFileInfo(directory.absolutePath());
    if (!directory.isWritable())
        reasons.push_back("its folder " + directory.absoluteFilePath().toStdString() +
                          " cannot be written, and SQLite keeps its -wal and -shm files beside the database");
    if (reasons.empty())
        return std::nullopt;
    return reasons.size() == 1 ? reasons.front() : reasons.front() + "; " + reasons.back();
}

OwnedConnection openReadOnly(const std::string& path, OpenCheck check) {
    // Frames in the -wal are committed runs not yet copied into the file: only a connection that reads the
    // WAL sees them. Without frames the file alone is the database, and immutable mode reads it without
    // creating anything beside it (nor taking locks: a writer active at the same time can make this read
    // fail as damaged, never change the file; docs/DATABASE.md "Read-only databases").
    const bool walHasFrames = QFileInfo(QString::fromStdString(path + "-wal")).size() > 0;
    OwnedConnection db = walHasFrames ? openWithFlags(path, path, SQLITE_OPEN_READONLY)
                                      : openWithFlags(sqliteUri(path, "?immutable=1"), path,
                                                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    try {
        checkOpenFile(db.get(), path, check);
    } catch (const InputError& error) {
        // Reading the WAL needs its -shm index, which a read-only folder cannot hold when it is missing.
        if (!walHasFrames || (sqlite3_extended_errcode(db.get()) & 0xff) != SQLITE_CANTOPEN)
            throw;
        throw InputError(path, 0, 0,
                         "is read-only and its -wal file holds runs not yet copied into it (a program that "
                         "writes it is running, or was killed); reading them needs a -shm file that cannot "
                         "be created here. Open it once where it can be written, or copy the file with its "
                         "-wal to a folder you can write");
    }
    const int version = userVersion(db.get(), path);
    if (version != ResultsStore::kSchemaVersion)
        throw InputError(path, 0, 0,
                         "is read-only and " +
                             (version == 0 ? std::string("holds no Carbon3D runs yet")
                                           : "has the schema of an older Carbon3D (version " +
                                                 std::to_string(version) + "; this program reads version " +
                                                 std::to_string(ResultsStore::kSchemaVersion) +
                                                 "), which can only be upgraded where it can be written") +
                             ": copy it to a folder you can write, and open the copy");
    return db;
}

int userVersion(sqlite3* db, const std::string& path) {
    SqliteStatement s(db, "PRAGMA user_version", path);
    return s.step() ? static_cast<int>(s.integer(0)) : 0;
}

void migrateTo(sqlite3* db, const std::string& path, int targetVersion) {
    if (userVersion(db, path) >= targetVersion)
        return;
    for (;;) {
        const bool done = retryingWhenBusy(path, "upgrading the database schema", [&] {
            SqliteTransaction transaction(db, SqliteTransaction::Kind::Write, path);
            // Read again under the write lock: another process may have migrated in the meantime.
            const int version = userVersion(db, path);
            if (version >= targetVersion)
                return true;
            applyMigration(db, path, version + 1);
            transaction.commit();
            return false;
        });
        if (done)
            return;
    }
}

} // namespace carbon3d::storage_detail
