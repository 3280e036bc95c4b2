// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace carbon3d::app {

// Where the bundled sample data lives, for both programs (the core never looks it up itself):
// 1. $CARBON3D_DATA_DIR; 2. <executable>/../share/carbon3d/sample_data (an installed layout);
// 3. <executable>/../../sample_data (a build tree inside the repository, e.g. build-release/app);
// 4. the source tree the program was built from. Returns an empty string when none exists.
QString sampleDataDirectory();
// The repository's docs/ next to the sample data, when present.
QString docsDirectory();

} // namespace carbon3d::app
