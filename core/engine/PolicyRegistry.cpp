// SPDX-License-Identifier: MIT
#include "engine/PolicyRegistry.h"

#include "domain/InputError.h"
#include "domain/ModellingFields.h"
#include "domain/NumberText.h"
#include "domain/TextList.h"
#include "engine/policies/BestStaticPolicy.h"
#include "engine/policies/CarbonScalerPolicy.h"
#include "engine/policies/ChasePolicy.h"
#include "engine/policies/Dynamic3dPolicy.h"
#include "engine/policies/EadtPolicy.h"
#include "engine/policies/GreedyLookaheadPolicy.h"
#include "engine/policies/IlpPolicy.h"
#include "engine/policies/MultiRegionPolicy.h"
#include "engine/policies/OraclePolicy.h"
#include "engine/policies/StaticMaxPolicy.h"
#include "engine/policies/SuspendResumePolicy.h"
#include "engine/policies/TertilePolicy.h"
#include "engine/policies/WaitAwhilePolicy.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace carbon3d {

const std::vector<PolicyInfo>& policyCatalog() {
    // One line per policy; the order is the order of the studio's check boxes and of the CLI's help.
    static const std::vector<PolicyInfo> catalog{
        staticMaxPolicyInfo(),     bestStaticPolicyInfo(),
        suspendResumePolicyInfo(), tertilePolicyInfo(),
        dynamic3dPolicyInfo(),     oraclePolicyInfo(),
        waitAwhilePolicyInfo(),    waitAwhileInterruptiblePolicyInfo(),
        carbonScalerPolicyInfo(),  greedyLookaheadPolicyInfo(),
        ilpPolicyInfo(),           chasePolicyInfo(),
        eadtPolicyInfo(),          multiRegionPolicyInfo(),
    };
    return catalog;
}

const PolicyInfo* findPolicy(const std::string& name) {
    const auto& catalog = policyCatalog();
    const auto found = std::find_if(catalog.begin(), catalog.end(),
                                    [&](const PolicyInfo& info) { return info.name == name; });
    return found == catalog.end() ? nullptr : &*found;
}

const PolicyInfo& defaultBaselinePolicy() {
    for (const PolicyInfo& info : policyCatalog()) {
        if (info.traits.defaultBaseline)
            return info;
    }
    throw std::logic_error("the policy catalogue has no default baseline");
}

const PolicyInfo& focusedPolicy() {
    for (const PolicyInfo& info : policyCatalog()) {
        if (info.traits.focusedByDefault)
            return info;
    }
    throw std::logic_error("the policy catalogue has no focused policy");
}

namespace {

// The catalogue's default for `key` of `policy`; nullptr when either is unknown.
const std::string* defaultOf(const std::string& policy, const std::string& key) {
    const PolicyInfo* info = findPolicy(policy);
    if (info == nullptr)
        return nullptr;
    for (const PolicyOptionInfo& option : info->options) {
        if (option.key == key)
            return &option.defaultValue;
    }
    return nullptr;
}

// A recorded value and a default that mean the same: equal text, or equal numbers written two ways (a
// policy records 300000 as its shortest text, "3e+05", where the catalogue writes "300000").
bool sameOptionValue(const std::string& defaultValue, const std::string& value) {
    if (defaultValue == value)
        return true;
    const std::optional<double> a = parseDecimal(defaultValue);
    const std::optional<double> b = parseDecimal(value);
    return a && b && *a == *b;
}

} // namespace

std::string policyRunLabel(const std::string& policy, const std::map<std::string, std::string>& options) {
    constexpr std::string_view kInner = "inner.";
    const auto inner = options.find("inner");
    const bool known = findPolicy(policy) != nullptr;
    std::string changed;
    for (const auto& [key, value] : options) {
        const bool ofInner = key.starts_with(kInner);
        const std::string* fallback =
            ofInner ? (inner != options.end() ? defaultOf(inner->second, key.substr(kInner.size())) : nullptr)
                    : defaultOf(policy, key);
        if (fallback != nullptr && sameOptionValue(*fallback, value))
            continue;
        // A key the catalogue does not list for a known policy records an outcome (the oracle's solved_by),
        // not a choice: it stays in the run's options, not in its name.
        if (fallback == nullptr && !ofInner && known)
            continue;
        if (!changed.empty())
            changed += ", ";
        changed.append(key).append("=").append(value);
    }
    return changed.empty() ? policy : policy + " (" + changed + ")";
}

std::string runName(const std::string& scenarioName, const RunResult& run) {
    std::string name = scenarioName + " / " + policyRunLabel(run.policy, run.options);
    // Who pays for parked GPUs is the assumption a saving rests on most: two runs that differ only in it
    // must not share a name (the default, charged to the job, goes unsaid).
    const auto backfill = run.modelling.find(kBackfillKey);
    const std::optional<double> value =
        backfill == run.modelling.end() ? std::nullopt : parseDecimal(backfill->second);
    if (value && *value != ModellingOptions{}.backfill)
        name += *value == 1.0 ? ", parked GPUs released" : ", backfill " + backfill->second;
    return name;
}

PolicyOptionInfo numberOption(std::string key, std::string defaultValue, double min, double max,
                              std::string description) {
    return {std::move(key),
            std::move(defaultValue),
            std::move(description),
            PolicyOptionKind::Number,
            min,
            max,
            {}};
}

PolicyOptionInfo wholeNumberOption(std::string key, std::string defaultValue, double min, double max,
                                   std::string description) {
    PolicyOptionInfo option =
        numberOption(std::move(key), std::move(defaultValue), min, max, std::move(description));
    option.wholeNumber = true;
    return option;
}

PolicyOptionInfo flagOption(std::string key, bool defaultValue, std::string description) {
    return {std::move(key),
            defaultValue ? "true" : "false",
            std::move(description),
            PolicyOptionKind::Flag,
            0,
            0,
            {}};
}

PolicyOptionInfo choiceOption(std::string key, std::string defaultValue, std::vector<std::string> choices,
                              std::string description) {
    return {
        std::move(key),    std::move(defaultValue), std::move(description), PolicyOptionKind::Choice, 0, 0,
        std::move(choices)};
}

PolicyOptionInfo innerPolicyOption(std::string key, std::string defaultValue, std::string description) {
    return {std::move(key),
            std::move(defaultValue),
            std::move(description),
            PolicyOptionKind::InnerPolicy,
            0,
            0,
            {}};
}

PolicyOptionInfo objectiveOption() {
    return choiceOption("objective", objectiveName(Objective::Carbon),
                        {objectiveName(Objective::Carbon), objectiveName(Objective::Cost),
                         objectiveName(Objective::CostPlusCarbon)},
                        "what it minimises: carbon (emissions), cost (GPU-hours and energy at the scenario's "
                        "prices) or cost+carbon (cost plus carbon_price_usd_per_t x emissions)");
}

void throwPolicyOptionError(const std::string& policy, const std::string& problem) {
    throw InputError("policy " + policy, 0, 0, problem);
}

std::optional<bool> parseFlag(const std::string& text) {
    if (text == "true" || text == "1" || text == "yes")
        return true;
    if (text == "false" || text == "0" || text == "no")
        return false;
    return std::nullopt;
}

namespace {

std::string catalogueNames() {
    return joinedText(policyCatalog(), ", ", &PolicyInfo::name);
}

// Checks one value against its declaration; the message names the option and what it accepts.
void checkOptionValue(const std::string& policy, const PolicyOptionInfo& option, const std::string& text) {
    const auto expected = [&](const std::string& what) {
        throwPolicyOptionError(policy, "expected option '" + option.key + "' to be " + what + ", found '" +
                                           text + "'");
    };
    switch (option.kind) {
    case PolicyOptionKind::Number: {
        const std::optional<double> value = parseDecimal(text);
        if (!value || !(*value >= option.min && *value <= option.max) ||
            (option.wholeNumber && *value != std::floor(*value)))
            expected(std::string(option.wholeNumber ? "a whole number" : "a number") + " in [" +
                     shortestNumber(option.min) + ", " + shortestNumber(option.max) + "]");
        return;
    }
    case PolicyOptionKind::Flag:
        if (!parseFlag(text))
            expected("true or false");
        return;
    case PolicyOptionKind::Choice:
        if (std::find(option.choices.begin(), option.choices.end(), text) == option.choices.end())
            expected(spokenList(option.choices, "or"));
        return;
    case PolicyOptionKind::InnerPolicy:
        if (!findPolicy(text))
            expected("a policy name (" + catalogueNames() + ")");
        return;
    }
}

} // namespace

std::string acceptedValues(const PolicyOptionInfo& option) {
    switch (option.kind) {
    case PolicyOptionKind::Number:
        return (option.wholeNumber ? "whole numbers " : "") + shortestNumber(option.min) + " to " +
               shortestNumber(option.max);
    case PolicyOptionKind::Flag:
        return "true or false";
    case PolicyOptionKind::Choice:
        return spokenList(option.choices, "or");
    case PolicyOptionKind::InnerPolicy:
        return "a single-region policy name";
    }
    return {};
}

PolicyOptions::PolicyOptions(std::string policy, std::map<std::string, std::string> values,
                             std::map<std::string, std::string> innerOptions)
    : m_policy(std::move(policy))
    , m_values(std::move(values))
    , m_inner(std::move(innerOptions)) {}

const std::string& PolicyOptions::text(const std::string& key) const {
    const auto found = m_values.find(key);
    if (found == m_values.end())
        throw std::logic_error("policy " + m_policy + " reads the undeclared option " + key);
    return found->second;
}

double PolicyOptions::number(const std::string& key) const {
    return *parseDecimal(text(key)); // checked against the declaration when the options were made
}

bool PolicyOptions::flag(const std::string& key) const {
    return *parseFlag(text(key));
}

void checkInnerPolicy(const std::string& wrapper, const PolicyInfo& inner, bool mayWrap) {
    if (inner.traits.perfectKnowledge || inner.traits.choosesRegion ||
        (inner.traits.wrapsPolicy && !mayWrap)) {
        std::vector<std::string> refused;
        for (const PolicyInfo& info : policyCatalog()) {
            if (info.traits.perfectKnowledge || info.traits.choosesRegion ||
                (info.traits.wrapsPolicy && !mayWrap))
                refused.push_back(info.name);
        }
        throwPolicyOptionError(wrapper,
                               "expected option 'inner' to name a single-region online policy (not " +
                                   spokenList(refused, "or") + "), found '" + inner.name + "'");
    }
}

std::unique_ptr<Policy> makeInnerPolicy(const std::string& wrapper, const PolicyOptions& options,
                                        bool mayWrap) {
    const std::string& inner = options.text("inner");
    checkInnerPolicy(wrapper, *findPolicy(inner), mayWrap); // the option's kind already checked the name
    return makePolicy(PolicySpec{inner, options.innerOptions()});
}

std::unique_ptr<Policy> makePolicy(const PolicySpec& spec) {
    const PolicyInfo* info = findPolicy(spec.name);
    if (info == nullptr)
        throw InputError("policy", 0, 0,
                         "expected a policy name (" + catalogueNames() + "), found '" + spec.name + "'");
    std::map<std::string, std::string> values;
    for (const PolicyOptionInfo& option : info->options)
        values[option.key] = option.defaultValue;
    // Policies that wrap an inner policy take its options as inner.KEY=VALUE (the form their recorded
    // options use); the inner policy validates them when it is made.
    std::map<std::string, std::string> innerOptions;
    for (const auto& [key, value] : spec.options) {
        if (info->traits.wrapsPolicy && key.starts_with("inner.")) {
            innerOptions[key.substr(6)] = value;
            continue;
        }
        if (!values.contains(key)) {
            const std::string keys = joinedText(info->options, ", ", &PolicyOptionInfo::key);
            throwPolicyOptionError(spec.name, "unknown option '" + key +
                                                  "' (accepted: " + (keys.empty() ? "none" : keys) + ")");
        }
        values[key] = value;
    }
    for (const PolicyOptionInfo& option : info->options)
        checkOptionValue(spec.name, option, values[option.key]);
    const auto objective = values.find("objective");
    const std::optional<Objective> minimises =
        objective != values.end() ? parseObjective(objective->second) : std::nullopt;
    std::unique_ptr<Policy> policy =
        info->make(PolicyOptions(spec.name, std::move(values), std::move(innerOptions)));
    if (minimises)
        policy->setObjective(*minimises);
    return policy;
}

} // namespace carbon3d
