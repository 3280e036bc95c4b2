// SPDX-License-Identifier: MIT
#include "engine/PolicyRegistry.h"

#include "domain/InputError.h"
#include "domain/Precision.h"
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

#include <charconv>
#include <cmath>
#include <sstream>

namespace carbon3d {

const std::vector<PolicyInfo>& policyCatalog() {
    static const std::vector<PolicyInfo> catalog{
        {"static-max",
         "Carbon-agnostic: the fastest option on all GPUs, start now, never stop.",
         "Baseline of every carbon-aware training study (e.g. Hanafy et al., SIGMETRICS 2024)",
         {}},
        {"best-static",
         "The single option with the least forecast emissions that meets the deadline, started now.",
         "Best static scale baseline (Hanafy et al., CarbonScaler, SIGMETRICS 2024)",
         {}},
        {"suspend-resume",
         "One option (sized for the time it expects to run, or the fastest) while forecast CI <= a "
         "percentile of the forecast to the deadline, paused otherwise.",
         "Threshold suspend-resume (Wiesner et al., Let's Wait Awhile, Middleware 2021; Hanafy et al. 2024)",
         {{"percentile", "50", "threshold percentile of forecast CI over the window to the deadline, 0-100"},
          {"size", "fit",
           "fit: best-static's option for the time it expects to run | fastest: the literature's "
           "full-size job"}}},
        {"tertile",
         "Forecast CI terciles: low -> fastest, middle -> best-static option, high -> least energy per "
         "token.",
         "Tertile baseline of the dynamic-parallelism prototype (Aboualim and Lee, HotCarbon 2026)",
         {}},
        {"dynamic-3d",
         "Each slot: active DP degree and (t, p) from the Pareto menu by a Lagrangian carbon-per-token rule "
         "on the forecast, with hysteresis against reconfiguration cost, deadline-safe.",
         "Carbon-Aware Dynamic Parallelism for Distributed Training (Aboualim and Lee, HotCarbon 2026)",
         {{"hysteresis_hours", "12", "horizon over which a switch's forecast saving must exceed its cost, h"},
          {"hysteresis", "true", "false switches whenever the plan changes (ablation)"}}},
        {"oracle",
         "Least-carbon schedule with perfect knowledge under the same menu, overheads and deadline.",
         "Offline optimum: exact label DP on small cases, else Lagrangian DP over slots x states",
         {{"method", "auto", "auto | exact | lagrangian"},
          {"max_labels", "200000",
           "exact method: give up (auto: fall back) beyond this many Pareto labels"}}},
        {"wait-awhile",
         "Non-interruptible shifting: start (fastest option) at the time of least mean forecast CI over the "
         "job's duration inside the window, then run to completion.",
         "Let's Wait Awhile (Wiesner et al., Middleware 2021)",
         {{"deadline_rule", "scenario",
           "scenario | next-workday (09:00 local, next working day) | semi-weekly (next Mon/Thu 09:00 "
           "local)"}}},
        {"wait-awhile-interruptible",
         "Interruptible shifting: run the fastest option in the K cheapest forecast slots of the window.",
         "Let's Wait Awhile (Wiesner et al., Middleware 2021)",
         {{"deadline_rule", "scenario",
           "scenario | next-workday (09:00 local, next working day) | semi-weekly (next Mon/Thu 09:00 "
           "local)"}}},
        {"carbonscaler",
         "Elastic scaling: greedy over (slot, size) items by marginal throughput / marginal carbon, sizes "
         "taken in increasing order, until the work is covered by the deadline.",
         "CarbonScaler (Hanafy et al., SIGMETRICS 2024)",
         {}},
        {"greedy-lookahead",
         "Every k steps, the option that can still meet the deadline with the least forecast carbon over the "
         "next H steps, counting a switch cost (the authors' prototype; faithful: feasibility ignores switch "
         "time).",
         "Prototype policy of the dynamic-parallelism authors (Aboualim and Lee; docs/MODEL.md 9.4)",
         {{"horizon_steps", "200", "lookahead H, training steps"},
          {"decide_every_steps", "50", "re-decide after k steps, training steps"},
          {"switch_s", "60", "switch cost assumed by the policy: time, s"},
          {"switch_w", "600", "switch cost assumed by the policy: power, W"},
          {"ema_alpha", "0.3", "EMA weight of new power / step-time measurements"},
          {"step_work", "3145728", "work units per step (default 1536 x 2048 tokens)"},
          {"count_switch_time", "false", "true: the corrected form (feasibility counts the switch time)"}}},
        {"ilp",
         "Integer program per rolling horizon: which option (or none) runs in each slot, least forecast "
         "carbon with switching costs, meeting the work target; greedy fallback on failure or timeout.",
         "ILP scheduler of the carbon-aware training article (docs/MODEL.md 9.7), solved with GLPK",
         {{"horizon_hours", "48", "rolling horizon of each integer program, h"},
          {"resolve_hours", "6", "re-solve at least this often (and when the run leaves the plan), h"},
          {"mip_gap", "0.01", "relative MIP gap at which a solve stops (GLPK mip_gap)"},
          {"node_limit", "300", "branch-and-bound nodes per solve; the best schedule found is kept"},
          {"time_limit_ms", "1000", "GLPK wall-clock limit per solve (tm_lim), ms: a safeguard"}}},
        {"chase",
         "Keeps place and scale; every 30 min sets the GPU power limit minimising Chase's cost "
         "[eta P CI + (1 - eta) maxP maxCI] / throughput on the next interval's predicted CI.",
         "Chase (Yang, Meng, Chung, Chowdhury, 2023); power-limit profiles as in Zeus (NSDI 2023)",
         {{"eta", "0.5", "weight of carbon against time, 0-1"},
          {"max_power_w", "300", "normalising power, W (Chase: the A40's maximum limit)"},
          {"max_ci", "750", "normalising carbon intensity, g/kWh"},
          {"interval_minutes", "30", "how often the limit is re-chosen, min"},
          {"predictor", "forecast",
           "forecast (the run's forecaster) | svr (Chase's RBF SVR on the past 48 slots)"}}},
        {"eadt",
         "Communication-efficient data parallelism: gradient compression (with codec cost), transfer and "
         "arithmetic precision, a convergence penalty as extra work, applied to the performance model's "
         "menu; a carbon-aware policy schedules the changed job.",
         "EADT (Cheng, Sun, Turner; docs/MODEL.md 9.6); levers applied by core/runner",
         {{"inner", "dynamic-3d",
           "single-region policy scheduling the changed menu; its options as inner.KEY=VALUE"},
          {"compression_ratio", "10", "gradient all-reduce bytes divided by r (1: no compression, no codec)"},
          {"transfer_precision", "fp16",
           "all-reduce element type: fp32 | fp16 | bf16 | fp8 | job (calibration)"},
          {"arithmetic_precision", "job", "matrix-unit precision: fp32 | tf32 | fp16 | bf16 | fp8 | job"},
          {"codec_bytes_per_param", "16", "HBM bytes per local gradient element to encode + decode, B"},
          {"extra_steps", "0.05", "convergence penalty: extra work as a fraction of the job (assumed)"}}},
        {"multi-region",
         "Follows the cleanest grid: each decision, the region of least mean forecast CI over the next "
         "window "
         "(a move only when its forecast saving exceeds the migration's cost); a single-region policy "
         "decides what runs there.",
         "Multi-region migration (docs/MODEL.md 9.8; the carbon-aware training article)",
         {{"inner", "static-max",
           "single-region policy deciding what runs in the chosen region; its options as inner.KEY=VALUE"},
          {"window_hours", "6", "forecast window over which regions are compared, h"},
          {"hysteresis", "true", "false: move whenever another region's window mean is lower"},
          {"migration", "scenario",
           "scenario (modelling.migration_s) | checkpoint (params x 14 B x 8 / WAN + preemption_s; set by "
           "core/runner)"},
          {"wan_gbps", "10", "WAN bandwidth for the checkpoint transfer, Gbit/s"}}},
    };
    return catalog;
}

namespace {

[[noreturn]] void badOption(const std::string& policy, const std::string& what) {
    throw InputError("policy " + policy, 0, 0, what);
}

// 0 and 100 rather than std::to_string's 0.000000 and 100.000000 in messages.
std::string compact(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

double parseNumber(const std::string& policy, const std::string& key, const std::string& text, double min,
                   double max) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !(value >= min && value <= max))
        badOption(policy, "expected option '" + key + "' to be a number in [" + compact(min) + ", " +
                              compact(max) + "], found '" + text + "'");
    return value;
}

bool parseBool(const std::string& policy, const std::string& key, const std::string& text) {
    if (text == "true" || text == "1" || text == "yes")
        return true;
    if (text == "false" || text == "0" || text == "no")
        return false;
    badOption(policy, "expected option '" + key + "' to be true or false, found '" + text + "'");
}

} // namespace

std::unique_ptr<Policy> makePolicy(const PolicySpec& spec) {
    const PolicyInfo* info = nullptr;
    std::string names;
    for (const PolicyInfo& candidate : policyCatalog()) {
        names += (names.empty() ? "" : ", ") + candidate.name;
        if (candidate.name == spec.name)
            info = &candidate;
    }
    if (info == nullptr)
        throw InputError("policy", 0, 0, "expected a policy name (" + names + "), found '" + spec.name + "'");
    std::map<std::string, std::string> values;
    for (const PolicyOptionInfo& option : info->options)
        values[option.key] = option.defaultValue;
    // Policies that delegate to an inner policy take its options as inner.KEY=VALUE (the form their
    // recorded options use); the inner policy validates them.
    std::map<std::string, std::string> innerOptions;
    for (const auto& [key, value] : spec.options) {
        if (values.contains("inner") && key.starts_with("inner.")) {
            innerOptions[key.substr(6)] = value;
            continue;
        }
        if (!values.contains(key)) {
            std::string keys;
            for (const PolicyOptionInfo& option : info->options)
                keys += (keys.empty() ? "" : ", ") + option.key;
            badOption(spec.name,
                      "unknown option '" + key + "' (accepted: " + (keys.empty() ? "none" : keys) + ")");
        }
        values[key] = value;
    }
    const std::string& name = spec.name;
    if (name == "static-max")
        return std::make_unique<StaticMaxPolicy>();
    if (name == "best-static")
        return std::make_unique<BestStaticPolicy>();
    if (name == "suspend-resume") {
        const std::string& size = values["size"];
        if (size != "fit" && size != "fastest")
            badOption(name, "expected option 'size' to be fit or fastest, found '" + size + "'");
        return std::make_unique<SuspendResumePolicy>(
            parseNumber(name, "percentile", values["percentile"], 0, 100), size == "fit");
    }
    if (name == "tertile")
        return std::make_unique<TertilePolicy>();
    if (name == "dynamic-3d")
        return std::make_unique<Dynamic3dPolicy>(
            parseNumber(name, "hysteresis_hours", values["hysteresis_hours"], 0, 24 * 365),
            parseBool(name, "hysteresis", values["hysteresis"]));
    if (name == "carbonscaler")
        return std::make_unique<CarbonScalerPolicy>();
    if (name == "wait-awhile" || name == "wait-awhile-interruptible") {
        const std::string& rule = values["deadline_rule"];
        WaitDeadlineRule parsed = WaitDeadlineRule::Scenario;
        if (rule == "next-workday")
            parsed = WaitDeadlineRule::NextWorkday;
        else if (rule == "semi-weekly")
            parsed = WaitDeadlineRule::SemiWeekly;
        else if (rule != "scenario")
            badOption(name, "expected option 'deadline_rule' to be scenario, next-workday or semi-weekly, "
                            "found '" +
                                rule + "'");
        return std::make_unique<WaitAwhilePolicy>(name == "wait-awhile-interruptible", parsed);
    }
    if (name == "chase") {
        ChaseParameters p;
        p.eta = parseNumber(name, "eta", values["eta"], 0, 1);
        p.maxPowerW = parseNumber(name, "max_power_w", values["max_power_w"], 1, 1e5);
        p.maxCiGPerKwh = parseNumber(name, "max_ci", values["max_ci"], 1, 1e5);
        p.intervalS = 60.0 * parseNumber(name, "interval_minutes", values["interval_minutes"], 1, 24 * 60);
        const std::string& predictor = values["predictor"];
        if (predictor != "forecast" && predictor != "svr")
            badOption(name, "expected option 'predictor' to be forecast or svr, found '" + predictor + "'");
        p.svr = predictor == "svr";
        return std::make_unique<ChasePolicy>(p);
    }
    if (name == "ilp") {
        IlpParameters p;
        p.horizonHours = parseNumber(name, "horizon_hours", values["horizon_hours"], 1, 24 * 365);
        p.resolveHours = parseNumber(name, "resolve_hours", values["resolve_hours"], 0, 24 * 365);
        p.timeLimitMs = parseNumber(name, "time_limit_ms", values["time_limit_ms"], 1, 3.6e6);
        p.mipGap = parseNumber(name, "mip_gap", values["mip_gap"], 0, 1);
        p.nodeLimit = static_cast<int>(parseNumber(name, "node_limit", values["node_limit"], 1, 1e9));
        return std::make_unique<IlpPolicy>(p);
    }
    if (name == "eadt") {
        EadtParameters p;
        p.innerName = values["inner"];
        if (p.innerName == "eadt" || p.innerName == "multi-region" || p.innerName == "oracle")
            badOption(name, "expected option 'inner' to name a single-region online policy (not eadt, "
                            "multi-region or oracle), found '" +
                                p.innerName + "'");
        p.compressionRatio = parseNumber(name, "compression_ratio", values["compression_ratio"], 1, 1e4);
        p.codecBytesPerParam =
            parseNumber(name, "codec_bytes_per_param", values["codec_bytes_per_param"], 0, 1e4);
        p.extraStepsFraction = parseNumber(name, "extra_steps", values["extra_steps"], 0, 1);
        for (const char* key : {"transfer_precision", "arithmetic_precision"}) {
            const std::string& text = values[key];
            if (text != "job" && !parsePrecision(text))
                badOption(name, std::string("expected option '") + key +
                                    "' to be fp32, tf32, fp16, bf16, fp8 or job, found '" + text + "'");
        }
        p.transferPrecision = values["transfer_precision"];
        p.arithmeticPrecision = values["arithmetic_precision"];
        return std::make_unique<EadtPolicy>(p, makePolicy(PolicySpec{p.innerName, innerOptions}));
    }
    if (name == "multi-region") {
        MultiRegionParameters p;
        p.innerName = values["inner"];
        if (p.innerName == "multi-region" || p.innerName == "oracle")
            badOption(name,
                      "expected option 'inner' to name a single-region online policy (not multi-region or "
                      "oracle), found '" +
                          p.innerName + "'");
        p.windowHours = parseNumber(name, "window_hours", values["window_hours"], 0.01, 24 * 365);
        p.hysteresis = parseBool(name, "hysteresis", values["hysteresis"]);
        const std::string& migration = values["migration"];
        if (migration != "scenario" && migration != "checkpoint")
            badOption(name,
                      "expected option 'migration' to be scenario or checkpoint, found '" + migration + "'");
        p.checkpointMigration = migration == "checkpoint";
        p.wanBitsPerSecond = 1e9 * parseNumber(name, "wan_gbps", values["wan_gbps"], 1e-6, 1e6);
        return std::make_unique<MultiRegionPolicy>(p, makePolicy(PolicySpec{p.innerName, innerOptions}));
    }
    if (name == "greedy-lookahead") {
        LookaheadParameters p;
        p.horizonSteps = parseNumber(name, "horizon_steps", values["horizon_steps"], 1, 1e9);
        p.decideEverySteps = parseNumber(name, "decide_every_steps", values["decide_every_steps"], 0, 1e9);
        p.switchSeconds = parseNumber(name, "switch_s", values["switch_s"], 0, 1e6);
        p.switchPowerW = parseNumber(name, "switch_w", values["switch_w"], 0, 1e9);
        p.emaAlpha = parseNumber(name, "ema_alpha", values["ema_alpha"], 0, 1);
        p.stepWork = parseNumber(name, "step_work", values["step_work"], 1e-12, 1e18);
        p.countSwitchTime = parseBool(name, "count_switch_time", values["count_switch_time"]);
        return std::make_unique<GreedyLookaheadPolicy>(p);
    }
    // oracle
    const std::string& method = values["method"];
    if (method != "auto" && method != "exact" && method != "lagrangian")
        badOption(name, "expected option 'method' to be auto, exact or lagrangian, found '" + method + "'");
    return std::make_unique<OraclePolicy>(
        method, static_cast<std::size_t>(parseNumber(name, "max_labels", values["max_labels"], 1, 1e9)));
}

} // namespace carbon3d
