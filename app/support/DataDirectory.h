// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <string>

namespace carbon3d::app {

// Where the bundled sample data lives, for both programs (the core never looks it up itself):
// 1. $CARBON3D_DATA_DIR; 2. <executable>/../share/carbon3d/sample_data (an installed layout);
// 3. <executable>/../../sample_data (a build tree inside the repository, e.g. build-release/app);
// 4. the source tree the program was built from. Returns an empty string when none exists.
QString sampleDataDirectory();
// The repository's docs/ next to the sample data, when present.
QString docsDirectory();

// Where the results database lives unless --db says otherwise: QStandardPaths::AppDataLocation +
// "/results.sqlite" (e.g. ~/.local/share/Carbon3D/carbon3d/results.sqlite on Linux). Needs the application
// and organisation names set, as both programs' main() does. The core never looks this up: the programs
// pass it (or the user's choice) to ResultsStore.
std::string defaultDatabasePath();

} // namespace carbon3d::app
