// SPDX-License-Identifier: MIT
#include "engine/policies/IlpPolicy.h"

#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/policies/DecisionReasons.h"
#include "engine/policies/HorizonLabelSearch.h"
#include "engine/policies/ScheduleGraph.h"

#include <algorithm>
#include <cmath>
#include <glpk.h>
#include <limits>
#include <mutex>
#include <numeric>

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
// reconfiguration (a switch between options of different shard groups, CostModel::shardGroup) passes
// through a per-slot hub: out of option i, into option k at the price of a reconfiguration into k,
// which the engine charges the same whatever option it leaves: 2K columns per slot instead of K x K.
// Switches inside a shard group (a resize, or a power limit alone) cost less and are direct arcs, priced
// as the engine charges them; the hub priced them as reconfigurations until 2026-12-07. The hub still
// offers such a switch too, at a reconfiguration's longer overhead: less work and (overhead power below
// training power) less carbon in that slot than the engine will spend. A schedule takes that route only
// where the slot's lost seconds are worth less than their carbon, which a slot worth training in is not;
// forbidding it exactly (a row per group, or G x G hub arcs) made branch and bound about 3 times slower
// (docs/POLICIES.md, ilp).
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

using Terms = std::vector<std::pair<int, double>>; // (column, coefficient) of one row

// Builds the program slot by slot, in the order GLPK numbers its rows and columns: each slot's arcs, its
// hub, then the rows that tie it to the previous slot. Holds the sparse matrix until it is loaded, and
// what one slot hands to the next.
class ProgramBuilder {
public:
    ProgramBuilder(glp_prob* lp, const ScheduleGraph& graph, const CostModel& costs, double target)
        : m_lp(lp)
        , m_graph(graph)
        , m_costs(costs)
        , m_target(target)
        , m_n(graph.stateCount())
        , m_slots(static_cast<std::size_t>(graph.slotCount()))
        // Work units (1e9s) and grams (1e5s) in one matrix trouble the simplex: the work row is scaled.
        , m_workScale(std::max(target, 1.0))
        , m_groups(static_cast<std::size_t>(costs.shardGroupCount()))
        , m_reachable(m_n, false)
        , m_intoPrevious(m_n)
        , m_tailPrevious(m_n, 0) {
        m_program.direct.assign(m_slots * m_n * m_n, 0);
        m_program.hubIn.assign(m_slots * m_n, 0);
        m_program.hubOut.assign(m_slots * m_n, 0);
        m_reachable[graph.initialState()] = true;
        m_otherGroupOption.assign(m_n, 0);
        for (std::size_t j = 0; j < m_n; ++j)
            for (std::size_t x = 0; x < m_n && running(j); ++x)
                if (running(x) && group(x) != group(j))
                    m_otherGroupOption[j] = x;
    }

    // Every slot's columns and rows, then the work row; loads the matrix into the problem. Once, on a
    // temporary: it hands over the columns it built.
    ProgramColumns build() && {
        glp_set_obj_dir(m_lp, GLP_MIN);
        for (std::size_t s = 0; s < m_slots; ++s) {
            beginSlot(s);
            addSlotArcs();
            addHub();
            addFlowRows();
            addPreviousTailRows();
            addTails();
            endSlot();
        }
        addRow(m_work, GLP_LO, m_target / m_workScale, 0.0);
        glp_load_matrix(m_lp, static_cast<int>(m_ia.size()) - 1, m_ia.data(), m_ja.data(), m_ar.data());
        m_program.columnCount = glp_get_num_cols(m_lp);
        return std::move(m_program);
    }

private:
    bool running(std::size_t i) const { return m_graph.stateOf(i) >= 0; }
    std::size_t group(std::size_t i) const {
        return static_cast<std::size_t>(m_costs.shardGroup(m_graph.stateOf(i)));
    }
    // A switch between options of different shard groups: it goes through the hubs.
    bool reconfiguration(std::size_t i, std::size_t j) const {
        return running(i) && running(j) && group(i) != group(j);
    }

    // One row of the matrix, its terms kept until glp_load_matrix.
    void addRow(const Terms& terms, int type, double lb, double ub) {
        const int row = glp_add_rows(m_lp, 1);
        glp_set_row_bnds(m_lp, row, type, lb, ub);
        for (const auto& [column, value] : terms) {
            m_ia.push_back(row);
            m_ja.push_back(column);
            m_ar.push_back(value);
        }
    }

    // One transition's binary column, priced at its carbon.
    int addBinary(double carbonG) {
        const int column = glp_add_cols(m_lp, 1);
        glp_set_col_kind(m_lp, column, GLP_BV);
        glp_set_obj_coef(m_lp, column, carbonG);
        return column;
    }

    // Fresh per-slot terms: this slot's arcs into and out of each state, and its hub's balance.
    void beginSlot(std::size_t s) {
        m_s = s;
        m_slot = static_cast<int>(s);
        m_d = m_graph.piece(m_slot).durationS;
        m_into.assign(m_n, {});
        m_usable.assign(m_n, {});
        m_outOf.assign(m_n, {});
        m_hubBalance.clear();
    }

    // Records an arc that sets this slot's state to `to`: its flow, usable seconds and work.
    void addArcInto(std::size_t to, int column, const SlotTransition& t) {
        m_program.arcsIntoStates.push_back({m_slot, to, column});
        m_into[to].emplace_back(column, 1.0);
        m_usable[to].emplace_back(column, -t.usableS);
        if (t.work > 0.0)
            m_work.emplace_back(column, t.work / m_workScale);
    }

    // Out of each reachable state: its direct arcs, then (a running state) its arc into the hub.
    void addSlotArcs() {
        for (std::size_t i = 0; i < m_n; ++i) {
            if (!m_reachable[i])
                continue;
            for (std::size_t j = 0; j < m_n; ++j) {
                const SlotTransition* t = m_graph.transition(m_slot, i, j);
                if (t == nullptr || reconfiguration(i, j))
                    continue; // through the hubs
                const int column = addBinary(t->carbonG);
                m_program.direct[(m_s * m_n + i) * m_n + j] = column;
                addArcInto(j, column, *t);
                m_outOf[i].emplace_back(column, 1.0);
            }
            if (running(i) && m_groups > 1) {
                const int column = addBinary(0.0);
                m_program.hubIn[m_s * m_n + i] = column;
                m_outOf[i].emplace_back(column, 1.0);
                m_hubBalance.emplace_back(column, 1.0);
            }
        }
    }

    // The hub's arcs out into each option, and its balance row (what enters it leaves it).
    void addHub() {
        if (m_hubBalance.empty())
            return;
        for (std::size_t j = 0; j < m_n; ++j) {
            if (!running(j))
                continue;
            // A reconfiguration into j costs the same from any option of another group.
            const SlotTransition* t = m_graph.transition(m_slot, m_otherGroupOption[j], j);
            const int column = addBinary(t->carbonG);
            m_program.hubOut[m_s * m_n + j] = column;
            addArcInto(j, column, *t);
            m_hubBalance.emplace_back(column, -1.0);
        }
        addRow(m_hubBalance, GLP_FX, 0.0, 0.0);
    }

    // Flow: one unit leaves the current state; what enters a state in slot s-1 leaves it in slot s.
    void addFlowRows() {
        for (std::size_t i = 0; i < m_n; ++i) {
            if (m_s == 0 && i == m_graph.initialState()) {
                addRow(m_outOf[i], GLP_FX, 1.0, 1.0);
            } else if (m_s > 0 && !(m_intoPrevious[i].empty() && m_outOf[i].empty())) {
                Terms balance = m_outOf[i];
                for (const auto& [column, value] : m_intoPrevious[i])
                    balance.emplace_back(column, -value);
                addRow(balance, GLP_FX, 0.0, 0.0);
            }
        }
    }

    // The previous slot's unused tail needs the job to finish now (tails exist only when it can).
    void addPreviousTailRows() {
        for (std::size_t k = 0; k < m_n && m_s > 0; ++k) {
            if (m_tailPrevious[k] == 0)
                continue;
            const int finish = m_program.direct[(m_s * m_n + k) * m_n + m_graph.indexOf(kFinished)];
            Terms bound{{m_tailPrevious[k], 1.0}};
            if (finish != 0)
                bound.emplace_back(finish, -m_graph.piece(m_slot - 1).durationS);
            addRow(bound, GLP_UP, 0.0, 0.0);
        }
    }

    // u[s][k] <= the seconds of slot s that option k trains.
    void addTails() {
        for (std::size_t k = 0; k < m_n; ++k) {
            m_tailPrevious[k] = 0;
            if (!m_graph.canFinish() || !running(k) || m_usable[k].empty() || m_d <= 0.0)
                continue;
            const int tail = glp_add_cols(m_lp, 1);
            glp_set_col_kind(m_lp, tail, GLP_CV);
            glp_set_col_bnds(m_lp, tail, GLP_DB, 0.0, m_d);
            glp_set_obj_coef(m_lp, tail,
                             -m_costs.costRateGPerS(m_graph.stateOf(k), m_graph.piece(m_slot).ciGPerKwh));
            m_work.emplace_back(tail, -m_costs.workRate(m_graph.stateOf(k)) / m_workScale);
            Terms bound = m_usable[k];
            bound.emplace_back(tail, 1.0);
            addRow(bound, GLP_UP, 0.0, 0.0);
            m_tailPrevious[k] = tail;
        }
    }

    // What the next slot needs of this one: the states it can leave, and the arcs into them.
    void endSlot() {
        for (std::size_t i = 0; i < m_n; ++i)
            m_reachable[i] = !m_into[i].empty();
        m_intoPrevious = std::move(m_into);
    }

    glp_prob* m_lp;
    const ScheduleGraph& m_graph;
    const CostModel& m_costs;
    double m_target;
    std::size_t m_n;     // states
    std::size_t m_slots; // forecast pieces
    double m_workScale;
    std::size_t m_groups; // shard groups of the menu
    // Per running state, an option of another shard group (what a reconfiguration into it is priced from).
    std::vector<std::size_t> m_otherGroupOption;
    ProgramColumns m_program;
    // The matrix, 1-based as glp_load_matrix takes it.
    std::vector<int> m_ia{0};
    std::vector<int> m_ja{0};
    std::vector<double> m_ar{0.0};
    Terms m_work; // the work row
    std::vector<bool> m_reachable;
    // Arcs into each state in the previous slot: the flow that must leave it in this one.
    std::vector<Terms> m_intoPrevious;
    std::vector<int> m_tailPrevious;
    // The slot being built.
    std::size_t m_s = 0;
    int m_slot = 0;
    double m_d = 0.0; // its duration, s
    std::vector<Terms> m_into;
    std::vector<Terms> m_usable; // -usable seconds per arc into a state
    std::vector<Terms> m_outOf;
    Terms m_hubBalance;
};

ProgramColumns buildProgram(glp_prob* lp, const ScheduleGraph& graph, const CostModel& costs, double target) {
    return ProgramBuilder(lp, graph, costs, target).build();
}

// A path as GLPK column values (1-based, tails 0), for glp_ios_heur_sol.
std::vector<double> columnsOf(const ProgramColumns& program, const ScheduleGraph& graph,
                              const CostModel& costs, const SchedulePath& path) {
    const std::size_t n = graph.stateCount();
    std::vector<double> columns(static_cast<std::size_t>(program.columnCount) + 1, 0.0);
    std::size_t before = graph.initialState();
    for (std::size_t s = 0; s < path.states.size(); ++s) {
        const std::size_t at = path.states[s];
        const int from = graph.stateOf(before);
        const int to = graph.stateOf(at);
        if (from >= 0 && to >= 0 && costs.shardGroup(from) != costs.shardGroup(to)) {
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

// The work the horizon's program must cover: all that remains when the deadline is inside the horizon,
// else the larger of the pro-rata share and what the fastest option could not do after the horizon.
double horizonTarget(const CostModel& costs, double now, double horizonEnd, double deadline,
                     double remaining) {
    const int fastest = costs.fastestOption();
    double target = remaining;
    if (deadline > horizonEnd + 1e-9) {
        const double after = costs.workRate(fastest) * (deadline - horizonEnd);
        target = std::max(remaining - after, remaining * (horizonEnd - now) / (deadline - now));
    }
    return target;
}

// The Lagrangian-path heuristic's schedule, the incumbent either search starts from; empty states when
// the heuristic finds none.
SchedulePath seedSchedule(const ScheduleGraph& graph, const CostModel& costs, double target) {
    return lagrangianSchedule(graph, target, multiplierScale(graph, costs));
}

// Whether the heuristic's schedule is already within mip_gap of the program's LP bound (by the gap GLPK
// computes), which is where branch and bound, seeded with it, would stop at its root and keep it. On a
// horizon that ends before the deadline (no tails) that bound is the Lagrangian one the heuristic's own
// multipliers reach, at no further cost where GLPK's root LP took tens of milliseconds (docs/POLICIES.md,
// ilp).
bool seedWithinGap(const ScheduleGraph& graph, const SchedulePath& seed, double mipGap) {
    if (graph.canFinish() || seed.states.empty())
        return false;
    return seed.carbonG - seed.lagrangianBoundG <=
           mipGap * (std::abs(seed.carbonG) + std::numeric_limits<double>::epsilon());
}

// A horizon reaching the deadline is solved by completion slot (HorizonLabelSearch.h) with at most this
// many labels (about 16 MB) before branch and bound takes over. The default scenario's needed at most about
// 50,000 when counted (docs/POLICIES.md, ilp).
constexpr std::size_t kHorizonSearchLabels = 500000;

// The solver option's values.
const char* const kLabelsFirst = "labels";
const char* const kGlpkOnly = "glpk";

const char* const kInfeasibleTarget = "infeasible: the work target cannot be met inside the horizon";

// The state each slot of a path enters, kPaused where it does not run.
std::vector<int> planOf(const ScheduleGraph& graph, const std::vector<std::size_t>& states) {
    std::vector<int> plan(states.size(), kPaused);
    for (std::size_t s = 0; s < states.size(); ++s)
        plan[s] = std::max(graph.stateOf(states[s]), kPaused);
    return plan;
}

// The root LP's simplex: silent, capped by the wall-clock safeguard.
glp_smcp simplexParameters(const IlpParameters& p) {
    glp_smcp simplex;
    glp_init_smcp(&simplex);
    simplex.msg_lev = GLP_MSG_OFF;
    simplex.tm_lim = static_cast<int>(std::max(1.0, p.timeLimitMs));
    return simplex;
}

// Branch and bound on our own columns (no presolve, see runSolver), stopped at mip_gap, the node limit
// (the hooks) or the wall-clock safeguard.
glp_iocp branchAndBoundParameters(const IlpParameters& p, SearchHooks& hooks) {
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_OFF;
    parm.msg_lev = GLP_MSG_OFF;
    parm.tm_lim = static_cast<int>(std::max(1.0, p.timeLimitMs));
    parm.mip_gap = p.mipGap;
    parm.cb_func = onBranchAndBound;
    parm.cb_info = &hooks;
    return parm;
}

// The root LP from a crash basis (the root LP in less than half the iterations from the standard one),
// restarted once when it stalls. Returns glp_simplex's code; sets the simplex's it_lim.
int solveRootLp(glp_prob* lp, glp_smcp& simplex) {
    glp_adv_basis(lp, 0);
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
    return lpRet;
}

// What GLPK made of the program: its return codes, and the limits the messages quote.
struct SolverRun {
    int lpRet = 0;             // the root LP's glp_simplex
    bool lpInfeasible = false; // the root LP proved the work target out of reach
    int ret = 0;               // glp_intopt's code, the root LP's when branch and bound did not run
    bool haveSchedule = false; // GLPK holds an integer-feasible schedule
    int timeLimitMs = 0;       // tm_lim
    int rootIterationLimit = 0;
};

// The root LP, then (when it solved and is feasible) branch and bound.
SolverRun runSolver(glp_prob* lp, const IlpParameters& p, SearchHooks& hooks) {
    // Without presolve the columns GLPK's heuristic hook takes are ours, so the LP relaxation is solved
    // first (glp_intopt requires it then).
    glp_scale_prob(lp, GLP_SF_AUTO);
    glp_smcp simplex = simplexParameters(p);
    glp_iocp parm = branchAndBoundParameters(p, hooks);
    SolverRun run;
    run.lpRet = solveRootLp(lp, simplex);
    run.lpInfeasible =
        run.lpRet == 0 && (glp_get_status(lp) == GLP_NOFEAS || glp_get_prim_stat(lp) == GLP_NOFEAS);
    run.ret = run.lpRet != 0 || run.lpInfeasible ? run.lpRet : glp_intopt(lp, &parm);
    run.haveSchedule = !run.lpInfeasible && run.lpRet == 0 && glp_mip_status(lp) != GLP_UNDEF &&
                       glp_mip_status(lp) != GLP_NOFEAS;
    run.timeLimitMs = parm.tm_lim;
    run.rootIterationLimit = simplex.it_lim;
    return run;
}

// The state each slot's integer solution enters, kPaused where it does not run.
std::vector<int> scheduleOf(glp_prob* lp, const ProgramColumns& program, const ScheduleGraph& graph,
                            std::size_t slots) {
    std::vector<int> plan(slots, kPaused);
    for (const ProgramColumns::Arc& arc : program.arcsIntoStates)
        if (graph.stateOf(arc.to) >= 0 && glp_mip_col_val(lp, arc.column) > 0.5)
            plan[static_cast<std::size_t>(arc.slot)] = graph.stateOf(arc.to);
    return plan;
}

// Why a solve kept no schedule of GLPK's, for the warnings.
std::string failureOf(glp_prob* lp, const SolverRun& run) {
    return run.lpInfeasible || run.ret == GLP_ENOPFS || glp_mip_status(lp) == GLP_NOFEAS ? kInfeasibleTarget
           : run.ret == GLP_ETMLIM ? "time limit of " + std::to_string(run.timeLimitMs) + " ms"
           : run.ret == GLP_EITLIM ? "the root LP stalled (" + std::to_string(run.rootIterationLimit) +
                                         " simplex iterations, twice)"
                                   : "GLPK error " + std::to_string(run.ret);
}

} // namespace

std::map<std::string, std::string> IlpPolicy::options() const {
    // Numbers in the shortest text that reads back to the same value, whatever the locale.
    return {{"horizon_hours", shortestNumber(m_p.horizonHours)},
            {"resolve_hours", shortestNumber(m_p.resolveHours)},
            {"time_limit_ms", shortestNumber(m_p.timeLimitMs)},
            {"mip_gap", shortestNumber(m_p.mipGap)},
            {"node_limit", std::to_string(m_p.nodeLimit)},
            {"solver", m_p.branchAndBoundOnly ? kGlpkOnly : kLabelsFirst}};
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
    const double target = horizonTarget(costs, now, horizonEnd, deadline, remaining);
    IlpSolve result;
    for (const ForecastPiece& piece : pieces)
        result.pieceStarts.push_back(piece.startUtc);
    const ScheduleGraph graph(costs, pieces, current, /*canFinish=*/deadline <= horizonEnd + 1e-9);
    SchedulePath incumbent = seedSchedule(graph, costs, target);
    if (!m_p.branchAndBoundOnly && seedWithinGap(graph, incumbent, m_p.mipGap)) {
        result.method = "heuristic within mip_gap";
        result.solved = true;
        result.objectiveG = incumbent.carbonG;
        result.plan = planOf(graph, incumbent.states);
        return result;
    }
    if (!m_p.branchAndBoundOnly && graph.canFinish()) {
        HorizonSearchResult found = searchHorizon(graph, costs, target, incumbent, kHorizonSearchLabels);
        if (found.complete) {
            result.method = "completion-slot search";
            result.solved = !found.path.states.empty();
            result.objectiveG = found.objectiveG;
            result.plan =
                result.solved ? planOf(graph, found.path.states) : greedyPlan(costs, pieces, target);
            if (!result.solved)
                result.failure = kInfeasibleTarget;
            return result;
        }
        if (!found.path.states.empty())
            incumbent = std::move(found.path);
    }
    result.method = "branch and bound";
    std::lock_guard<std::mutex> lock(glpkMutex());
    glp_term_out(GLP_OFF);
    glp_prob* lp = glp_create_prob();
    const ProgramColumns program = buildProgram(lp, graph, costs, target);
    SearchHooks hooks;
    hooks.nodeLimit = m_p.nodeLimit;
    if (!incumbent.states.empty())
        hooks.incumbent = columnsOf(program, graph, costs, incumbent);
    const SolverRun run = runSolver(lp, m_p, hooks);
    // GLP_EMIPGAP: stopped because the incumbent is within mip_gap of the bound, which is what was asked.
    // A node or time limit with an incumbent keeps it (a schedule of the same model, at least as good as
    // the heuristic's) and says so.
    if (run.haveSchedule &&
        (run.ret == 0 || run.ret == GLP_EMIPGAP || run.ret == GLP_ESTOP || run.ret == GLP_ETMLIM)) {
        result.solved = true;
        if (run.ret == GLP_ESTOP && hooks.nodeLimitHit)
            result.limit = "node limit of " + std::to_string(m_p.nodeLimit);
        else if (run.ret == GLP_ETMLIM)
            result.limit = "time limit of " + std::to_string(run.timeLimitMs) + " ms";
        result.plan = scheduleOf(lp, program, graph, pieces.size());
        result.objectiveG = glp_mip_obj_val(lp);
    } else {
        result.failure = failureOf(lp, run);
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
    PolicyInfo info{
        "ilp",
        "Integer program per rolling horizon: which option (or none) runs in each slot, least forecast "
        "carbon with switching costs, meeting the work target; greedy fallback on failure or timeout.",
        "ILP scheduler of the carbon-aware training article (docs/MODEL.md 9.7), solved with GLPK and, near "
        "the deadline, an exact label search (docs/POLICIES.md)",
        {numberOption("horizon_hours", "48", 1, 24 * 365, "rolling horizon of each integer program, h"),
         numberOption("resolve_hours", "6", 0, 24 * 365,
                      "re-solve at least this often (and when the run leaves the plan), h"),
         numberOption("mip_gap", "0.01", 0, 1, "relative MIP gap at which a solve stops (GLPK mip_gap)"),
         wholeNumberOption("node_limit", "300", 1, 1e9,
                           "branch-and-bound nodes per solve; the best schedule found is kept"),
         numberOption("time_limit_ms", "300000", 1, 3.6e6,
                      "GLPK wall-clock limit per solve (tm_lim), ms: a reported safety net"),
         choiceOption("solver", kLabelsFirst, {kLabelsFirst, kGlpkOnly},
                      "labels: a heuristic schedule within mip_gap of the LP bound is kept, a horizon "
                      "reaching the deadline is solved exactly by completion slot, the rest by GLPK; glpk: "
                      "GLPK's branch and bound for every horizon"),
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
            p.branchAndBoundOnly = o.text("solver") == kGlpkOnly;
            return std::make_unique<IlpPolicy>(p);
        }};
    info.traits.solvesPrograms = true;
    return info;
}

} // namespace carbon3d
