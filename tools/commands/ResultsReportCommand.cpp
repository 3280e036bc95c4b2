// SPDX-License-Identifier: MIT
// carbon3d-validate report-results: regenerates docs/RESULTS.md (every engine policy on every bundled region
// for the default job), so the published numbers always come from the code as built. tools/reports computes
// and renders it; this command finds the sample data, reads the flags and writes the file.
#include "cli/ReportOutput.h"
#include "cli/SimulateSupport.h"
#include "commands/ValidateCommands.h"
#include "reports/ResultsReport.h"
#include "support/DataDirectory.h"

namespace carbon3d::cli {

Command makeResultsReportCommand() {
    Command command;
    command.name = "report-results";
    command.summary = "regenerate docs/RESULTS.md: every policy on every bundled region, default job";
    command.usage = "report-results [--out FILE] [--policy NAME]...";
    command.details =
        "Runs the bundled default scenario with its region replaced by each bundled trace\n"
        "(sample_data/traces) and every policy of the engine. Writes Markdown to FILE (default:\n"
        "standard output).";
    command.flags = {
        {"out", true, false, "FILE", "write the Markdown here"},
        {"policy", true, true, "NAME", "policy to include (repeatable; default: the whole catalogue)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        reports::ResultsReportInputs inputs;
        inputs.scenarioPath = defaultScenarioPath(); // InputError naming the missing sample data
        inputs.sampleDataDirectory = app::sampleDataDirectory().toStdString();
        inputs.requestedPolicies = args.values("policy");
        writeReport(reports::renderResultsMarkdown(reports::computeResultsReport(inputs)), args.value("out"),
                    io);
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
