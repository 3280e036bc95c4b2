// SPDX-License-Identifier: MIT
#include "cli/Command.h"
#include "cli/Commands.h"
#include "domain/InputError.h"

#include <algorithm>
#include <ostream>

namespace carbon3d::cli {

namespace {

std::vector<Command>& registry() {
    static std::vector<Command> commands{
        makeValidateCommand(), makeSimulateCommand(), makeEstimateCommand(),
        makeSearchCommand(),   makeRunsCommand(),     makeStudyCommand(),
    };
    return commands;
}

} // namespace

const std::vector<Command>& allCommands() {
    return registry();
}

void addCommand(Command command) {
    registry().push_back(std::move(command));
}

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const CliProgram program{"carbon3d-cli", "carbon-aware training what-if studio, headless.",
                             allCommands()};
    return runProgram(program, args, out, err);
}

namespace {

void printOverview(const CliProgram& program, std::ostream& out) {
    out << program.name << ' ' << CARBON3D_VERSION << ": " << program.purpose << "\n\nUsage: " << program.name
        << " COMMAND [options]\n       " << program.name
        << " help COMMAND      (or COMMAND --help)\n\nCommands:\n";
    // Summaries start in one column: 14, or past the longest name.
    size_t column = 14;
    for (const Command& command : program.commands)
        column = std::max(column, command.name.size() + 4);
    for (const Command& command : program.commands) {
        std::string name = "  " + command.name;
        name.append(column - name.size(), ' ');
        out << name << command.summary << '\n';
    }
}

void printCommandHelp(const CliProgram& program, const Command& command, std::ostream& out) {
    out << "Usage: " << program.name << ' ' << command.usage << "\n\n" << command.summary << "\n";
    if (!command.flags.empty())
        out << "\nOptions:\n" << formatFlagHelp(command.flags);
    out << "  --help                      show this help\n";
    if (!command.details.empty())
        out << '\n' << command.details << '\n';
}

const Command* findCommand(const CliProgram& program, const std::string& name) {
    for (const Command& command : program.commands) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

} // namespace

int runProgram(const CliProgram& program, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
    const std::string& me = program.name;
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        printOverview(program, args.empty() ? err : out);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        out << me << ' ' << CARBON3D_VERSION << '\n';
        return 0;
    }
    if (args[0] == "help") {
        if (args.size() < 2) {
            printOverview(program, out);
            return 0;
        }
        if (const Command* command = findCommand(program, args[1])) {
            printCommandHelp(program, *command, out);
            return 0;
        }
        err << me << ": unknown command '" << args[1] << "'\n";
        return 2;
    }
    const Command* command = findCommand(program, args[0]);
    if (command == nullptr) {
        err << me << ": unknown command '" << args[0] << "'. Run '" << me << " --help' for the list.\n";
        return 2;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const std::string& arg : rest) {
        if (arg == "--help" || arg == "-h") {
            printCommandHelp(program, *command, out);
            return 0;
        }
    }
    try {
        const CliArguments parsed(rest, command->flags);
        CommandIo io{out, err};
        return command->run(parsed, io);
    } catch (const UsageError& error) {
        err << me << ' ' << command->name << ": " << error.what() << "\nUsage: " << me << ' '
            << command->usage << "\n";
        return 2;
    } catch (const InputError& error) {
        err << me << ' ' << command->name << ": " << error.what() << '\n';
        return 1;
    } catch (const std::exception& error) {
        // Anything else is a bug (or the machine ran out of something), never a reason to abort with a
        // core dump: say so and exit with a code of its own. What was already saved stays saved.
        err << me << ' ' << command->name << ": internal error: " << error.what()
            << " (this is a bug in Carbon3D; please report it with the command line)\n";
        return 3;
    } catch (...) {
        err << me << ' ' << command->name
            << ": internal error of unknown kind (this is a bug in Carbon3D; please report it)\n";
        return 3;
    }
}

} // namespace carbon3d::cli
