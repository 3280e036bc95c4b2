// SPDX-License-Identifier: MIT
#include "engine/policies/ChasePolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"

#include <limits>

namespace carbon3d {

double chaseCost(const ExecutionOption& option, double ciGPerKwh, const ChaseParameters& p) {
    const double gpuW = option.gpuPowerW > 0.0 ? option.gpuPowerW : option.activePowerW;
    const double hostW = option.activePowerW - gpuW;
    const double perGpuW = (gpuW + p.hostShare * hostW) / std::max(1, option.gpusActive);
    return (p.eta * perGpuW * ciGPerKwh + (1.0 - p.eta) * p.maxPowerW * p.maxCiGPerKwh) /
           option.workPerSecond;
}

int chaseChoice(const ExecutionMenu& menu, const std::vector<int>& candidates, double ciGPerKwh,
                const ChaseParameters& p) {
    int choice = -1;
    double best = std::numeric_limits<double>::infinity();
    for (int k : candidates) {
        const ExecutionOption& option = menu[static_cast<std::size_t>(k)];
        const double cost = chaseCost(option, ciGPerKwh, p);
        if (cost < best || (choice >= 0 && cost == best &&
                            option.workPerSecond > menu[static_cast<std::size_t>(choice)].workPerSecond)) {
            best = cost;
            choice = k;
        }
    }
    return choice;
}

std::map<std::string, std::string> ChasePolicy::options() const {
    // Numbers in the shortest text that reads back to the same value, whatever the locale.
    return {{"eta", shortestNumber(m_p.eta)},
            {"max_power_w", shortestNumber(m_p.maxPowerW)},
            {"max_ci", shortestNumber(m_p.maxCiGPerKwh)},
            {"interval_minutes", shortestNumber(m_p.intervalS / 60.0)},
            {"predictor", m_p.svr ? "svr" : "forecast"},
            {"svr_fit", m_p.svrFit == SvrFit::OnceRaw ? "once-raw" : "refit-standardised"},
            {"host_share", shortestNumber(m_p.hostShare)}};
}

void ChasePolicy::prepare(const PlanningContext& context) {
    m_input = &context.input;
    m_candidates.clear();
    m_warnings.clear();
    m_choice = -1;
    const int fastest = context.costs.fastestOption();
    const ExecutionOption& reference = context.input.menu[static_cast<std::size_t>(fastest)];
    for (int k = 0; k < static_cast<int>(context.input.menu.size()); ++k) {
        const ExecutionOption& option = context.input.menu[static_cast<std::size_t>(k)];
        if (option.gpusActive == reference.gpusActive && option.config == reference.config)
            m_candidates.push_back(k);
    }
    if (m_candidates.size() < 2)
        m_warnings.emplace_back(
            "chase: the menu offers no power-limit variant of the job's configuration; it "
            "ran at the default limit (same as static-max)");
    if (m_p.svr)
        m_svr = std::make_unique<SvrForecaster>(context.input.regions.front(), m_p.svrFit);
}

Decision ChasePolicy::decide(const DecisionState& state) {
    if (m_choice >= 0 && state.currentOption == m_choice &&
        static_cast<double>(state.nowUtc - m_lastDecisionUtc) < m_p.intervalS)
        return {m_choice, state.region,
                state.explain ? "keeps the power limit until its interval of " +
                                    fixedNumber(m_p.intervalS / 60.0, 0) + " min ends"
                              : ""};
    double ci = 0.0;
    if (m_svr) {
        const CarbonTrace& trace = m_input->regions[static_cast<std::size_t>(state.region)];
        const auto slot = static_cast<std::size_t>((state.nowUtc - trace.startUtc) / trace.stepSeconds);
        std::vector<double> next;
        m_svr->predict(slot, 1, next);
        ci = next.front();
    } else {
        ci = state.forecast().valueAt(static_cast<double>(state.nowUtc));
    }
    m_choice = chaseChoice(m_input->menu, m_candidates, ci, m_p);
    m_lastDecisionUtc = state.nowUtc;
    if (!state.explain)
        return {m_choice, state.region};
    return {m_choice, state.region,
            std::string(m_svr ? "SVR-predicted" : "forecast") + " intensity " + intensityText(ci) +
                ": of the power limits, the one of least Chase cost [eta x power x intensity + (1 - eta) x "
                "max power x max intensity] per token, eta " +
                fixedNumber(m_p.eta, 2)};
}

PolicyInfo chasePolicyInfo() {
    return {
        "chase",
        "Keeps place and scale; every 30 min sets the GPU power limit minimising Chase's cost "
        "[eta P CI + (1 - eta) maxP maxCI] / throughput on the next interval's predicted CI.",
        "Chase (Yang, Meng, Chung, Chowdhury, 2023); power-limit profiles as in Zeus (NSDI 2023)",
        {numberOption("eta", "0.5", 0, 1, "weight of carbon against time, 0-1"),
         numberOption("max_power_w", "300", 1, 1e5, "normalising power, W (Chase: the A40's maximum limit)"),
         numberOption("max_ci", "750", 1, 1e5, "normalising carbon intensity, g/kWh"),
         numberOption("interval_minutes", "30", 1, 24 * 60, "how often the limit is re-chosen, min"),
         choiceOption("predictor", "forecast", {"forecast", "svr"},
                      "forecast (the run's forecaster) | svr (Chase's RBF SVR on the past 48 slots)"),
         choiceOption("svr_fit", "once-raw", {"once-raw", "refit-standardised"},
                      "the SVR predictor's fit: once-raw (Chase's code: fitted once before the start on raw "
                      "values, C 100, gamma 1e-4) | refit-standardised (refitted every slot on standardised "
                      "values, scikit-learn's defaults)"),
         numberOption("host_share", "0", 0, 1,
                      "share of the nodes' overhead power counted in P: 0, Chase's cost (GPU power, as Zeus "
                      "measures it); 1, the corrected form that counts the host too")},
        {},
        {0x56B4E9, LineDash::Solid, PlotMarker::CrossCircle},
        [](const PolicyOptions& o) {
            ChaseParameters p;
            p.eta = o.number("eta");
            p.maxPowerW = o.number("max_power_w");
            p.maxCiGPerKwh = o.number("max_ci");
            p.intervalS = 60.0 * o.number("interval_minutes");
            p.svr = o.text("predictor") == "svr";
            p.svrFit =
                o.text("svr_fit") == "refit-standardised" ? SvrFit::RefitStandardised : SvrFit::OnceRaw;
            p.hostShare = o.number("host_share");
            return std::make_unique<ChasePolicy>(p);
        }};
}

} // namespace carbon3d
