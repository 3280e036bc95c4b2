// SPDX-License-Identifier: MIT
#pragma once

#include "storage/ResultsStore.h"

#include <memory>
#include <string>

namespace carbon3d::cli {

// The results database a `runs` or `study` action reads: it must exist (a mistyped --db must not create an
// empty one), and only an action that writes (delete, rename) needs it writable; the others read a database
// the user may not write (a colleague's, a read-only mount).
inline std::unique_ptr<ResultsStore> openExistingStore(const std::string& path, bool writes) {
    return std::make_unique<ResultsStore>(
        path, ResultsStore::OpenOptions{ResultsStore::OpenMode::MustExist, ResultsStore::OpenCheck::Quick,
                                        writes ? ResultsStore::Access::ReadWrite
                                               : ResultsStore::Access::ReadOnlyWhenUnwritable});
}

} // namespace carbon3d::cli
