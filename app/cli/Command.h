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

// One subcommand of a command-line program. Each lives in its own file (ValidateCommand.cpp, ...) and is
// listed in its program's table (CommandRegistry.cpp for carbon3d-cli, tools/cli for carbon3d-validate).
// run() returns the process exit code: 0 success, 1 the input was bad or the request infeasible (message on
// err), 2 a usage mistake.
struct Command {
    std::string name;
    std::string summary; // one line for the command list
    std::string usage;   // synopsis, e.g. "validate FILE..."
    std::string details; // paragraphs after the flag list
    std::vector<FlagSpec> flags;
    std::function<int(const CliArguments&, CommandIo&)> run;
};

// A program made of commands: its name as typed, one line that says what it is for, and its commands in
// the order its help lists them.
struct CliProgram {
    std::string name;
    std::string purpose;
    std::vector<Command> commands;
};

// Dispatches `args` (without the program name) to one of the program's commands, prints help, and maps
// errors to exit codes; shared by every main() and the CLI tests.
int runProgram(const CliProgram& program, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);

// carbon3d-cli: the user's commands only (validation and document generation are carbon3d-validate's).
const std::vector<Command>& allCommands();
// Adds a command that lives outside this library (e.g. `plot`, which needs the widgets).
void addCommand(Command command);
int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace carbon3d::cli
