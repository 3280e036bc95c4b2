// SPDX-License-Identifier: MIT
#pragma once

#include "storage/ResultsStore.h"

#include <memory>
#include <optional>
#include <string>

struct sqlite3;

// How ResultsStore opens a file: the read-only check of a file that exists, the read-write connection and
// the schema upgrade (docs/DATABASE.md "Opening, crashes, corruption and concurrency"). Only core/storage
// includes this header.
namespace carbon3d::storage_detail {

// Closes with sqlite3_close_v2; also the handle that a failed sqlite3_open_v2 allocates anyway.
struct CloseOwnedConnection {
    void operator()(sqlite3* db) const;
};
using OwnedConnection = std::unique_ptr<sqlite3, CloseOwnedConnection>;

// Refuses, with an InputError naming `path`, a file that is not SQLite, another program's SQLite file, a
// damaged file (with OpenCheck::Quick) or one from a newer Carbon3D. Reads only: a refused file is left
// byte-for-byte as it was, and the empty -wal/-shm companions the look itself created are removed.
void checkBeforeWriting(const std::string& path, ResultsStore::OpenCheck check);

// The read-write connection every store operation uses: WAL, synchronous=NORMAL, the WAL kept on close,
// foreign keys on, ResultsStore::kBusyTimeoutMs of waiting for other writers.
OwnedConnection openReadWrite(const std::string& path, ResultsStore::OpenMode mode);

// Refuses, with an InputError naming `path`, a database whose tables and views lack a column that schema
// `version` has (a file edited by hand, or damaged where quick_check cannot see it): the queries would
// otherwise fail on SQL that is right for every file Carbon3D wrote. Found by fuzzing the open path.
void checkSchema(sqlite3* db, const std::string& path, int version);

// Why the current user cannot write the database at `path` (nothing when it can): the file, or the
// directory SQLite keeps its -wal and -shm companions in, is not writable (permissions, a read-only mount).
std::optional<std::string> whyUnwritable(const std::string& path);

// A connection that reads and never writes, to the file or beside it: used when whyUnwritable() says
// something. When the -wal holds frames (a writer is active, or was killed) SQLite reads them through a
// read-only connection; otherwise the file is opened immutable, so no -wal or -shm is created. Runs the
// checks of checkBeforeWriting(), and refuses a file whose schema is not kSchemaVersion (it cannot be
// upgraded in place).
OwnedConnection openReadOnly(const std::string& path, ResultsStore::OpenCheck check);

// PRAGMA user_version: the schema version of the open database (0 for an empty file).
int userVersion(sqlite3* db, const std::string& path);

// Runs migrations user_version+1 .. targetVersion, each in its own write transaction; safe against another
// process migrating the same file at the same time.
void migrateTo(sqlite3* db, const std::string& path, int targetVersion);

} // namespace carbon3d::storage_detail
