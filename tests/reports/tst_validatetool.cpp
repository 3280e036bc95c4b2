// SPDX-License-Identifier: MIT
// The product's command line and the maintainers' tool are two programs: carbon3d-cli lists and runs only
// the user's commands, carbon3d-validate the validation and document commands, each under its own name.
#include "cli/Command.h"
#include "commands/ValidateCommands.h"

#include <QTest>
#include <sstream>

using namespace carbon3d;

namespace {

struct Outcome {
    int exitCode = 0;
    std::string out;
    std::string err;
};

template <typename Entry> Outcome runWith(Entry entry, const std::vector<std::string>& args) {
    std::ostringstream out;
    std::ostringstream err;
    const int code = entry(args, out, err);
    return {code, out.str(), err.str()};
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::vector<std::string> kToolCommands{"report-validation", "report-results", "report-reproduction",
                                             "report-study-lesson", "calibrate"};

} // namespace

class TstValidateTool : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void userHelpListsOnlyTheUsersCommands() {
        const Outcome help = runWith(cli::runCli, {"--help"});
        QCOMPARE(help.exitCode, 0);
        for (const char* command : {"validate", "simulate", "estimate", "search", "runs", "study"})
            QVERIFY2(contains(help.out, std::string("\n  ") + command + ' '), command);
        for (const std::string& command : kToolCommands) {
            QVERIFY2(!contains(help.out, command), command.c_str());
            const Outcome refused = runWith(cli::runCli, {command});
            QCOMPARE(refused.exitCode, 2);
            QVERIFY2(contains(refused.err, "carbon3d-cli: unknown command '" + command + "'"),
                     refused.err.c_str());
        }
    }

    void validateToolListsItsCommandsUnderItsOwnName() {
        const Outcome help = runWith(cli::runValidateTool, {"--help"});
        QCOMPARE(help.exitCode, 0);
        QVERIFY(contains(help.out, "Usage: carbon3d-validate COMMAND"));
        for (const std::string& command : kToolCommands)
            QVERIFY2(contains(help.out, "\n  " + command + ' '), command.c_str());
        QVERIFY(!contains(help.out, "simulate"));
        const Outcome usage = runWith(cli::runValidateTool, {"calibrate", "--no-such-flag"});
        QCOMPARE(usage.exitCode, 2);
        QVERIFY2(contains(usage.err, "Usage: carbon3d-validate calibrate"), usage.err.c_str());
        const Outcome commandHelp = runWith(cli::runValidateTool, {"help", "report-validation"});
        QCOMPARE(commandHelp.exitCode, 0);
        QVERIFY(contains(commandHelp.out, "Usage: carbon3d-validate report-validation"));
    }
};

QTEST_GUILESS_MAIN(TstValidateTool)
#include "tst_validatetool.moc"
