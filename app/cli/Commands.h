// SPDX-License-Identifier: MIT
#pragma once

#include "cli/Command.h"

// One factory per subcommand, each defined in its own file.
namespace carbon3d::cli {

Command makeValidateCommand();

} // namespace carbon3d::cli
