// SPDX-License-Identifier: MIT
#include "engine/policies/OracleSolver.h"

#include "domain/InputError.h"
#include "engine/Simulator.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace carbon3d {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// The bucketed search's label cap: 32 bytes a label, so about 32 MB at most.
constexpr std::size_t kBucketedLabels = 1000000;
// Each single-option search's label cap: a few thousand labels for most options of the default job, about
// 5e5 for its fastest option when pauses pay.
constexpr std::size_t kSingleOptionLabels = 1000000;

struct Step {
    bool valid = false;
    std::size_t next = 0;  // index of the next decision point reached
    double runStart = 0.0; // end of the overhead, s
    double overheadG = 0.0;
    double cost = 0.0; // gCO2e of the whole step (overhead + running/paused to the next point)
    double work = 0.0;
    // The trace slot boundaries inside the run, as (cost, work) had the job completed there: with the run's
    // start and end, the corners of the trimmed cost (Problem::leastTrimmedValue).
    std::uint32_t firstBreak = 0;
    std::uint32_t breaks = 0;
};

// The states of the search, numbered: 0 = not started (it holds nothing, so it is in no region), then per
// planned region r a block of (1 + options): paused in r, then each menu option running in r. With one
// region: 0 = not started, 1 = paused, 2 + k = option k.
class StateSpace {
public:
    StateSpace(int options, int regions)
        : m_options(options)
        , m_regions(regions) {}
    int count() const { return 1 + m_regions * (m_options + 1); }
    int options() const { return m_options; }
    int regions() const { return m_regions; }
    // The engine's code of state x: kNotStarted, kPaused or a menu index.
    int optionOf(int x) const { return x == 0 ? kNotStarted : (x - 1) % (m_options + 1) - 1; }
    // The region of state x (0 for "not started", which is in none).
    int regionOf(int x) const { return x == 0 ? 0 : (x - 1) / (m_options + 1); }
    int indexOf(int option, int region) const {
        return option == kNotStarted ? 0 : 1 + region * (m_options + 1) + (option + 1);
    }

private:
    int m_options;
    int m_regions;
};

// The least of a value over some states and the state holding it: the first state on ties, as a pass over
// the states in order keeps it.
struct Least {
    double value = kInf;
    int state = -1;
    bool before(const Least& other) const {
        return value < other.value ||
               (value == other.value && state >= 0 && (other.state < 0 || state < other.state));
    }
};

// The least of several groups' leasts, and the least of all groups but one: the best group's and the
// runner-up's. Each group is offered once.
struct TopTwo {
    Least first;
    Least second;
    int firstGroup = -1;
    void offer(const Least& least, int group) {
        if (least.before(first)) {
            second = first;
            first = least;
            firstGroup = group;
        } else if (least.before(second)) {
            second = least;
        }
    }
    const Least& allBut(int group) const { return group == firstGroup ? second : first; }
};

// A value's least over the running states of a point, by the groups the engine's transition rules read
// (CostModel::liveGroup and shardGroup, and the region): the least a transition of each kind into or out of
// a state can reach, so that a pass over the states costs O(states) instead of O(states^2) at each point.
class OptionLeasts {
public:
    OptionLeasts(const StateSpace& space, const CostModel& costs)
        : m_space(space)
        , m_costs(costs)
        , m_regionCount(static_cast<std::size_t>(space.regions()))
        , m_lives(static_cast<std::size_t>(costs.liveGroupCount()))
        , m_shards(static_cast<std::size_t>(costs.shardGroupCount()))
        , m_shardOfLive(m_lives, 0) {
        for (int k = 0; k < space.options(); ++k)
            m_shardOfLive[static_cast<std::size_t>(costs.liveGroup(k))] = costs.shardGroup(k);
    }

    // Takes value(state) for every running state and, when withPaused, for the paused ones too (which then
    // count in region() and otherRegions()).
    template <typename Value> void fill(Value value, bool withPaused) {
        m_live.assign(m_regionCount * m_lives, Least{});
        m_shard.assign(m_regionCount * m_shards, TopTwo{});
        m_region.assign(m_regionCount, TopTwo{});
        m_regionAll.assign(m_regionCount, Least{});
        m_regions = TopTwo{};
        for (int r = 0; r < m_space.regions(); ++r) {
            const auto region = static_cast<std::size_t>(r);
            for (int k = 0; k < m_space.options(); ++k) {
                const int state = m_space.indexOf(k, r);
                const Least least{value(state), state};
                Least& live = m_live[region * m_lives + static_cast<std::size_t>(m_costs.liveGroup(k))];
                if (least.before(live))
                    live = least;
            }
            for (std::size_t group = 0; group < m_lives; ++group)
                m_shard[region * m_shards + static_cast<std::size_t>(m_shardOfLive[group])].offer(
                    m_live[region * m_lives + group], static_cast<int>(group));
            for (std::size_t group = 0; group < m_shards; ++group)
                m_region[region].offer(m_shard[region * m_shards + group].first, static_cast<int>(group));
            Least all = m_region[region].first;
            if (withPaused) {
                const int paused = m_space.indexOf(kPaused, r);
                const Least least{value(paused), paused};
                if (least.before(all))
                    all = least;
            }
            m_regionAll[region] = all;
            m_regions.offer(all, r);
        }
    }

    // Options of `option`'s live group in `region` (a move between them costs nothing).
    const Least& sameLive(int option, int region) const {
        return m_live[static_cast<std::size_t>(region) * m_lives +
                      static_cast<std::size_t>(m_costs.liveGroup(option))];
    }
    // Options of its shard group but another live group (a resize).
    const Least& sameShardOtherLive(int option, int region) const {
        return m_shard[static_cast<std::size_t>(region) * m_shards +
                       static_cast<std::size_t>(m_costs.shardGroup(option))]
            .allBut(m_costs.liveGroup(option));
    }
    // Options of another shard group in the region (a reconfiguration).
    const Least& otherShard(int option, int region) const {
        return m_region[static_cast<std::size_t>(region)].allBut(m_costs.shardGroup(option));
    }
    const Least& regionOptions(int region) const { return m_region[static_cast<std::size_t>(region)].first; }
    const Least& region(int region) const { return m_regionAll[static_cast<std::size_t>(region)]; }
    const Least& otherRegions(int region) const { return m_regions.allBut(region); }
    const Least& everywhere() const { return m_regions.first; }

private:
    const StateSpace& m_space;
    const CostModel& m_costs;
    std::size_t m_regionCount;
    std::size_t m_lives;
    std::size_t m_shards;
    std::vector<int> m_shardOfLive; // per live group: the shard group all its options are in
    std::vector<Least> m_live;      // (region, live group)
    std::vector<TopTwo> m_shard;    // (region, shard group): over its live groups
    std::vector<TopTwo> m_region;   // region: over its shard groups
    std::vector<Least> m_regionAll; // region: its options and, when filled with them, its paused state
    TopTwo m_regions;               // over the regions' m_regionAll
};

// The most steps the oracle tabulates to plan over several regions (56 bytes each: about 230 MB). Its step
// table has a row per (decision point, state, overhead kind), and the states grow with the regions: three
// regions of the default 26-option menu over a 30-day window fit; seven over a year would take 1.4 GB.
constexpr double kMostRegionSteps = 4194304;

// The regions the oracle plans over, and why not all when it plans over the start region alone: every
// region of the input when they share the start region's decision grid (the engine decides on the grid of
// the region it is in, so a move between regions of different grids would change the points themselves)
// and the step table stays under kMostRegionSteps.
std::pair<int, std::string> plannedRegions(const PlanningContext& context,
                                           const std::vector<UtcSeconds>& points) {
    const std::size_t regions = context.input.regions.size();
    for (std::size_t r = 1; r < regions; ++r)
        if (decisionPoints(context.input, static_cast<int>(r)) != points)
            return {1, "the regions' traces put decisions at different times"};
    const StateSpace all(context.costs.optionCount(), static_cast<int>(regions));
    const double steps = static_cast<double>(points.size()) * all.count() *
                         static_cast<double>(context.costs.transitionDurations().size() + 1);
    if (regions > 1 && steps > kMostRegionSteps)
        return {1, "planning moves over " + std::to_string(points.size()) + " decision points would need " +
                       std::to_string(static_cast<long long>(steps)) + " table steps (at most " +
                       std::to_string(static_cast<long long>(kMostRegionSteps)) + ")"};
    return {static_cast<int>(regions), std::string()};
}

class Problem {
public:
    explicit Problem(const PlanningContext& context)
        : m_cancel(context.cancel)
        , m_in(context.input)
        , m_costs(context.costs)
        , m_points(context.decisionPoints())
        , m_regionChoice(plannedRegions(context, m_points))
        , m_space(context.costs.optionCount(), m_regionChoice.first)
        , m_rates(m_space, m_costs) {
        m_prefix.resize(static_cast<std::size_t>(m_space.regions()));
        for (std::size_t r = 0; r < m_prefix.size(); ++r) {
            const CarbonTrace& trace = m_in.regions[r];
            m_prefix[r].resize(trace.size() + 1, 0.0);
            for (std::size_t s = 0; s < trace.size(); ++s)
                m_prefix[r][s + 1] =
                    m_prefix[r][s] + trace.gPerKwh[s] * static_cast<double>(trace.stepSeconds);
        }
        m_states = m_space.count();
        m_durations = m_costs.transitionDurations();
        m_migrationS = std::round(m_in.modelling.migrationSeconds);
        if (m_space.regions() > 1)
            m_durations.insert(std::lower_bound(m_durations.begin(), m_durations.end(), m_migrationS),
                               m_migrationS);
        m_durations.erase(std::unique(m_durations.begin(), m_durations.end()), m_durations.end());
        m_kindResume = kindOfDuration(m_costs.resumeSeconds());
        m_kindResize = kindOfDuration(m_costs.resizeSeconds());
        m_kindReconfigure = kindOfDuration(m_costs.reconfigurationSeconds());
        m_kindMigrate = m_space.regions() > 1 ? kindOfDuration(m_migrationS) : -1;
        m_rates.fill([this](int state) { return -m_costs.workRate(m_space.optionOf(state)); }, false);
        const std::size_t n = intervals();
        const std::size_t kinds = m_durations.size();
        m_table.resize(n * static_cast<std::size_t>(m_states) * kinds);
        for (std::size_t i = 0; i < n; ++i) {
            for (int to = 0; to < m_states; ++to) {
                const std::size_t base =
                    (i * static_cast<std::size_t>(m_states) + static_cast<std::size_t>(to)) * kinds;
                const bool runs = m_space.optionOf(to) >= 0;
                m_table[base] = computeStep(i, to, 0.0);
                for (std::size_t kind = 1; runs && kind < kinds; ++kind)
                    m_table[base + kind] = computeStep(i, to, m_durations[kind]);
                for (std::size_t kind = 0; runs && kind < kinds; ++kind)
                    addBreakpoints(m_table[base + kind], to);
            }
        }
    }

    const StateSpace& space() const { return m_space; }
    // Why it plans in the start region alone although the input has several; empty when it plans over all.
    const std::string& singleRegionReason() const { return m_regionChoice.second; }
    const std::vector<UtcSeconds>& points() const { return m_points; }
    std::size_t intervals() const { return m_points.size() - 1; }
    int states() const { return m_states; }
    double work() const { return m_in.totalWork; }
    // Work that completes the job. 1e-9 relative: a schedule that finishes exactly at the deadline
    // must not be lost to rounding in the sum of its steps (the engine accepts it, see kDeadlineToleranceS).
    bool covers(double work) const { return work >= m_in.totalWork * (1.0 - 1e-9); }

    // Integral of region r's true CI from its trace start to t, (g/kWh) x s.
    double integral(int region, double t) const {
        const CarbonTrace& trace = m_in.regions[static_cast<std::size_t>(region)];
        const double offset = t - static_cast<double>(trace.startUtc);
        auto slot = static_cast<std::size_t>(
            std::max(0.0, std::floor(offset / static_cast<double>(trace.stepSeconds))));
        slot = std::min(slot, trace.size() - 1);
        return m_prefix[static_cast<std::size_t>(region)][slot] +
               trace.gPerKwh[slot] *
                   (offset - static_cast<double>(slot) * static_cast<double>(trace.stepSeconds));
    }

    // The engine's rules for choosing state `to` at point i while in state `from` (no trimming at
    // completion). Steps depend on (i, to, overhead duration) only: looked up in a table built once,
    // because the Lagrangian search evaluates every transition tens of times.
    const Step& step(std::size_t i, int from, int to) const { return stepOfKind(i, to, kindOf(from, to)); }
    // The step into state `to` at point i after an overhead of kind `kind` (an index into the table's
    // durations; -1, a pair the rules forbid, gives an invalid step).
    const Step& stepOfKind(std::size_t i, int to, int kind) const {
        static const Step invalid;
        if (kind < 0)
            return invalid;
        return m_table[(i * static_cast<std::size_t>(m_states) + static_cast<std::size_t>(to)) *
                           m_durations.size() +
                       static_cast<std::size_t>(kind)];
    }
    // The overhead kind the engine's rules charge for going from state `from` to state `to`, as an index into
    // the table's durations; -1 where they forbid the pair: nothing returns to "not started", "not started
    // -> paused" is "stay not started", and a pause stays in its region (a checkpoint moves only with a job
    // that runs again). A move between regions is a migration, which replaces the resume or
    // reconfiguration (Simulator.cpp); within one, CostModel::transitionSeconds's groups decide.
    int kindOf(int from, int to) const {
        const int a = m_space.optionOf(from);
        const int b = m_space.optionOf(to);
        if (a == kNotStarted)
            return b == kPaused ? -1 : 0;
        if (b == kNotStarted)
            return -1;
        if (m_space.regionOf(from) != m_space.regionOf(to))
            return b < 0 ? -1 : m_kindMigrate;
        if (b < 0)
            return 0;
        if (a == kPaused)
            return m_kindResume;
        if (m_costs.liveGroup(a) == m_costs.liveGroup(b))
            return 0;
        return m_costs.shardGroup(a) == m_costs.shardGroup(b) ? m_kindResize : m_kindReconfigure;
    }
    int kindResume() const { return m_kindResume; }
    int kindResize() const { return m_kindResize; }
    int kindReconfigure() const { return m_kindReconfigure; }
    int kindMigrate() const { return m_kindMigrate; }
    std::size_t kinds() const { return m_durations.size(); }
    const CostModel& costs() const { return m_costs; }

    Step computeStep(std::size_t i, int to, double overhead) const {
        const int option = m_space.optionOf(to);
        const int region = m_space.regionOf(to);
        Step result;
        const auto start = static_cast<double>(m_points[i]);
        result.runStart = start + overhead;
        if (overhead > 0.0) {
            const auto it =
                std::lower_bound(m_points.begin() + static_cast<std::ptrdiff_t>(i) + 1, m_points.end(),
                                 static_cast<UtcSeconds>(std::ceil(result.runStart)));
            if (it == m_points.end())
                return result; // the overhead would not end by the deadline
            result.next = static_cast<std::size_t>(it - m_points.begin());
            result.overheadG = m_costs.overheadPowerW(option) *
                                   (integral(region, result.runStart) - integral(region, start)) / 3.6e6 +
                               m_costs.embodiedGPerS(option) * overhead;
        } else {
            result.next = i + 1;
        }
        const auto end = static_cast<double>(m_points[result.next]);
        const double run = end - result.runStart;
        result.cost =
            result.overheadG +
            m_costs.powerW(option) * (integral(region, end) - integral(region, result.runStart)) / 3.6e6 +
            m_costs.embodiedGPerS(option) * run;
        result.work = m_costs.workRate(option) * run;
        result.valid = true;
        return result;
    }

    void addBreakpoints(Step& s, int to) {
        if (!s.valid)
            return;
        const CarbonTrace& trace = m_in.regions[static_cast<std::size_t>(m_space.regionOf(to))];
        s.firstBreak = static_cast<std::uint32_t>(m_breaks.size());
        const auto end = static_cast<double>(m_points[s.next]);
        const auto step = static_cast<double>(trace.stepSeconds);
        const auto origin = static_cast<double>(trace.startUtc);
        for (double t = origin + (std::floor((s.runStart - origin) / step) + 1.0) * step; t < end;
             t += step) {
            const double work = m_costs.workRate(m_space.optionOf(to)) * (t - s.runStart);
            m_breaks.push_back({trimmedCost(s, to, work), work});
        }
        s.breaks = static_cast<std::uint32_t>(m_breaks.size()) - s.firstBreak;
    }

    // Cost of finishing `needed` work in step s into running state `to` (which would do more): overhead +
    // partial run.
    double trimmedCost(const Step& s, int to, double needed) const {
        const int option = m_space.optionOf(to);
        const int region = m_space.regionOf(to);
        const double tau = needed / m_costs.workRate(option);
        return s.overheadG +
               m_costs.powerW(option) * (integral(region, s.runStart + tau) - integral(region, s.runStart)) /
                   3.6e6 +
               m_costs.embodiedGPerS(option) * tau;
    }

    // The least of trimmedCost - lambda x work over every amount of work step s can do when the job
    // completes inside it: stopping anywhere in its run. Within one trace slot cost and work grow at
    // constant rates, so the least is at the run's start, a slot boundary inside it, or its end.
    double leastTrimmedValue(const Step& s, double lambda) const {
        double least = std::min(s.overheadG, s.cost - lambda * s.work);
        for (std::uint32_t b = s.firstBreak; b < s.firstBreak + s.breaks; ++b)
            least = std::min(least, m_breaks[b].cost - lambda * m_breaks[b].work);
        return least;
    }

    // Emissions of a schedule (a state per decision point) as the engine charges them (completion trims
    // the last step). A pause before the first start is waiting, in no region.
    double scheduleCost(const std::vector<int>& states) const {
        std::size_t i = 0;
        int state = 0;
        double done = 0.0;
        double cost = 0.0;
        while (i < intervals()) {
            int to = states[i];
            if (state == 0 && m_space.optionOf(to) == kPaused)
                to = 0;
            const Step& s = step(i, state, to);
            if (!s.valid)
                return kInf;
            if (m_space.optionOf(to) >= 0 && covers(done + s.work))
                return cost + trimmedCost(s, to, std::min(s.work, work() - done));
            cost += s.cost;
            done += s.work;
            state = to;
            i = s.next;
        }
        return kInf;
    }

    // The most work a job in state x at point i can still do by the deadline: a label with more left is
    // dropped. At its fastest way to finish in its own region (any option, after that switch's overhead;
    // a move only adds its own).
    // The fastest option of each transition's group, from m_rates (which holds minus the rates), gives it.
    double mostWorkBy(int x, std::size_t i) const {
        const double left = deadline() + slackTolerance() - static_cast<double>(m_points[i]);
        const int state = m_space.optionOf(x);
        double most = 0.0;
        const auto consider = [&](const Least& fastest, double overheadS) {
            if (fastest.state >= 0 && left - overheadS > 0.0)
                most = std::max(most, -fastest.value * (left - overheadS));
        };
        if (state < 0) {
            consider(m_rates.everywhere(), state == kPaused ? m_costs.resumeSeconds() : 0.0);
            return most;
        }
        consider(m_rates.sameLive(state, 0), 0.0);
        consider(m_rates.sameShardOtherLive(state, 0), m_costs.resizeSeconds());
        consider(m_rates.otherShard(state, 0), m_costs.reconfigurationSeconds());
        return most;
    }
    double deadline() const { return static_cast<double>(m_in.deadlineUtc); }
    // Feasibility pruning must be stricter than covers(): a label let through by a looser time
    // tolerance could not complete and would crowd out the one that can.
    double slackTolerance() const { return 1e-10 * static_cast<double>(m_in.deadlineUtc - m_in.startUtc); }

    // Polled between passes of the solvers (cheap: one relaxed atomic load).
    void throwIfCancelled() const {
        if (m_cancel != nullptr && m_cancel->load(std::memory_order_relaxed))
            throw PlanningCancelled{};
    }

private:
    int kindOfDuration(double seconds) const {
        return static_cast<int>(std::lower_bound(m_durations.begin(), m_durations.end(), seconds) -
                                m_durations.begin());
    }

    const std::atomic<bool>* m_cancel;
    const SimulationInput& m_in;
    const CostModel& m_costs;
    std::vector<UtcSeconds> m_points;
    std::pair<int, std::string> m_regionChoice; // plannedRegions()
    StateSpace m_space;
    std::vector<std::vector<double>> m_prefix; // per planned region: the CI integral at each slot start
    int m_states = 0;
    double m_migrationS = 0.0;
    // The table's overhead kinds: CostModel::transitionDurations(), and the migration's with several regions
    std::vector<double> m_durations;
    int m_kindResume = 0; // the index in m_durations of each overhead
    int m_kindResize = 0;
    int m_kindReconfigure = 0;
    int m_kindMigrate = -1;    // -1 with one region
    OptionLeasts m_rates;      // minus the options' work rates, by group (mostWorkBy)
    std::vector<Step> m_table; // (point, target state, overhead duration)
    struct Breakpoint {
        double cost;
        double work;
    };
    std::vector<Breakpoint> m_breaks; // Step::firstBreak indexes it
};

// A lower bound on what finishing the job costs from each (decision point, state), for multipliers
// lambda: the least of (cost - lambda x work) over every way to finish from there, whole steps and then
// one step trimmed anywhere in its run. A schedule that finishes from there doing the remaining work R
// at cost C has C - lambda x R >= that least, whatever lambda (the identity holds term by term), so
// lambda x R + least is below C. The label search prunes with it.
class CompletionBound {
public:
    CompletionBound(const Problem& problem, const std::vector<double>& lambdas)
        : m_states(static_cast<std::size_t>(problem.states())) {
        for (double lambda : lambdas)
            m_passes.push_back({lambda, leastToFinish(problem, lambda)});
    }

    // True when finishing `remainingWork` from (point i, state index x) costs at least `limit`.
    bool atLeast(std::size_t i, std::size_t x, double remainingWork, double limit) const {
        for (const Pass& pass : m_passes)
            if (pass.lambda * remainingWork + pass.least[i * m_states + x] >= limit)
                return true;
        return false;
    }

private:
    struct Pass {
        double lambda;
        std::vector<double> least; // per (point, state index); infinity where the job cannot finish
    };

    // Backwards over the points. The value of a step into state a depends on a and on the overhead's kind
    // only, so each kind's values are computed once per point and the least a state can reach by each kind
    // of transition is read from their groups (OptionLeasts): O(states x kinds) a point.
    static std::vector<double> leastToFinish(const Problem& problem, double lambda) {
        const StateSpace& space = problem.space();
        const auto states = static_cast<std::size_t>(problem.states());
        const std::size_t n = problem.intervals();
        std::vector<double> least((n + 1) * states, kInf); // at the deadline nothing is left to run
        std::vector<std::vector<double>> into(problem.kinds(), std::vector<double>(states, kInf));
        std::vector<OptionLeasts> byKind(problem.kinds(), OptionLeasts(space, problem.costs()));
        for (std::size_t i = n; i-- > 0;) {
            // into[kind][a]: finishing from a step into a after that kind of overhead.
            for (std::size_t kind = 0; kind < into.size(); ++kind) {
                for (std::size_t a = 0; a < states; ++a) {
                    const Step& s = problem.stepOfKind(i, static_cast<int>(a), static_cast<int>(kind));
                    double best = kInf;
                    if (s.valid) {
                        best = s.cost - lambda * s.work + least[s.next * states + a];
                        if (space.optionOf(static_cast<int>(a)) >= 0)
                            best = std::min(best, problem.leastTrimmedValue(s, lambda));
                    }
                    into[kind][a] = best;
                }
                byKind[kind].fill([&](int a) { return into[kind][static_cast<std::size_t>(a)]; }, false);
            }
            const auto of = [&](int kind) -> const OptionLeasts& {
                return byKind[static_cast<std::size_t>(kind)];
            };
            for (std::size_t x = 0; x < states; ++x) {
                const int option = space.optionOf(static_cast<int>(x));
                const int region = space.regionOf(static_cast<int>(x));
                double best = kInf;
                if (option == kNotStarted) {
                    best = std::min(into[0][x], of(0).everywhere().value);
                } else {
                    const auto paused = static_cast<std::size_t>(space.indexOf(kPaused, region));
                    best = into[0][paused];
                    if (option == kPaused) {
                        best = std::min(best, of(problem.kindResume()).regionOptions(region).value);
                    } else {
                        best = std::min({best, of(0).sameLive(option, region).value,
                                         of(problem.kindResize()).sameShardOtherLive(option, region).value,
                                         of(problem.kindReconfigure()).otherShard(option, region).value});
                    }
                    if (problem.kindMigrate() >= 0)
                        best = std::min(best, of(problem.kindMigrate()).otherRegions(region).value);
                }
                least[i * states + x] = best;
            }
        }
        return least;
    }

    std::size_t m_states;
    std::vector<Pass> m_passes;
};

// What a label search covers and how far it may grow.
struct LabelSearch {
    std::size_t maxLabels = 0;
    // > 0: keep two labels (most progressed, cheapest) per work bucket of this width per node, which
    // bounds the labels and makes the search a heuristic (every kept label is still a real schedule with
    // its exact cost).
    double bucketWidth = 0.0;
    // >= 0: schedules of this one menu option, with waits and pauses (the best a suspend-resume policy
    // of that size could do knowing the future); -1: the whole menu.
    int onlyOption = -1;
};

// The label search: every Pareto-optimal (work, carbon) label per (point, state), less those that
// cannot beat the best schedule known (`solution`, the incumbent) by the completion bound. Returns false
// when the labels outgrow the search's maxLabels; else `solution` is the best schedule there is among
// those searched (the incumbent when no label beat it): optimal, for the whole menu and no buckets. The
// pruning keeps a label unless its bound exceeds the incumbent by 1e-9 relative, so rounding in the
// bound cannot drop a better schedule.
class LabelSearcher {
public:
    LabelSearcher(const Problem& problem, const CompletionBound& completion)
        : m_problem(problem)
        , m_completion(completion)
        , m_states(static_cast<std::size_t>(problem.states())) {
        // The most work that can still be done from each (point, state) by the deadline, once per node.
        const std::size_t n = problem.intervals();
        m_reachable.assign(n * m_states, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t x = 0; x < m_states; ++x)
                m_reachable[i * m_states + x] = problem.mostWorkBy(static_cast<int>(x), i);
    }

    bool search(const LabelSearch& search, OracleSolution& solution);

private:
    class Run; // one search's state

    struct Label {
        double work;
        double cost;
        int parent;          // label index, -1 for the root
        std::uint32_t point; // where the action leading here was taken
        int action;
    };

    // The labels and their buckets outlive the search, one set per thread: a search may hold a
    // million labels (32 MB), and memory freed and allocated again per oracle run cost a third of a
    // study's oracle time in page faults (217 January runs: 445,000 faults and 18.3 s; kept: 26,000 and
    // 12.0 s). Cleared, not freed, between searches.
    struct Scratch {
        std::vector<Label> labels;
        std::vector<std::vector<int>> buckets; // label ids per (point, state)
    };
    static Scratch& threadScratch() {
        thread_local Scratch scratch;
        return scratch;
    }

    const Problem& m_problem;
    const CompletionBound& m_completion;
    std::size_t m_states;
    std::vector<double> m_reachable;
};

// One label search: its labels (in the thread's scratch), the best completion found and the cost it must
// beat. LabelSearcher::search walks the points in order and expands each (point, state) once.
class LabelSearcher::Run {
public:
    Run(const LabelSearcher& searcher, const LabelSearch& search, double incumbentCost)
        : m_problem(searcher.m_problem)
        , m_completion(searcher.m_completion)
        , m_search(search)
        , m_states(searcher.m_states)
        , m_reachable(searcher.m_reachable)
        , m_best(incumbentCost)
        , m_labels(threadScratch().labels)
        , m_buckets(threadScratch().buckets) {
        const std::size_t n = m_problem.intervals();
        m_labels.assign(1, Label{0.0, 0.0, -1, 0, 0});
        m_buckets.resize((n + 1) * m_states);
        for (std::vector<int>& bucket : m_buckets)
            bucket.clear();
        m_buckets[0 * m_states + 0].push_back(0);
    }

    // Extends the labels at (point i, state index x) by every step out of it. False when the labels
    // outgrow the search's maxLabels.
    bool expand(std::size_t i, std::size_t x) {
        std::vector<int>& bucket = m_buckets[i * m_states + x];
        if (bucket.empty())
            return true;
        keepFrontier(i, x, bucket);
        bucket.clear();
        return extendFrontier(i, x);
    }

    // The best schedule into `solution`, when a label beat the incumbent; else whether there is one.
    bool finish(OracleSolution& solution) const {
        solution.labels = m_labels.size();
        if (m_bestParent < 0)
            return solution.costG < kInf; // nothing beat the incumbent: it is the best there is
        solution.actions.assign(m_problem.points().size(), m_problem.space().indexOf(kPaused, 0));
        solution.actions[m_bestPoint] = m_bestAction;
        for (int id = m_bestParent; m_labels[static_cast<std::size_t>(id)].parent >= 0;
             id = m_labels[static_cast<std::size_t>(id)].parent)
            solution.actions[m_labels[static_cast<std::size_t>(id)].point] =
                m_labels[static_cast<std::size_t>(id)].action;
        solution.costG = m_best;
        return true;
    }

private:
    // True when a label of this cost and work at (point, x) cannot finish below the best found.
    bool cannotBeat(double cost, std::size_t point, std::size_t x, double work) const {
        return m_completion.atLeast(point, x, m_problem.work() - work,
                                    m_best + 1e-9 * std::abs(m_best) - cost);
    }

    // The bucket's labels worth extending into m_frontier: the Pareto frontier (more work and less carbon
    // dominate), less those that cannot finish by the deadline or beat the best found.
    void keepFrontier(std::size_t i, std::size_t x, std::vector<int>& bucket) {
        const std::vector<Label>& labels = m_labels;
        std::sort(bucket.begin(), bucket.end(), [&](int a, int b) {
            const Label& la = labels[static_cast<std::size_t>(a)];
            const Label& lb = labels[static_cast<std::size_t>(b)];
            return la.work > lb.work || (la.work == lb.work && la.cost < lb.cost);
        });
        m_frontier.clear();
        double minCost = kInf;
        double bucketOfLast = -1.0;
        double bucketOfSecondLast = -2.0;
        const double bucketWidth = m_search.bucketWidth;
        for (int id : bucket) {
            const Label& label = labels[static_cast<std::size_t>(id)];
            if (label.cost >= minCost || m_problem.work() - label.work > m_reachable[i * m_states + x] ||
                cannotBeat(label.cost, i, x, label.work))
                continue;
            minCost = label.cost;
            // Buckets: per work bucket keep the most progressed label (it may be the only one that
            // still meets a tight deadline) and the cheapest, replacing the bucket's second label.
            const double workBucket = bucketWidth > 0.0 ? std::floor(label.work / bucketWidth) : 0.0;
            if (bucketWidth > 0.0 && m_frontier.size() >= 2 && bucketOfSecondLast == workBucket &&
                bucketOfLast == workBucket) {
                m_frontier.back() = id;
            } else {
                m_frontier.push_back(id);
                bucketOfSecondLast = bucketOfLast;
                bucketOfLast = workBucket;
            }
        }
    }

    // Every allowed step from each frontier label: a completion when it finishes the work (the best
    // kept), else a new label where the step ends unless it cannot beat the best. False past maxLabels.
    bool extendFrontier(std::size_t i, std::size_t x) {
        for (std::size_t a = 0; a < m_states; ++a) {
            const int to = static_cast<int>(a);
            const int option = m_problem.space().optionOf(to);
            const Step& s = m_problem.step(i, static_cast<int>(x), to);
            if (!s.valid || (m_search.onlyOption >= 0 && option >= 0 && option != m_search.onlyOption))
                continue;
            for (int id : m_frontier) {
                const Label label = m_labels[static_cast<std::size_t>(id)]; // a copy: push_back reallocates
                if (option >= 0 && label.work + s.work >= m_problem.work()) {
                    const double cost =
                        label.cost + m_problem.trimmedCost(s, to, m_problem.work() - label.work);
                    if (cost < m_best) {
                        m_best = cost;
                        m_bestParent = id;
                        m_bestPoint = i;
                        m_bestAction = to;
                    }
                    continue;
                }
                if (cannotBeat(label.cost + s.cost, s.next, a, label.work + s.work))
                    continue;
                m_labels.push_back(
                    {label.work + s.work, label.cost + s.cost, id, static_cast<std::uint32_t>(i), to});
                m_buckets[s.next * m_states + a].push_back(static_cast<int>(m_labels.size() - 1));
                if (m_labels.size() > m_search.maxLabels)
                    return false;
            }
        }
        return true;
    }

    const Problem& m_problem;
    const CompletionBound& m_completion;
    const LabelSearch& m_search;
    std::size_t m_states;
    const std::vector<double>& m_reachable;
    double m_best; // the cost to beat: the incumbent's (infinity without one), then the best completion's
    std::vector<Label>& m_labels;
    std::vector<std::vector<int>>& m_buckets;
    // The best completion found: its last label, and the action it takes at which point to finish.
    int m_bestParent = -1;
    std::size_t m_bestPoint = 0;
    int m_bestAction = 0;
    std::vector<int> m_frontier; // the labels of the (point, state) being expanded
};

bool LabelSearcher::search(const LabelSearch& search, OracleSolution& solution) {
    Run run(*this, search, solution.costG);
    const std::size_t n = m_problem.intervals();
    for (std::size_t i = 0; i < n; ++i) {
        m_problem.throwIfCancelled();
        for (std::size_t x = 0; x < m_states; ++x)
            if (!run.expand(i, x))
                return false;
    }
    return run.finish(solution);
}

struct LagrangianResult {
    double value = 0.0; // min of cost - lambda x work
    double work = 0.0;
    std::vector<int> actions;
};

// DP on carbon - lambda x work over full intervals; the plan may stop at any point (after which
// nothing is charged, as after completion).
// Forwards over the points, each state's value pulled from the least of the states that reach it by each
// kind of transition (OptionLeasts): O(states x kinds) a point. The parent of a state is the one a pass
// over every (from, to) pair in order would keep: the least value, the first point, then the first state.
LagrangianResult solveLagrangian(const Problem& problem, double lambda) {
    const StateSpace& space = problem.space();
    const auto states = static_cast<std::size_t>(problem.states());
    const std::size_t n = problem.intervals();
    std::vector<double> value((n + 1) * states, kInf);
    std::vector<double> work((n + 1) * states, 0.0);
    std::vector<int> parent((n + 1) * states, -1); // (i * states + x) of the predecessor
    value[0] = 0.0;
    std::size_t bestNode = 0;
    OptionLeasts sources(space, problem.costs());
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t row = i * states;
        for (std::size_t x = 0; x < states; ++x)
            if (value[row + x] < value[bestNode])
                bestNode = row + x;
        sources.fill([&](int x) { return value[row + static_cast<std::size_t>(x)]; }, true);
        const auto relax = [&](int to, const Least& source, int kind) {
            if (source.state < 0 || source.value == kInf)
                return;
            const Step& s = problem.stepOfKind(i, to, kind);
            if (!s.valid)
                return;
            const std::size_t target = s.next * states + static_cast<std::size_t>(to);
            const double v = source.value + s.cost - lambda * s.work;
            const int kept = parent[target];
            const bool tieFromEarlierState =
                v == value[target] && kept >= 0 && static_cast<std::size_t>(kept) / states == i &&
                static_cast<std::size_t>(source.state) < static_cast<std::size_t>(kept) % states;
            if (v < value[target] || tieFromEarlierState) {
                value[target] = v;
                work[target] = work[row + static_cast<std::size_t>(source.state)] + s.work;
                parent[target] = static_cast<int>(row + static_cast<std::size_t>(source.state));
            }
        };
        const Least notStarted{value[row], 0};
        for (int to = 0; to < static_cast<int>(states); ++to) {
            const int option = space.optionOf(to);
            const int region = space.regionOf(to);
            if (option == kNotStarted) {
                relax(to, notStarted, 0);
                continue;
            }
            if (option == kPaused) {
                relax(to, sources.region(region), 0);
                continue;
            }
            const int paused = space.indexOf(kPaused, region);
            relax(to, notStarted, 0);
            relax(to, Least{value[row + static_cast<std::size_t>(paused)], paused}, problem.kindResume());
            relax(to, sources.sameLive(option, region), 0);
            relax(to, sources.sameShardOtherLive(option, region), problem.kindResize());
            relax(to, sources.otherShard(option, region), problem.kindReconfigure());
            if (problem.kindMigrate() >= 0)
                relax(to, sources.otherRegions(region), problem.kindMigrate());
        }
    }
    for (std::size_t x = 0; x < states; ++x) {
        if (value[n * states + x] < value[bestNode])
            bestNode = n * states + x;
    }
    LagrangianResult result;
    result.value = value[bestNode];
    result.work = work[bestNode];
    result.actions.assign(problem.points().size(), problem.space().indexOf(kPaused, 0));
    for (std::size_t node = bestNode; parent[node] >= 0; node = static_cast<std::size_t>(parent[node])) {
        const auto from = static_cast<std::size_t>(parent[node]);
        result.actions[from / states] = static_cast<int>(node % states);
    }
    return result;
}

// The Lagrangian schedule overshoots the work by up to one interval and is trimmed at completion, which
// may leave carbon on the table, and a seed is another planner's schedule. Local search: change one
// decision at a time while that lowers the engine-exact cost `best` of `states`, within a budget of ~5e7
// interval steps.
void improveByOneChange(const Problem& problem, std::vector<int>& states, double& best) {
    const auto runsNothing = [&problem](int state) { return problem.space().optionOf(state) < 0; };
    const std::size_t n = problem.intervals();
    std::size_t budget = std::max<std::size_t>(2000, 20000000 / std::max<std::size_t>(1, n));
    bool improved = true;
    while (improved && budget > 0) {
        improved = false;
        problem.throwIfCancelled();
        for (std::size_t i = 0; i < n && budget > 0; ++i) {
            if (runsNothing(states[i]) && (i == 0 || runsNothing(states[i - 1])))
                continue; // inside a long pause nothing local changes
            const int original = states[i];
            for (int state = 1; state < problem.states() && budget > 0; ++state) {
                if (state == original)
                    continue;
                states[i] = state;
                --budget;
                const double cost = problem.scheduleCost(states);
                if (cost < best * (1.0 - 1e-12)) {
                    best = cost;
                    improved = true;
                    break;
                }
                states[i] = original;
            }
        }
    }
}

// The Lagrangian search with its primal heuristics, each of which may improve the schedule in `solution`:
// the best schedule's engine-exact cost and the best dual bound found so far are shared between them.
class MultiplierSearch {
public:
    MultiplierSearch(const Problem& problem, OracleSolution& solution)
        : m_problem(problem)
        , m_solution(solution) {}

    // Returns the multipliers the label search prunes with: the one of the best dual value first, then a
    // spread around it. The best multiplier for what is left of the job at a label (ahead of or behind the
    // whole job's pace) is not the whole job's, and one pass per multiplier is cheap (a backward DP over
    // points x states). The spread only changes how much is pruned, never the result.
    std::vector<double> run() {
        bisect();
        tryWaitThenRun();
        improveLocally();
        m_solution.costG = m_best;
        m_solution.lowerBoundG = std::min(m_bound, m_best);
        m_solution.method = "lagrangian";
        std::vector<double> multipliers{m_boundMultiplier};
        for (double factor : {0.93, 1.07, 0.85, 1.15, 0.7, 1.3, 1.6})
            multipliers.push_back(factor * m_boundMultiplier);
        return multipliers;
    }

private:
    // The Lagrangian DP at `lambda`: raises the dual bound, and keeps its schedule when that covers the
    // work at a lower cost. True when it covers the work.
    bool consider(double lambda) {
        m_problem.throwIfCancelled();
        LagrangianResult r = solveLagrangian(m_problem, lambda);
        ++m_solution.multipliersTried;
        if (r.value + lambda * m_problem.work() > m_bound) {
            m_bound = r.value + lambda * m_problem.work();
            m_boundMultiplier = lambda;
        }
        if (m_problem.covers(r.work)) {
            const double cost = m_problem.scheduleCost(r.actions);
            if (cost < m_best) {
                m_best = cost;
                m_solution.actions = std::move(r.actions);
            }
            return true;
        }
        return false;
    }

    // The least multiplier whose schedule covers the work: grown by fourfold steps, then bisected.
    void bisect() {
        double lo = 0.0;
        double hi = 1e-9;
        if (consider(lo))
            return;
        while (!consider(hi)) {
            lo = hi;
            hi *= 4.0;
            if (hi > 1e30)
                throw InputError("oracle", 0, 0, "no schedule covers the work by the deadline");
        }
        // To 1e-6 of lambda: bisecting to the last bit (48 steps) changed no oracle's cost on the 21 cells
        // of three days of the year study, and took a third of the oracle's time.
        for (int iteration = 0; iteration < 48 && hi - lo > 1e-6 * hi; ++iteration) {
            const double mid = 0.5 * (lo + hi);
            if (consider(mid))
                hi = mid;
            else
                lo = mid;
        }
    }

    // Non-interruptible schedules (Let's Wait Awhile's family: wait, then run one option to the end)
    // sit in the Lagrangian duality gap when the deadline binds; try them explicitly (start points
    // thinned so that this stays under ~5e7 interval steps).
    void tryWaitThenRun() {
        const std::size_t intervals = m_problem.intervals();
        const StateSpace& space = m_problem.space();
        const std::size_t running =
            static_cast<std::size_t>(space.options()) * static_cast<std::size_t>(space.regions());
        const std::size_t stride = std::max<std::size_t>(1, intervals * intervals * running / 10000000 + 1);
        std::vector<int> candidate(m_problem.points().size(), 0);
        for (int x = 1; x < space.count(); ++x) {
            if (space.optionOf(x) < 0)
                continue;
            m_problem.throwIfCancelled();
            for (std::size_t wait = 0; wait < intervals; wait += stride) {
                std::fill(candidate.begin(), candidate.end(), 0);
                std::fill(candidate.begin() + static_cast<std::ptrdiff_t>(wait), candidate.end(), x);
                const double cost = m_problem.scheduleCost(candidate);
                if (cost == kInf)
                    break; // later starts are later still
                if (cost < m_best) {
                    m_best = cost;
                    m_solution.actions = candidate;
                }
            }
        }
    }

    void improveLocally() { improveByOneChange(m_problem, m_solution.actions, m_best); }

    const Problem& m_problem;
    OracleSolution& m_solution;
    double m_best = kInf;           // engine-exact cost of m_solution.actions (infinity before one covers)
    double m_bound = -kInf;         // the best Lagrangian dual bound
    double m_boundMultiplier = 0.0; // the multiplier that gave it
};

// The Lagrangian search and its heuristics (MultiplierSearch): the best schedule found into `solution`,
// and the multipliers the label search prunes with.
std::vector<double> solveByMultiplier(const Problem& problem, OracleSolution& solution) {
    return MultiplierSearch(problem, solution).run();
}

// A schedule in the engine's terms (an option or kPaused/kNotStarted per point, and a region) as states;
// empty when it runs in a region the oracle does not plan over.
std::vector<int> statesOf(const StateSpace& space, const OracleSchedule& schedule) {
    std::vector<int> states(schedule.actions.size());
    for (std::size_t i = 0; i < states.size(); ++i) {
        const int region = i < schedule.regions.size() ? schedule.regions[i] : 0;
        if (region < 0 || region >= space.regions())
            return {};
        states[i] = space.indexOf(schedule.actions[i], region);
    }
    return states;
}

// The solution's states in the engine's terms: an option (or kPaused/kNotStarted) and a region per point.
void toEngineTerms(const StateSpace& space, OracleSolution& solution) {
    solution.regions.resize(solution.actions.size());
    for (std::size_t i = 0; i < solution.actions.size(); ++i) {
        solution.regions[i] = space.regionOf(solution.actions[i]);
        solution.actions[i] = space.optionOf(solution.actions[i]);
    }
}

OracleSolution solveInStates(const Problem& problem, const std::string& method, std::size_t maxLabels,
                             const OracleSeedSource& seeds);

} // namespace

std::vector<double> oracleScheduleCosts(const PlanningContext& context,
                                        const std::vector<OracleSchedule>& schedules) {
    const Problem problem(context);
    std::vector<double> costs;
    costs.reserve(schedules.size());
    for (const OracleSchedule& schedule : schedules) {
        const std::vector<int> states = statesOf(problem.space(), schedule);
        costs.push_back(states.empty() ? kInf : problem.scheduleCost(states));
    }
    return costs;
}

OracleSolution solveOracle(const PlanningContext& context, const std::string& method, std::size_t maxLabels,
                           const OracleSeedSource& seeds) {
    const Problem problem(context);
    OracleSolution solution = solveInStates(problem, method, maxLabels, seeds);
    toEngineTerms(problem.space(), solution);
    solution.plannedRegions = problem.space().regions();
    solution.singleRegionReason = problem.singleRegionReason();
    return solution;
}

namespace {

// The label search over the whole menu from `solution` as its incumbent: true, with the optimum in
// `solution`, when it ends under maxLabels.
bool proveOptimal(LabelSearcher& labels, std::size_t maxLabels, OracleSolution& solution) {
    OracleSolution searched = solution;
    if (!labels.search({maxLabels}, searched))
        return false;
    searched.method = "exact";
    searched.seededFrom.clear();
    searched.lowerBoundG = searched.costG;
    solution = std::move(searched);
    return true;
}

// Takes the least of the other planners' schedules where it beats `solution`, improved by local search.
// True when one did.
bool adoptSeeds(const Problem& problem, const OracleSeedSource& seeds, OracleSolution& solution) {
    if (!seeds)
        return false;
    bool adopted = false;
    for (const OracleSchedule& seed : seeds()) {
        std::vector<int> states = statesOf(problem.space(), seed);
        if (states.size() != solution.points.size())
            continue;
        const double cost = problem.scheduleCost(states);
        if (cost < solution.costG) {
            solution.actions = std::move(states);
            solution.costG = cost;
            solution.seededFrom = seed.source;
            adopted = true;
        }
    }
    if (adopted) {
        improveByOneChange(problem, solution.actions, solution.costG);
        solution.method = "seeded";
        solution.lowerBoundG = std::min(solution.lowerBoundG, solution.costG);
    }
    return adopted;
}

OracleSolution solveInStates(const Problem& problem, const std::string& method, std::size_t maxLabels,
                             const OracleSeedSource& seeds) {
    OracleSolution solution;
    solution.points = problem.points();
    // The Lagrangian search first, for every method: its schedule is the incumbent the label search
    // must beat, and its multipliers price the completion bound that prunes the labels.
    const std::vector<double> multipliers = solveByMultiplier(problem, solution);
    if (method == "lagrangian") {
        adoptSeeds(problem, seeds, solution);
        return solution;
    }
    const CompletionBound completion(problem, multipliers);
    // Schedules of one option with pauses: where pausing through dirty hours beats every mix the
    // Lagrangian found, the best of them is a far better incumbent (and for a suspend-resume policy the
    // one to beat). Most of these searches are small (a few thousand labels on the default job; about
    // 5e5 for its fastest option where pauses pay).
    LabelSearcher labels(problem, completion);
    for (int k = 0; k < problem.space().options(); ++k) {
        problem.throwIfCancelled();
        OracleSolution paused = solution;
        if (labels.search({kSingleOptionLabels, 0.0, k}, paused) && paused.costG < solution.costG) {
            solution = std::move(paused);
            solution.method = "single-option";
        }
    }
    if (proveOptimal(labels, maxLabels, solution))
        return solution;
    // Not proven: the other planners' schedules, asked for only now (they cost a run of each policy). One
    // that beats ours is the better incumbent, which prunes more: the search may now prove it optimal.
    if (adoptSeeds(problem, seeds, solution) && proveOptimal(labels, maxLabels, solution))
        return solution;
    // Auto, past the label cap: a search with work buckets improves on the Lagrangian schedule where
    // it stays small (<= 4e7 label transitions, ~1,000 buckets on a 4-option menu, ~380 on the default
    // job's 18), and gives up beyond kBucketedLabels; every schedule it keeps has its exact cost.
    const double transitions = static_cast<double>(problem.intervals()) * problem.states() * problem.states();
    const double buckets = std::min(1024.0, 4e7 / transitions);
    if (method == "auto" && buckets >= 256.0) {
        OracleSolution bucketed = solution;
        if (labels.search({kBucketedLabels, problem.work() / buckets}, bucketed) &&
            bucketed.costG < solution.costG) {
            bucketed.method = "bucketed-dp";
            bucketed.seededFrom.clear();
            return bucketed;
        }
    }
    if (method == "exact")
        throw InputError("oracle", 0, 0,
                         "the exact oracle needs more than max_labels = " + std::to_string(maxLabels) +
                             " labels for this job; use method=lagrangian or auto");
    return solution;
}

} // namespace

} // namespace carbon3d
