// SPDX-License-Identifier: MIT
#pragma once

#include "cli/CliArguments.h"

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace carbon3d::cli {

// Streams a command writes to; tests pass string streams.
struct CommandIo {
    std::ostream& out;
    std::ostream& err;
};

// One subcommand of carbon3d-cli. Each lives in its own file (ValidateCommand.cpp, ...) and is
// listed in CommandRegistry.cpp. run() returns the process exit code: 0 success, 1 the input was
// bad or the request infeasible (message on err), 2 a usage mistake.
struct Command {
    std::string name;
    std::string summary; // one line for the command list
    std::string usage;   // synopsis, e.g. "validate FILE..."
    std::string details; // paragraphs after the flag list
    std::vector<FlagSpec> flags;
    std::function<int(const CliArguments&, CommandIo&)> run;
};

const std::vector<Command>& allCommands();
// Adds a command that lives outside this library (e.g. `plot`, which needs the widgets).
void addCommand(Command command);

// Entry point shared by main() and the CLI tests: dispatches, prints help, maps errors to exit codes.
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace carbon3d::cli
