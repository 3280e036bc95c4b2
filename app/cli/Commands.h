// SPDX-License-Identifier: MIT
#pragma once

#include "cli/Command.h"

// One factory per subcommand, each defined in its own file.
namespace carbon3d::cli {

Command makeValidateCommand();
Command makeEstimateCommand();
Command makeSearchCommand();
Command makeRunsCommand();
Command makeSimulateCommand();
Command makeStudyCommand();

} // namespace carbon3d::cli
