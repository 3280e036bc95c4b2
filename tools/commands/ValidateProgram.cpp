// SPDX-License-Identifier: MIT
#include "commands/ValidateCommands.h"

namespace carbon3d::cli {

CliProgram validateProgram() {
    return {"carbon3d-validate",
            "checks Carbon3D's performance model against published measurements and regenerates its "
            "generated documents.",
            {makeReportValidationCommand(), makeCalibrateCommand(), makeResultsReportCommand(),
             makeReproductionReportCommand(), makeStudyLessonCommand()}};
}

int runValidateTool(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    return runProgram(validateProgram(), args, out, err);
}

} // namespace carbon3d::cli
