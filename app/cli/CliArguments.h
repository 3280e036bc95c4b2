// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace carbon3d::cli {

// A usage mistake on the command line: printed with the command's usage, exit code 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Declares one flag a command accepts.
struct FlagSpec {
    std::string name;        // without dashes, e.g. "gpus"
    bool takesValue = true;  // false for switches such as --json
    bool repeatable = false; // e.g. --policy may be given several times
    std::string valueName;   // for help text, e.g. "N"
    std::string help;        // one line
};

// Parsed command line of one command: flags (validated against the specs) and positionals.
// Accepts "--name value" and "--name=value". Unknown flags are errors: a typo must not pass silently.
class CliArguments {
public:
    CliArguments(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs);

    bool has(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positionals() const { return m_positionals; }

    // Typed accessors; throw UsageError naming the flag and what was expected.
    std::optional<int> intValue(const std::string& name, int min, int max) const;
    std::optional<double> doubleValue(const std::string& name, double min, double max) const;

private:
    std::map<std::string, std::vector<std::string>> m_values;
    std::vector<std::string> m_positionals;
};

// For a command with actions ("runs list", "study show ID"): exactly `count` operands after the action,
// else a UsageError "COMMAND ACTION expects WHAT".
void expectOperands(const std::vector<std::string>& positionals, std::size_t count,
                    const std::string& command, const char* what);

// "  --gpus N        GPUs to use" lines for a command's help.
std::string formatFlagHelp(const std::vector<FlagSpec>& specs);

} // namespace carbon3d::cli
