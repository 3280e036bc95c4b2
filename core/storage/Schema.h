// SPDX-License-Identifier: MIT
#pragma once

// The schema of the results database as SQL migrations (docs/DATABASE.md "Migrations"). Only core/storage
// includes this header; ResultsStore::kSchemaVersion is the number of migrations.
namespace carbon3d::storage_detail {

// The SQL of migration `version` (1..ResultsStore::kSchemaVersion): it takes a database from user_version
// version-1 to version. Setting user_version (and application_id) is the caller's part, inside the same
// transaction. Throws std::out_of_range for a version outside that range.
const char* migrationSql(int version);

} // namespace carbon3d::storage_detail
