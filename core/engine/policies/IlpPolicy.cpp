// SPDX-License-Identifier: MIT
#include "engine/policies/IlpPolicy.h"

#include <algorithm>
#include <cmath>
#include <glpk.h>
#include <mutex>
#include <numeric>
#include <sstream>

namespace carbon3d {

namespace {

// GLPK keeps process-wide state (its environment, terminal hooks): one solve at a time.
std::mutex& glpkMutex() {
    static std::mutex mutex;
    return mutex;
}

// Fastest option in the cheapest pieces until the target is met.
std::vector<int> greedyPlan(const CostModel& costs, const std::vector<ForecastPiece>& pieces, double target) {
    std::vector<int> plan(pieces.size(), kPaused);
    std::vector<std::size_t> order(pieces.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&pieces](std::size_t a, std::size_t b) {
        return pieces[a].ciGPerKwh < pieces[b].ciGPerKwh;
    });
    const int fastest = costs.fastestOption();
    double covered = 0.0;
    for (std::size_t i : order) {
        if (covered >= target)
            break;
        plan[i] = fastest;
        covered += costs.workRate(fastest) * pieces[i].durationS;
    }
    return plan;
}

} // namespace

std::map<std::string, std::string> IlpPolicy::options() const {
    auto text = [](double value) {
        std::ostringstream out;
        out << value;
        return out.str();
    };
    return {{"horizon_hours", text(m_p.horizonHours)},
            {"resolve_hours", text(m_p.resolveHours)},
            {"time_limit_ms", text(m_p.timeLimitMs)},
            {"mip_gap", text(m_p.mipGap)}};
}

void IlpPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_timeouts = 0;
    m_plan.clear();
    m_planStarts.clear();
    m_solvedAt = -1.0;
    m_solves = 0;
    m_fallbacks = 0;
    m_firstFailure.clear();
}

std::vector<std::string> IlpPolicy::warnings() const {
    std::vector<std::string> out;
    if (m_timeouts > 0)
        out.push_back("ilp: " + std::to_string(m_timeouts) + " of " + std::to_string(m_solves) +
                      " solves hit the time limit and kept GLPK's best schedule so far (not proven optimal)");
    if (m_fallbacks == 0)
        return out;
    out.push_back("ilp: " + std::to_string(m_fallbacks) + " of " + std::to_string(m_solves) +
                  " solves used the greedy fallback (first: " + m_firstFailure + ")");
    return out;
}

IlpSolve IlpPolicy::solve(const Forecast& forecast, double now, double deadline, double remaining,
                          int current) const {
    const CostModel& costs = *m_costs;
    const double horizonEnd = std::min(deadline, now + m_p.horizonHours * 3600.0);
    const std::vector<ForecastPiece> pieces = forecast.pieces(now, std::max(now + 1.0, horizonEnd), false);
    const int fastest = costs.fastestOption();
    double target = remaining;
    if (deadline > horizonEnd + 1e-9) {
        const double after = costs.workRate(fastest) * (deadline - horizonEnd);
        target = std::max(remaining - after, remaining * (horizonEnd - now) / (deadline - now));
    }
    IlpSolve result;
    const int slots = static_cast<int>(pieces.size());
    const int options = costs.optionCount();
    // Column layout: x, r, p (slots x options each), then v (slots).
    auto x = [options](int s, int k) { return 1 + s * options + k; };
    auto r = [options, slots](int s, int k) { return 1 + slots * options + s * options + k; };
    auto p = [options, slots](int s, int k) { return 1 + 2 * slots * options + s * options + k; };
    auto v = [options, slots](int s) { return 1 + 3 * slots * options + s; };
    auto w = [options, slots](int s) { return 1 + 3 * slots * options + slots + s; };
    // u[s][k]: seconds of slot s left unused because the job completes inside it (continuous, 0..d,
    // only in the slot before the job counts as finished): the engine charges only the part used.
    auto u = [options, slots](int s, int k) { return 1 + 3 * slots * options + 2 * slots + s * options + k; };
    const int columns = 4 * slots * options + 2 * slots;
    // w[s]: the job is finished by slot s (holds nothing, never runs again). Only when the deadline is
    // inside the horizon: before that the job is certainly not done at the horizon's end.
    const bool canFinish = deadline <= horizonEnd + 1e-9;
    const bool started0 = current != kNotStarted;
    const bool running0 = current >= 0;
    const double reconfigS = costs.transitionSeconds(0, options > 1 ? 1 : 0);
    const double resumeS = costs.transitionSeconds(kPaused, 0);

    std::lock_guard<std::mutex> lock(glpkMutex());
    glp_term_out(GLP_OFF);
    glp_prob* lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, columns);
    for (int c = 1; c <= columns; ++c)
        glp_set_col_kind(lp, c, GLP_BV);
    for (int s = 0; s < slots; ++s)
        for (int k = 0; k < options; ++k) {
            glp_set_col_kind(lp, u(s, k), GLP_CV);
            const double d = pieces[static_cast<std::size_t>(s)].durationS;
            // GLPK rejects a double bound with equal ends (GLP_EBOUND): fix the column instead.
            if (canFinish && d > 0.0)
                glp_set_col_bnds(lp, u(s, k), GLP_DB, 0.0, d);
            else
                glp_set_col_bnds(lp, u(s, k), GLP_FX, 0.0, 0.0);
        }
    std::vector<int> ia{0};
    std::vector<int> ja{0};
    std::vector<double> ar{0.0};
    auto addRow = [&](const std::vector<std::pair<int, double>>& terms, int type, double lb, double ub) {
        const int row = glp_add_rows(lp, 1);
        glp_set_row_bnds(lp, row, type, lb, ub);
        for (const auto& [column, value] : terms) {
            ia.push_back(row);
            ja.push_back(column);
            ar.push_back(value);
        }
    };
    std::vector<std::pair<int, double>> work;
    for (int s = 0; s < slots; ++s) {
        const ForecastPiece& piece = pieces[static_cast<std::size_t>(s)];
        const double d = piece.durationS;
        const double ci = piece.ciGPerKwh;
        const double pauseCost = costs.costRateGPerS(kPaused, ci) * d;
        // Objective of v: a started job pays the pause cost unless it runs (then the x term replaces it).
        glp_set_obj_coef(lp, v(s), pauseCost);
        std::vector<std::pair<int, double>> one;
        std::vector<std::pair<int, double>> vge{{v(s), 1.0}};
        std::vector<std::pair<int, double>> vle{{v(s), 1.0}};
        for (int k = 0; k < options; ++k) {
            const double rate = costs.workRate(k);
            const double runCost = costs.costRateGPerS(k, ci);
            const double overCost = costs.overheadCostRateGPerS(k, ci);
            const double tr = std::min(d, reconfigS);
            const double tp = std::min(d, resumeS);
            glp_set_obj_coef(lp, x(s, k), runCost * d - pauseCost);
            glp_set_obj_coef(lp, r(s, k), (overCost - runCost) * tr);
            glp_set_obj_coef(lp, p(s, k), (overCost - runCost) * tp);
            work.emplace_back(x(s, k), rate * d);
            work.emplace_back(r(s, k), -rate * tr);
            work.emplace_back(p(s, k), -rate * tp);
            work.emplace_back(u(s, k), -rate);
            // An unused tail saves the running charge (a finished job draws and holds nothing).
            glp_set_obj_coef(lp, u(s, k), -costs.costRateGPerS(k, ci));
            // u <= d x[s][k]; u <= d w[s+1] (the job is finished from the next slot on; the last slot of a
            // horizon that reaches the deadline needs no such slot).
            addRow({{u(s, k), 1.0}, {x(s, k), -d}}, GLP_UP, 0.0, 0.0);
            if (s + 1 < slots)
                addRow({{u(s, k), 1.0}, {w(s + 1), -d}}, GLP_UP, 0.0, 0.0);
            one.emplace_back(x(s, k), 1.0);
            vge.emplace_back(x(s, k), -1.0);
            vle.emplace_back(x(s, k), -1.0);
            // r = x[s][k] AND (another option ran in s-1); p = x[s][k] AND (paused in s-1, job started).
            std::vector<std::pair<int, double>> rge{{r(s, k), 1.0}, {x(s, k), -1.0}};
            std::vector<std::pair<int, double>> rle{{r(s, k), 1.0}};
            std::vector<std::pair<int, double>> pge{{p(s, k), 1.0}, {x(s, k), -1.0}};
            std::vector<std::pair<int, double>> ple{{p(s, k), 1.0}};
            double otherBefore = 0.0; // constant part when s == 0
            double anyBefore = 0.0;
            double startedBefore = started0 ? 1.0 : 0.0;
            if (s == 0) {
                otherBefore = running0 && current != k ? 1.0 : 0.0;
                anyBefore = running0 ? 1.0 : 0.0;
            } else {
                for (int j = 0; j < options; ++j) {
                    if (j != k) {
                        rge.emplace_back(x(s - 1, j), -1.0);
                        rle.emplace_back(x(s - 1, j), -1.0);
                    }
                    pge.emplace_back(x(s - 1, j), 1.0);
                    ple.emplace_back(x(s - 1, j), 1.0);
                }
                pge.emplace_back(v(s - 1), -1.0);
                startedBefore = 0.0;
            }
            // r >= x + other - 1; r <= x; r <= other.
            addRow(rge, GLP_LO, otherBefore - 1.0, 0.0);
            addRow({{r(s, k), 1.0}, {x(s, k), -1.0}}, GLP_UP, 0.0, 0.0);
            addRow(rle, GLP_UP, 0.0, otherBefore);
            // p >= x - any + started - 1; p <= x; p <= 1 - any; p <= started.
            addRow(pge, GLP_LO, startedBefore - anyBefore - 1.0, 0.0);
            addRow({{p(s, k), 1.0}, {x(s, k), -1.0}}, GLP_UP, 0.0, 0.0);
            addRow(ple, GLP_UP, 0.0, 1.0 - anyBefore);
            if (s == 0)
                addRow({{p(s, k), 1.0}}, GLP_UP, 0.0, startedBefore);
            else
                addRow({{p(s, k), 1.0}, {v(s - 1), -1.0}}, GLP_UP, 0.0, 0.0);
        }
        one.emplace_back(w(s), 1.0); // a finished job runs nothing
        addRow(one, GLP_UP, 0.0, 1.0);
        if (!canFinish)
            glp_set_col_bnds(lp, w(s), GLP_FX, 0.0, 0.0);
        addRow({{v(s), 1.0}, {w(s), 1.0}}, GLP_UP, 0.0, 1.0); // finished: holds no GPUs
        // v[s] >= any x[s]; v[s] >= v[s-1] - w[s] (held until finished); v[s] <= v[s-1] + any x[s].
        addRow(vge, GLP_LO, 0.0, 0.0);
        if (s == 0) {
            addRow({{v(s), 1.0}, {w(s), 1.0}}, GLP_LO, started0 ? 1.0 : 0.0, 0.0);
            addRow(vle, GLP_UP, 0.0, started0 ? 1.0 : 0.0);
        } else {
            addRow({{w(s), 1.0}, {w(s - 1), -1.0}}, GLP_LO, 0.0, 0.0);
            addRow({{v(s), 1.0}, {v(s - 1), -1.0}, {w(s), 1.0}}, GLP_LO, 0.0, 0.0);
            std::vector<std::pair<int, double>> le = vle;
            le.emplace_back(v(s - 1), -1.0);
            addRow(le, GLP_UP, 0.0, 0.0);
        }
    }
    addRow(work, GLP_LO, target, 0.0);
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());

    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = static_cast<int>(std::max(1.0, m_p.timeLimitMs));
    parm.mip_gap = m_p.mipGap;
    parm.cov_cuts = GLP_ON;
    parm.mir_cuts = GLP_ON;
    parm.fp_heur = GLP_ON;
    const int ret = glp_intopt(lp, &parm);
    const int status = glp_mip_status(lp);
    // A timeout with an incumbent keeps the incumbent (a feasible schedule of the same model, better than
    // the greedy); it is still reported as a timeout.
    const bool incumbent = ret == GLP_ETMLIM && status == GLP_FEAS;
    // GLP_EMIPGAP: the search stopped because the incumbent is within mip_gap of the bound - a solution
    // by the tolerance asked for, not a failure.
    const bool withinGap = ret == GLP_EMIPGAP && status == GLP_FEAS;
    if ((ret == 0 && status == GLP_OPT) || withinGap || incumbent) {
        result.solved = !incumbent;
        if (incumbent)
            result.failure = "time limit of " + std::to_string(parm.tm_lim) + " ms (incumbent kept)";
        result.plan.assign(pieces.size(), kPaused);
        for (int s = 0; s < slots; ++s)
            for (int k = 0; k < options; ++k)
                if (glp_mip_col_val(lp, x(s, k)) > 0.5)
                    result.plan[static_cast<std::size_t>(s)] = k;
    } else {
        result.failure = ret == GLP_ETMLIM ? "time limit of " + std::to_string(parm.tm_lim) + " ms"
                         : ret == GLP_ENOPFS || status == GLP_NOFEAS
                             ? "infeasible: the work target cannot be met inside the horizon"
                             : "GLPK error " + std::to_string(ret) + ", status " + std::to_string(status);
        result.plan = greedyPlan(costs, pieces, target);
    }
    glp_delete_prob(lp);
    return result;
}

Decision IlpPolicy::decide(const DecisionState& state) {
    const auto now = static_cast<double>(state.nowUtc);
    // Where the current plan is at `now` (its pieces start at the solve time).
    std::size_t index = m_planStarts.size();
    for (std::size_t i = 0; i < m_planStarts.size(); ++i)
        if (m_planStarts[i] <= now + 1e-9 &&
            (i + 1 == m_planStarts.size() || m_planStarts[i + 1] > now + 1e-9))
            index = i;
    const bool stale = m_solvedAt < 0.0 || now - m_solvedAt >= m_p.resolveHours * 3600.0 - 1e-9 ||
                       index >= m_plan.size() ||
                       (index > 0 && state.currentOption != m_plan[index - 1] &&
                        !(state.currentOption < 0 && m_plan[index - 1] < 0));
    if (stale) {
        const Forecast& forecast = state.forecast();
        const double deadline = static_cast<double>(state.deadlineUtc);
        IlpSolve solved = solve(forecast, now, deadline, state.workRemaining, state.currentOption);
        ++m_solves;
        if (!solved.solved && solved.failure.find("incumbent") != std::string::npos) {
            ++m_timeouts;
        } else if (!solved.solved) {
            ++m_fallbacks;
            if (m_firstFailure.empty())
                m_firstFailure = solved.failure + " at " + formatIsoUtc(state.nowUtc);
        }
        m_plan = std::move(solved.plan);
        m_planStarts.clear();
        for (const ForecastPiece& piece : forecast.pieces(
                 now, std::max(now + 1.0, std::min(deadline, now + m_p.horizonHours * 3600.0)), false))
            m_planStarts.push_back(piece.startUtc);
        m_solvedAt = now;
        index = 0;
    }
    if (index >= m_plan.size())
        return {m_costs->fastestOption(), state.region};
    return {m_plan[index], state.region};
}

} // namespace carbon3d
