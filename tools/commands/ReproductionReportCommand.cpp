// SPDX-License-Identifier: MIT
// carbon3d-validate report-reproduction: regenerates docs/REPRODUCTION.md - each seed's headline claim beside
// the closest scenario this tool can run on the bundled 2022 traces, and our number. tools/reports computes
// and renders it; this command finds the sample data, reads the flags and writes the file.
#include "cli/ReportOutput.h"
#include "commands/ValidateCommands.h"
#include "reports/ReproductionReport.h"
#include "support/DataDirectory.h"

namespace carbon3d::cli {

Command makeReproductionReportCommand() {
    Command command;
    command.name = "report-reproduction";
    command.summary = "regenerate docs/REPRODUCTION.md: each seed's headline vs our closest scenario";
    command.usage = "report-reproduction [--out FILE]";
    command.details =
        "Runs the closest scenario to each seed's headline claim on the bundled 2022 traces\n"
        "(a few minutes in a Release build). Writes Markdown to FILE (default: standard output).";
    command.flags = {{"out", true, false, "FILE", "write the Markdown here"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        reports::ReproductionReportInputs inputs;
        inputs.sampleDataDirectory = app::sampleDataDirectory().toStdString();
        writeReport(reports::renderReproductionMarkdown(reports::computeReproductionReport(inputs)),
                    args.value("out"), io);
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
