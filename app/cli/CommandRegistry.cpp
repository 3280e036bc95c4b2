// SPDX-License-Identifier: MIT
#include "cli/Command.h"
#include "cli/Commands.h"
#include "domain/InputError.h"

#include <ostream>

namespace carbon3d::cli {

namespace {

std::vector<Command>& registry() {
    static std::vector<Command> commands{
        makeValidateCommand(),  makeSimulateCommand(),    makeResultsReportCommand(),
        makeEstimateCommand(),  makeSearchCommand(),      makeReportValidationCommand(),
        makeCalibrateCommand(), makeRunsCommand(),        makeReproductionReportCommand(),
        makeStudyCommand(),     makeStudyLessonCommand(),
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

namespace {

void printOverview(std::ostream& out) {
    out << "carbon3d-cli " << CARBON3D_VERSION
        << ": carbon-aware training what-if studio, headless.\n\n"
           "Usage: carbon3d-cli COMMAND [options]\n"
           "       carbon3d-cli help COMMAND      (or COMMAND --help)\n\nCommands:\n";
    for (const Command& command : allCommands()) {
        std::string name = "  " + command.name;
        name.append(name.size() < 14 ? 14 - name.size() : 1, ' ');
        out << name << command.summary << '\n';
    }
}

void printCommandHelp(const Command& command, std::ostream& out) {
    out << "Usage: carbon3d-cli " << command.usage << "\n\n" << command.summary << "\n";
    if (!command.flags.empty())
        out << "\nOptions:\n" << formatFlagHelp(command.flags);
    out << "  --help                      show this help\n";
    if (!command.details.empty())
        out << '\n' << command.details << '\n';
}

const Command* findCommand(const std::string& name) {
    for (const Command& command : allCommands()) {
        if (command.name == name)
            return &command;
    }
    return nullptr;
}

} // namespace

int runCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        printOverview(args.empty() ? err : out);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version") {
        out << "carbon3d-cli " << CARBON3D_VERSION << '\n';
        return 0;
    }
    if (args[0] == "help") {
        if (args.size() < 2) {
            printOverview(out);
            return 0;
        }
        if (const Command* command = findCommand(args[1])) {
            printCommandHelp(*command, out);
            return 0;
        }
        err << "carbon3d-cli: unknown command '" << args[1] << "'\n";
        return 2;
    }
    const Command* command = findCommand(args[0]);
    if (command == nullptr) {
        err << "carbon3d-cli: unknown command '" << args[0] << "'. Run 'carbon3d-cli --help' for the list.\n";
        return 2;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    for (const std::string& arg : rest) {
        if (arg == "--help" || arg == "-h") {
            printCommandHelp(*command, out);
            return 0;
        }
    }
    try {
        const CliArguments parsed(rest, command->flags);
        CommandIo io{out, err};
        return command->run(parsed, io);
    } catch (const UsageError& error) {
        err << "carbon3d-cli " << command->name << ": " << error.what() << "\nUsage: carbon3d-cli "
            << command->usage << "\n";
        return 2;
    } catch (const InputError& error) {
        err << "carbon3d-cli " << command->name << ": " << error.what() << '\n';
        return 1;
    } catch (const std::exception& error) {
        // Anything else is a bug (or the machine ran out of something), never a reason to abort with a
        // core dump: say so and exit with a code of its own. What was already saved stays saved.
        err << "carbon3d-cli " << command->name << ": internal error: " << error.what()
            << " (this is a bug in Carbon3D; please report it with the command line)\n";
        return 3;
    } catch (...) {
        err << "carbon3d-cli " << command->name
            << ": internal error of unknown kind (this is a bug in Carbon3D; please report it)\n";
        return 3;
    }
}

} // namespace carbon3d::cli
