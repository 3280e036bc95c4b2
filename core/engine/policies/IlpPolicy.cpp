// SPDX-License-Identifier: MIT
#include "engine/policies/IlpPolicy.h"

#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/ScheduleGraph.h"

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

// The program's GLPK columns: one binary per allowed transition of the schedule graph, except that a
// switch between two options passes through a per-slot hub (out of option i, into option k). The
// engine charges a reconfiguration the same whatever option it leaves, so the hub loses nothing and
// needs 2K columns per slot instead of K x K (a fifth of the columns for an 18-option menu).
// Plus u[s][k], the unused tail of the slot in which the job completes.
struct ProgramColumns {
    struct Arc {
        int slot = 0;
        std::size_t to = 0; // state index
        int column = 0;
    };
    std::vector<Arc> arcsIntoStates; // direct and hub-out arcs: what each slot's state is
    std::vector<int> direct;         // [slot][from][to]: column, 0 when absent
    std::vector<int> hubIn;          // [slot][from option state]
    std::vector<int> hubOut;         // [slot][to option state]
    int columnCount = 0;
};

ProgramColumns buildProgram(glp_prob* lp, const ScheduleGraph& graph, const CostModel& costs, double target) {
    const std::size_t n = graph.stateCount();
    const auto slots = static_cast<std::size_t>(graph.slotCount());
    ProgramColumns program;
    program.direct.assign(slots * n * n, 0);
    program.hubIn.assign(slots * n, 0);
    program.hubOut.assign(slots * n, 0);
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
    auto addBinary = [lp](double carbonG) {
        const int column = glp_add_cols(lp, 1);
        glp_set_col_kind(lp, column, GLP_BV);
        glp_set_obj_coef(lp, column, carbonG);
        return column;
    };
    glp_set_obj_dir(lp, GLP_MIN);
    // Work units (1e9s) and grams (1e5s) in one matrix trouble the simplex: the work row is scaled.
    const double workScale = std::max(target, 1.0);
    std::vector<std::pair<int, double>> work;
    auto running = [&graph](std::size_t i) { return graph.stateOf(i) >= 0; };
    std::vector<bool> reachable(n, false);
    reachable[graph.initialState()] = true;
    // Arcs into each state in the previous slot: the flow that must leave it in this one.
    std::vector<std::vector<std::pair<int, double>>> intoPrevious(n);
    std::vector<int> tailPrevious(n, 0);
    for (std::size_t s = 0; s < slots; ++s) {
        const int slot = static_cast<int>(s);
        const double d = graph.piece(slot).durationS;
        std::vector<std::vector<std::pair<int, double>>> into(n);
        std::vector<std::vector<std::pair<int, double>>> usable(n); // -usable seconds per arc into a state
        std::vector<std::vector<std::pair<int, double>>> outOf(n);
        std::vector<std::pair<int, double>> hubBalance;
        auto addArcInto = [&](std::size_t to, int column, const SlotTransition& t) {
            program.arcsIntoStates.push_back({slot, to, column});
            into[to].emplace_back(column, 1.0);
            usable[to].emplace_back(column, -t.usableS);
            if (t.work > 0.0)
                work.emplace_back(column, t.work / workScale);
        };
        for (std::size_t i = 0; i < n; ++i) {
            if (!reachable[i])
                continue;
            for (std::size_t j = 0; j < n; ++j) {
                const SlotTransition* t = graph.transition(slot, i, j);
                if (t == nullptr || (running(i) && running(j) && i != j))
                    continue; // switches go through the hub
                const int column = addBinary(t->carbonG);
                program.direct[(s * n + i) * n + j] = column;
                addArcInto(j, column, *t);
                outOf[i].emplace_back(column, 1.0);
            }
            if (running(i) && costs.optionCount() > 1) {
                const int column = addBinary(0.0);
                program.hubIn[s * n + i] = column;
                outOf[i].emplace_back(column, 1.0);
                hubBalance.emplace_back(column, 1.0);
            }
        }
        if (!hubBalance.empty()) {
            for (std::size_t j = 0; j < n; ++j) {
                if (!running(j))
                    continue;
                // Any other option's switch into j costs the same.
                const std::size_t other = graph.indexOf(graph.stateOf(j) == 0 ? 1 : 0);
                const SlotTransition* t = graph.transition(slot, other, j);
                const int column = addBinary(t->carbonG);
                program.hubOut[s * n + j] = column;
                addArcInto(j, column, *t);
                hubBalance.emplace_back(column, -1.0);
            }
            addRow(hubBalance, GLP_FX, 0.0, 0.0);
        }
        // Flow: one unit leaves the current state; what enters a state in slot s-1 leaves it in slot s.
        for (std::size_t i = 0; i < n; ++i) {
            if (s == 0 && i == graph.initialState()) {
                addRow(outOf[i], GLP_FX, 1.0, 1.0);
            } else if (s > 0 && !(intoPrevious[i].empty() && outOf[i].empty())) {
                std::vector<std::pair<int, double>> balance = outOf[i];
                for (const auto& [column, value] : intoPrevious[i])
                    balance.emplace_back(column, -value);
                addRow(balance, GLP_FX, 0.0, 0.0);
            }
        }
        // The previous slot's unused tail needs the job to finish now (tails exist only when it can).
        for (std::size_t k = 0; k < n && s > 0; ++k) {
            if (tailPrevious[k] == 0)
                continue;
            const int finish = program.direct[(s * n + k) * n + graph.indexOf(kFinished)];
            std::vector<std::pair<int, double>> bound{{tailPrevious[k], 1.0}};
            if (finish != 0)
                bound.emplace_back(finish, -graph.piece(slot - 1).durationS);
            addRow(bound, GLP_UP, 0.0, 0.0);
        }
        // u[s][k] <= the seconds of slot s that option k trains.
        for (std::size_t k = 0; k < n; ++k) {
            tailPrevious[k] = 0;
            if (!graph.canFinish() || !running(k) || usable[k].empty() || d <= 0.0)
                continue;
            const int tail = glp_add_cols(lp, 1);
            glp_set_col_kind(lp, tail, GLP_CV);
            glp_set_col_bnds(lp, tail, GLP_DB, 0.0, d);
            glp_set_obj_coef(lp, tail, -costs.costRateGPerS(graph.stateOf(k), graph.piece(slot).ciGPerKwh));
            work.emplace_back(tail, -costs.workRate(graph.stateOf(k)) / workScale);
            std::vector<std::pair<int, double>> bound = usable[k];
            bound.emplace_back(tail, 1.0);
            addRow(bound, GLP_UP, 0.0, 0.0);
            tailPrevious[k] = tail;
        }
        for (std::size_t i = 0; i < n; ++i)
            reachable[i] = !into[i].empty();
        intoPrevious = std::move(into);
    }
    addRow(work, GLP_LO, target / workScale, 0.0);
    glp_load_matrix(lp, static_cast<int>(ia.size()) - 1, ia.data(), ja.data(), ar.data());
    program.columnCount = glp_get_num_cols(lp);
    return program;
}

// A path as GLPK column values (1-based, tails 0), for glp_ios_heur_sol.
std::vector<double> columnsOf(const ProgramColumns& program, const ScheduleGraph& graph,
                              const SchedulePath& path) {
    const std::size_t n = graph.stateCount();
    std::vector<double> columns(static_cast<std::size_t>(program.columnCount) + 1, 0.0);
    std::size_t before = graph.initialState();
    for (std::size_t s = 0; s < path.states.size(); ++s) {
        const std::size_t at = path.states[s];
        if (graph.stateOf(before) >= 0 && graph.stateOf(at) >= 0 && before != at) {
            columns[static_cast<std::size_t>(program.hubIn[s * n + before])] = 1.0;
            columns[static_cast<std::size_t>(program.hubOut[s * n + at])] = 1.0;
        } else {
            columns[static_cast<std::size_t>(program.direct[(s * n + before) * n + at])] = 1.0;
        }
        before = at;
    }
    return columns;
}

// The root LP's iteration cap per row and column (see solve): 10 x (rows + columns) is about 70,000 on the
// default scenario's horizons, 35 times what its slowest root LP takes.
constexpr int kRootIterationsPerRowAndColumn = 10;

// Branch-and-bound hooks: offer the heuristic schedule once; stop after a node budget (deterministic,
// unlike GLPK's wall-clock tm_lim, which stays as a safeguard).
struct SearchHooks {
    std::vector<double> incumbent;
    bool offered = false;
    int nodeLimit = 0;
    bool nodeLimitHit = false;
};

void onBranchAndBound(glp_tree* tree, void* info) {
    auto* hooks = static_cast<SearchHooks*>(info);
    const int reason = glp_ios_reason(tree);
    if (reason == GLP_IHEUR && !hooks->offered && !hooks->incumbent.empty()) {
        hooks->offered = true;
        glp_ios_heur_sol(tree, hooks->incumbent.data());
    }
    if (reason == GLP_ISELECT) {
        int active = 0;
        int current = 0;
        int created = 0;
        glp_ios_tree_size(tree, &active, &current, &created);
        if (created > hooks->nodeLimit) {
            hooks->nodeLimitHit = true;
            glp_ios_terminate(tree);
        }
    }
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
            {"mip_gap", text(m_p.mipGap)},
            {"node_limit", std::to_string(m_p.nodeLimit)}};
}

void IlpPolicy::prepare(const PlanningContext& context) {
    m_costs = &context.costs;
    m_limited = 0;
    m_firstLimit.clear();
    m_plan.clear();
    m_planStarts.clear();
    m_solvedAt = -1.0;
    m_solves = 0;
    m_fallbacks = 0;
    m_firstFailure.clear();
}

std::vector<std::string> IlpPolicy::warnings() const {
    std::vector<std::string> out;
    if (m_limited > 0)
        out.push_back("ilp: " + std::to_string(m_limited) + " of " + std::to_string(m_solves) +
                      " solves stopped at a search limit (first: " + m_firstLimit +
                      ") and kept the best schedule found, not proven within mip_gap");
    if (m_fallbacks > 0)
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
    for (const ForecastPiece& piece : pieces)
        result.pieceStarts.push_back(piece.startUtc);
    std::lock_guard<std::mutex> lock(glpkMutex());
    glp_term_out(GLP_OFF);
    glp_prob* lp = glp_create_prob();
    const ScheduleGraph graph(costs, pieces, current, /*canFinish=*/deadline <= horizonEnd + 1e-9);
    const ProgramColumns program = buildProgram(lp, graph, costs, target);
    // lambda's scale: grams per work unit of the dirtiest piece at the fastest option.
    double dirtiest = 0.0;
    for (const ForecastPiece& piece : pieces)
        dirtiest = std::max(dirtiest, piece.ciGPerKwh);
    SearchHooks hooks;
    hooks.nodeLimit = m_p.nodeLimit;
    const SchedulePath seed =
        lagrangianSchedule(graph, target, costs.costRateGPerS(fastest, dirtiest) / costs.workRate(fastest));
    if (!seed.states.empty())
        hooks.incumbent = columnsOf(program, graph, seed);
    // Without presolve the columns GLPK's heuristic hook takes are ours, so the LP relaxation is solved
    // first (glp_intopt requires it then).
    glp_scale_prob(lp, GLP_SF_AUTO);
    glp_smcp simplex;
    glp_init_smcp(&simplex);
    simplex.msg_lev = GLP_MSG_OFF;
    simplex.tm_lim = static_cast<int>(std::max(1.0, m_p.timeLimitMs));
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_OFF;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = static_cast<int>(std::max(1.0, m_p.timeLimitMs));
    parm.mip_gap = m_p.mipGap;
    parm.cb_func = onBranchAndBound;
    parm.cb_info = &hooks;
    glp_adv_basis(lp, 0); // a crash basis: the root LP in less than half the iterations from the standard one
    // The schedule graph's LP is highly degenerate (many options of nearly equal rates), and GLPK's simplex
    // can stall on it: from the crash basis, with either ratio test, one root LP of the default scenario
    // ran for the whole time limit (about 300,000 iterations in 20 s) where the others need at most about
    // 2,000. An iteration cap far above that detects the stall deterministically (the time limit depends
    // on the machine), and the solve restarts from the standard basis with the other ratio test
    // (docs/POLICIES.md, ilp).
    simplex.it_lim = kRootIterationsPerRowAndColumn * (glp_get_num_rows(lp) + glp_get_num_cols(lp));
    int lpRet = glp_simplex(lp, &simplex);
    if (lpRet == GLP_EITLIM) {
        glp_std_basis(lp);
        simplex.r_test = GLP_RT_STD;
        lpRet = glp_simplex(lp, &simplex);
    }
    const bool lpInfeasible =
        lpRet == 0 && (glp_get_status(lp) == GLP_NOFEAS || glp_get_prim_stat(lp) == GLP_NOFEAS);
    const int ret = lpRet != 0 || lpInfeasible ? lpRet : glp_intopt(lp, &parm);
    const bool haveSchedule =
        !lpInfeasible && lpRet == 0 && glp_mip_status(lp) != GLP_UNDEF && glp_mip_status(lp) != GLP_NOFEAS;
    // GLP_EMIPGAP: stopped because the incumbent is within mip_gap of the bound, which is what was asked.
    // A node or time limit with an incumbent keeps it (a schedule of the same model, at least as good as
    // the heuristic's) and says so.
    if (haveSchedule && (ret == 0 || ret == GLP_EMIPGAP || ret == GLP_ESTOP || ret == GLP_ETMLIM)) {
        result.solved = true;
        if (ret == GLP_ESTOP && hooks.nodeLimitHit)
            result.limit = "node limit of " + std::to_string(m_p.nodeLimit);
        else if (ret == GLP_ETMLIM)
            result.limit = "time limit of " + std::to_string(parm.tm_lim) + " ms";
        result.plan.assign(pieces.size(), kPaused);
        for (const ProgramColumns::Arc& arc : program.arcsIntoStates)
            if (graph.stateOf(arc.to) >= 0 && glp_mip_col_val(lp, arc.column) > 0.5)
                result.plan[static_cast<std::size_t>(arc.slot)] = graph.stateOf(arc.to);
    } else {
        result.failure = lpInfeasible || ret == GLP_ENOPFS || glp_mip_status(lp) == GLP_NOFEAS
                             ? "infeasible: the work target cannot be met inside the horizon"
                         : ret == GLP_ETMLIM ? "time limit of " + std::to_string(parm.tm_lim) + " ms"
                         : ret == GLP_EITLIM ? "the root LP stalled (" + std::to_string(simplex.it_lim) +
                                                   " simplex iterations, twice)"
                                             : "GLPK error " + std::to_string(ret);
        result.plan = greedyPlan(costs, pieces, target);
    }
    glp_delete_prob(lp);
    // GLPK's environment is per thread and outlives the problem: freed here, a pool thread that solved
    // once does not keep 21 KB until it exits, and a thread that exits leaks nothing (LeakSanitizer).
    glp_free_env();
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
    std::string solveNote; // what this decision's solve did, for the reason
    if (stale) {
        const Forecast& forecast = state.forecast();
        const auto deadline = static_cast<double>(state.deadlineUtc);
        IlpSolve solved = solve(forecast, now, deadline, state.workRemaining, state.currentOption);
        ++m_solves;
        if (!solved.limit.empty() && m_limited++ == 0)
            m_firstLimit = solved.limit + " at " + formatIsoUtc(state.nowUtc);
        if (!solved.solved && m_fallbacks++ == 0)
            m_firstFailure = solved.failure + " at " + formatIsoUtc(state.nowUtc);
        m_plan = std::move(solved.plan);
        m_planStarts = std::move(solved.pieceStarts);
        m_solvedAt = now;
        index = 0;
        if (state.explain)
            solveNote = solved.solved
                            ? (solved.limit.empty()
                                   ? "; re-solved now"
                                   : "; re-solved now, stopped by a search limit (" + solved.limit + ")")
                            : "; the solver failed now (" + solved.failure + "): greedy fallback";
    }
    if (index >= m_plan.size())
        return {m_costs->fastestOption(), state.region,
                state.explain ? "the plan ran out before the work did: the fastest option" : ""};
    if (!state.explain)
        return {m_plan[index], state.region};
    return {m_plan[index], state.region,
            "follows the plan of least forecast " + std::string(ReasonUnits(objective()).emissions()) +
                " of the integer program solved at " + formatIsoUtc(static_cast<UtcSeconds>(m_solvedAt)) +
                " on the forecast to the deadline (re-solved every " + hoursText(m_p.resolveHours * 3600.0) +
                " or when the run leaves the plan)" + solveNote};
}

PolicyInfo ilpPolicyInfo() {
    return {"ilp",
            "Integer program per rolling horizon: which option (or none) runs in each slot, least forecast "
            "carbon with switching costs, meeting the work target; greedy fallback on failure or timeout.",
            "ILP scheduler of the carbon-aware training article (docs/MODEL.md 9.7), solved with GLPK",
            {numberOption("horizon_hours", "48", 1, 24 * 365, "rolling horizon of each integer program, h"),
             numberOption("resolve_hours", "6", 0, 24 * 365,
                          "re-solve at least this often (and when the run leaves the plan), h"),
             numberOption("mip_gap", "0.01", 0, 1, "relative MIP gap at which a solve stops (GLPK mip_gap)"),
             numberOption("node_limit", "300", 1, 1e9,
                          "branch-and-bound nodes per solve; the best schedule found is kept"),
             numberOption("time_limit_ms", "300000", 1, 3.6e6,
                          "GLPK wall-clock limit per solve (tm_lim), ms: a reported safety net"),
             objectiveOption()},
            {},
            {0x0072B2, LineDash::Dashed, PlotMarker::CrossSquare},
            [](const PolicyOptions& o) {
                IlpParameters p;
                p.horizonHours = o.number("horizon_hours");
                p.resolveHours = o.number("resolve_hours");
                p.timeLimitMs = o.number("time_limit_ms");
                p.mipGap = o.number("mip_gap");
                p.nodeLimit = static_cast<int>(o.number("node_limit"));
                return std::make_unique<IlpPolicy>(p);
            }};
}

} // namespace carbon3d
