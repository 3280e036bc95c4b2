// SPDX-License-Identifier: MIT
#pragma once

#include "domain/InputError.h"
#include "storage/ResultsStore.h"
#include "storage/SqliteStatement.h"

#include <string>

// Shared by the store's operations and its opening (StoreOpening.cpp); only core/storage includes it.
namespace carbon3d::storage_detail {

// A lock that fails is reported by SQLite as busy, whatever the reason: on a network filesystem without
// working locks (NFS without its lock daemon answers ENOLCK) every attempt fails the same way.
inline constexpr const char* kLocksMayNotWork =
    "If no other program uses it, its folder may be on a filesystem whose locks do not work (a network "
    "filesystem): keep the database on a local disk, or run studies there with --scratch (docs/STUDIES.md "
    "\"On your cluster\")";

// Runs `operation` (which opens and commits its own transaction), retrying it whole when another process
// held the database for longer than the busy timeout. The failed attempt has rolled back by then.
template <typename Operation>
auto retryingWhenBusy(const std::string& path, const char* what, Operation&& operation) {
    for (int attempt = 1;; ++attempt) {
        try {
            return operation();
        } catch (const BusyError& error) {
            if (attempt >= ResultsStore::kBusyAttempts)
                throw InputError(path, 0, 0,
                                 std::string(what) +
                                     ": the database stayed busy (another program is writing to it) for " +
                                     std::to_string(attempt * ResultsStore::kBusyTimeoutMs / 1000) +
                                     " s; try again (" + error.what() + "). " + kLocksMayNotWork);
        }
    }
}

} // namespace carbon3d::storage_detail
