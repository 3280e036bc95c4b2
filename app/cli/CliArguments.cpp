// SPDX-License-Identifier: MIT
#include "cli/CliArguments.h"

#include "domain/NumberText.h"
#include "domain/PrintableText.h"

#include <cmath>

namespace carbon3d::cli {

namespace {

const FlagSpec* findSpec(const std::vector<FlagSpec>& specs, const std::string& name) {
    for (const FlagSpec& spec : specs) {
        if (spec.name == name)
            return &spec;
    }
    return nullptr;
}

} // namespace

CliArguments::CliArguments(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 3 || arg.rfind("--", 0) != 0) {
            if (arg.size() > 1 && arg[0] == '-' && arg != "-")
                throw UsageError("unknown option '" + arg + "' (options are spelled --name)");
            m_positionals.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::optional<std::string> inlineValue;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            inlineValue = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const FlagSpec* spec = findSpec(specs, name);
        if (spec == nullptr)
            throw UsageError("unknown option '--" + name + "'");
        if (!spec->repeatable && m_values.count(name) > 0)
            throw UsageError("option '--" + name + "' given more than once");
        if (!spec->takesValue) {
            if (inlineValue)
                throw UsageError("option '--" + name + "' takes no value");
            m_values[name].emplace_back();
            continue;
        }
        if (!inlineValue) {
            if (i + 1 >= args.size())
                throw UsageError("option '--" + name + "' expects a value (" + spec->valueName + ")");
            inlineValue = args[++i];
        }
        m_values[name].push_back(*inlineValue);
    }
}

bool CliArguments::has(const std::string& name) const {
    return m_values.count(name) > 0;
}

std::optional<std::string> CliArguments::value(const std::string& name) const {
    const auto it = m_values.find(name);
    if (it == m_values.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::vector<std::string> CliArguments::values(const std::string& name) const {
    const auto it = m_values.find(name);
    return it == m_values.end() ? std::vector<std::string>{} : it->second;
}

void expectOperands(const std::vector<std::string>& positionals, std::size_t count,
                    const std::string& command, const char* what) {
    if (positionals.size() != count + 1)
        throw UsageError(command + " " + positionals[0] + " expects " + what);
}

std::optional<int> CliArguments::intValue(const std::string& name, int min, int max) const {
    const auto text = value(name);
    if (!text)
        return std::nullopt;
    const std::optional<std::int64_t> parsed = parseInteger(*text);
    if (!parsed)
        throw UsageError("--" + name + " expects a whole number, got " + quotedExcerpt(*text));
    if (*parsed < min || *parsed > max)
        throw UsageError("--" + name + " must be between " + std::to_string(min) + " and " +
                         std::to_string(max) + ", got " + quotedExcerpt(*text));
    return static_cast<int>(*parsed);
}

std::optional<double> CliArguments::doubleValue(const std::string& name, double min, double max) const {
    const auto text = value(name);
    if (!text)
        return std::nullopt;
    const std::optional<double> parsed = parseDecimal(*text);
    if (!parsed || !std::isfinite(*parsed))
        throw UsageError("--" + name + " expects a number, got " + quotedExcerpt(*text));
    if (*parsed < min || *parsed > max)
        throw UsageError("--" + name + " must be between " + shortestNumber(min) + " and " +
                         shortestNumber(max) + ", got " + quotedExcerpt(*text));
    return *parsed;
}

std::string formatFlagHelp(const std::vector<FlagSpec>& specs) {
    std::string text;
    for (const FlagSpec& spec : specs) {
        std::string left = "  --" + spec.name;
        if (spec.takesValue)
            left += ' ' + (spec.valueName.empty() ? std::string("VALUE") : spec.valueName);
        if (left.size() < 30)
            left.append(30 - left.size(), ' ');
        else
            left += "  ";
        text += left + spec.help + (spec.repeatable ? " (repeatable)" : "") + '\n';
    }
    return text;
}

} // namespace carbon3d::cli
