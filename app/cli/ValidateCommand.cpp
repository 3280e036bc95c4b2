// SPDX-License-Identifier: MIT
#include "cli/Commands.h"

#include <ostream>

namespace carbon3d::cli {

// Placeholder until the loaders land: reports that validation is not yet available.
Command makeValidateCommand()
{
    Command command;
    command.name = "validate";
    command.summary = "check input files (traces, profiles, models, scenarios, operating points)";
    command.usage = "validate FILE...";
    command.run = [](const CliArguments& args, CommandIo& io) {
        if (args.positionals().empty())
            throw UsageError("no FILE given");
        io.err << "validate: not implemented yet\n";
        return 1;
    };
    return command;
}

} // namespace carbon3d::cli
