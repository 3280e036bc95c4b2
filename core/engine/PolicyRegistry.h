// SPDX-License-Identifier: MIT
#pragma once

#include "domain/RunResult.h"
#include "domain/Scenario.h"
#include "engine/Policy.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// The policy catalogue: every policy describes itself in its own file (a PolicyInfo with its options,
// traits, look and factory) and is registered by one line in PolicyRegistry.cpp. Everything else (the
// scenario loader, the CLI's help and flags, the studio's check boxes, options dialogs and plot colours)
// reads this catalogue, so no policy name is compared anywhere but in its own file
// (docs/ARCHITECTURE.md "Adding a policy").

enum class PolicyOptionKind {
    Number,     // a decimal number in [min, max]
    Flag,       // true | false (also 1/0, yes/no)
    Choice,     // one of `choices`
    InnerPolicy // the name of a catalogue policy that this one wraps (its options as inner.KEY)
};

struct PolicyOptionInfo {
    std::string key;
    std::string defaultValue;
    std::string description; // one line, with the unit
    PolicyOptionKind kind = PolicyOptionKind::Number;
    double min = 0.0; // Number only
    double max = 0.0;
    std::vector<std::string> choices; // Choice only
    bool wholeNumber = false;         // Number only: a count, which a fraction would be cut from silently
};

// What an option accepts, for people: "0 to 100", "fit or fastest", "true or false", "a policy name".
std::string acceptedValues(const PolicyOptionInfo& option);

PolicyOptionInfo numberOption(std::string key, std::string defaultValue, double min, double max,
                              std::string description);
// A count (a node or label limit): a number option that refuses fractions.
PolicyOptionInfo wholeNumberOption(std::string key, std::string defaultValue, double min, double max,
                                   std::string description);
PolicyOptionInfo flagOption(std::string key, bool defaultValue, std::string description);
// A flag option's value as the engine reads it: true, 1, yes / false, 0, no; nullopt for anything else.
std::optional<bool> parseFlag(const std::string& text);
PolicyOptionInfo choiceOption(std::string key, std::string defaultValue, std::vector<std::string> choices,
                              std::string description);
PolicyOptionInfo innerPolicyOption(std::string key, std::string defaultValue, std::string description);
// The "objective" option of a policy that optimises (engine/Objective.h): carbon (default), cost or
// cost+carbon. makePolicy passes it to Policy::setObjective.
PolicyOptionInfo objectiveOption();

// What a policy's plan is, when it is one of the simpler plans dynamic-3d contains (docs/ENGINE.md,
// "dynamic-3d"): one configuration run throughout, the full-size configuration paused and shifted in time,
// or elastic scaling of the data-parallel degree. Dynamic-3d weighs every such plan against its own, and a
// run's saving split counts what the strongest fixed-configuration and timing plans save (RunResult.h).
enum class SimplerPlan { None, FixedConfiguration, Timing, ElasticScaling };

struct PolicyTraits {
    bool defaultBaseline = false;  // savings are measured against it unless the user picks another
    bool perfectKnowledge = false; // plans on the true traces (the offline optimum)
    bool wrapsPolicy = false;      // delegates decisions to an inner policy (option kind InnerPolicy)
    bool choosesRegion = false;    // moves between the scenario's regions
    bool usesForecast = true;      // false: decisions never look at the forecast
    bool focusedByDefault = false; // the run the studio's timeline shows bands for first
    bool changesJobOrMenu = false; // asks the runner for a changed input (Policy::adaptInput)
    // Plans by solving a MIP per horizon, seconds a run: the oracle does not replay it as a seed
    // (engine/policies/OracleSeeds.h).
    bool solvesPrograms = false;
    SimplerPlan simplerPlan = SimplerPlan::None;
};

// How plots draw a policy: a colour-blind-safe colour (Okabe and Ito), a dash and a marker, so that two
// policies never look alike even where they share a colour.
enum class LineDash { Solid, Dashed };
enum class PlotMarker {
    Circle,
    Disc,
    Square,
    Diamond,
    Star,
    Triangle,
    TriangleInverted,
    Cross,
    Plus,
    CrossSquare,
    PlusSquare,
    CrossCircle,
    PlusCircle,
    Peace
};
struct PolicyLook {
    unsigned colourRgb = 0x000000; // 0xRRGGBB
    LineDash dash = LineDash::Solid;
    PlotMarker marker = PlotMarker::Circle;
};

// The validated options of one policy: every declared option, with its default when not given.
class PolicyOptions {
public:
    PolicyOptions(std::string policy, std::map<std::string, std::string> values,
                  std::map<std::string, std::string> innerOptions);
    double number(const std::string& key) const;
    bool flag(const std::string& key) const;
    const std::string& text(const std::string& key) const;
    // The options given as inner.KEY=VALUE, for the wrapped policy (validated when it is made).
    const std::map<std::string, std::string>& innerOptions() const { return m_inner; }

private:
    std::string m_policy;
    std::map<std::string, std::string> m_values;
    std::map<std::string, std::string> m_inner;
};

struct PolicyInfo {
    std::string name;
    std::string description; // one line
    std::string source;      // citation of the idea
    std::vector<PolicyOptionInfo> options;
    PolicyTraits traits;
    PolicyLook look;
    std::function<std::unique_ptr<Policy>(const PolicyOptions&)> make;
};

const std::vector<PolicyInfo>& policyCatalog();
// nullptr for a name the catalogue does not know.
const PolicyInfo* findPolicy(const std::string& name);
// The policy every saving is measured against by default (the catalogue's defaultBaseline trait).
const PolicyInfo& defaultBaselinePolicy();
// The policy the studio shows first (bands on the timeline, the study heatmap): the focusedByDefault trait.
const PolicyInfo& focusedPolicy();

// A policy as a run of it is named: its name, then the options that differ from the catalogue's defaults
// ("multi-region (hysteresis=false)", "multi-region (inner=dynamic-3d)"), so that runs of one policy
// with different options can be told apart. An inner policy's options ("inner.KEY") are compared with
// that policy's defaults.
std::string policyRunLabel(const std::string& policy, const std::map<std::string, std::string>& options);
// What a run is saved and listed as: "SCENARIO / POLICY-RUN-LABEL", and ", parked GPUs released" (or
// ", backfill 0.5") when its parked GPUs were not charged to the job, the default.
std::string runName(const std::string& scenarioName, const RunResult& run);

// Creates a policy by name with its options; throws InputError naming the unknown policy or option
// and listing what is accepted.
std::unique_ptr<Policy> makePolicy(const PolicySpec& spec);

// Throws InputError, as makePolicy does, unless `inner` may be wrapped by `wrapper`: a wrapped policy is a
// single-region online policy (it neither chooses regions nor knows the future) and, unless `mayWrap`,
// does not wrap another policy itself.
void checkInnerPolicy(const std::string& wrapper, const PolicyInfo& inner, bool mayWrap);

// The policy a wrapper names in its "inner" option, checked as above and made with the inner.KEY options.
std::unique_ptr<Policy> makeInnerPolicy(const std::string& wrapper, const PolicyOptions& options,
                                        bool mayWrap);

[[noreturn]] void throwPolicyOptionError(const std::string& policy, const std::string& problem);

} // namespace carbon3d
