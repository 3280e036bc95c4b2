// SPDX-License-Identifier: MIT
#pragma once

#include "cli/Command.h"

namespace carbon3d::cli {

// `carbon3d-cli plot`: figures without the GUI. Lives in its own library (it links the widgets) and is
// added to the command list by main_cli; it needs a QApplication, which main_cli creates for it.
Command makePlotCommand();

} // namespace carbon3d::cli
