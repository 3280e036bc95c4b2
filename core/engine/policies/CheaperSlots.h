// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace carbon3d {

// The slots of a trace's window still ahead of a decision, by value: how long those after the current one
// are among the values where a predicate holds, for a predicate true up to some value and false above it
// (strictly cheaper than the current slot; worth more than a given item to a plan whose worth falls as the
// carbon intensity rises). That is the question interruptible Wait Awhile and CarbonScaler ask at every
// decision when their forecast is the truth to the window's end (the slots are then the trace's own at
// every decision). A Fenwick tree over the slots' distinct values answers it in O(log n), and slots leave
// it as time passes, so a run costs O(n log n) in the window's slots where a pass over the window at each
// decision cost O(n^2).
class CheaperSlots {
public:
    // The slots of `trace` that overlap [from, to), each with its duration inside it.
    CheaperSlots(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to);

    // The slot holding `now`: its value and the seconds from `now` to its end (or the window's).
    struct Current {
        double value = 0.0;
        double secondsLeft = 0.0;
    };
    // Moves to `now`, inside the window and never earlier than the last call: every slot up to the one
    // holding it leaves, so that what remains comes after it.
    Current advanceTo(UtcSeconds now);

    // How long the slots after the current one are whose value satisfies `holds`, which must be true for
    // every value below some point and false above it (a binary search finds the point).
    template <typename Predicate> double secondsWhere(Predicate holds) const {
        const auto end = std::partition_point(m_values.begin(), m_values.end(), holds);
        return secondsBelowRank(static_cast<std::size_t>(end - m_values.begin()));
    }
    double secondsAfterCurrent() const { return secondsBelowRank(m_values.size()); }
    UtcSeconds windowEnd() const { return m_windowEnd; }
    // The distinct values of the window's slots, ascending.
    const std::vector<double>& values() const { return m_values; }

    // Interruptible Wait Awhile's rule (amongTheCheapest) at `now`, on the trace's own values: whether the
    // slots after the current one ranked (rankingValue) strictly below it cover less than `needS` seconds.
    bool currentAmongTheCheapest(UtcSeconds now, double needS);

private:
    double secondsBelowRank(std::size_t rank) const; // the durations of ranks [0, rank) still in the tree
    void remove(std::size_t slot);

    UtcSeconds m_traceStart = 0;
    std::int64_t m_step = 3600;
    UtcSeconds m_windowEnd = 0;
    std::size_t m_first = 0;           // the window's first slot, as an index of the trace
    std::vector<double> m_slotValue;   // per window slot: its value as the trace has it
    std::vector<double> m_values;      // the distinct values, ascending
    std::vector<std::size_t> m_rankOf; // per window slot: its value's place in m_values
    std::vector<double> m_duration;    // per window slot: its duration inside the window, s
    std::vector<double> m_tree;        // Fenwick tree over m_values: the durations of the slots still in
    std::size_t m_removed = 0;         // window slots removed so far (the earliest ones)
};

} // namespace carbon3d
