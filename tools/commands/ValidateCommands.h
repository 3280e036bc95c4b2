// SPDX-License-Identifier: MIT
#pragma once

#include "cli/Command.h"

#include <iosfwd>
#include <string>
#include <vector>

// carbon3d-validate: the commands that check the model against measurements and regenerate the generated
// documents. They are not the user's: carbon3d-cli never lists them.
namespace carbon3d::cli {

Command makeReportValidationCommand();
Command makeCalibrateCommand();
Command makeResultsReportCommand();
Command makeReproductionReportCommand();
Command makeStudyLessonCommand();

// The program and its entry point, shared by main() and tests.
CliProgram validateProgram();
int runValidateTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace carbon3d::cli
