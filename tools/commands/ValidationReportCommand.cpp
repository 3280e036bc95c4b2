// SPDX-License-Identifier: MIT
// carbon3d-validate report-validation: regenerates docs/VALIDATION.md. tools/reports computes and renders it;
// this command reads the flags and writes the file.
#include "cli/ReportOutput.h"
#include "commands/ValidateCommands.h"
#include "reports/ValidationReport.h"

namespace carbon3d::cli {

Command makeReportValidationCommand() {
    Command command;
    command.name = "report-validation";
    command.summary = "regenerate docs/VALIDATION.md: model vs measured step times and memory";
    command.usage = "report-validation --data DIR --out FILE";
    command.flags = {{"data", true, false, "DIR", "tests/data/validation"},
                     {"out", true, false, "FILE", "Markdown file to write (e.g. docs/VALIDATION.md)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const auto data = args.value("data");
        const auto out = args.value("out");
        if (!data || !out)
            throw UsageError("--data and --out are required");
        reports::ValidationReportInputs inputs;
        inputs.dataDirectory = *data; // quoted in the report's header as given
        writeReport(reports::renderValidationMarkdown(reports::computeValidationReport(inputs)), out, io);
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
