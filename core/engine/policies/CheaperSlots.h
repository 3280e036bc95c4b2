// SPDX-License-Identifier: MIT
#pragma once

#include "domain/CarbonTrace.h"

#include <cstddef>
#include <vector>

namespace carbon3d {

// How long the slots of a trace's window that come after the current one are, counting only those ranked
// (rankingValue) strictly below a value: interruptible Wait Awhile's question at every decision when its
// forecast is the truth to the window's end (its slots are then the trace's own at every decision). A
// Fenwick tree over the slots' ranks answers it in O(log n), and slots leave it as time passes, so a run
// costs O(n log n) in the window's slots where a pass over the window at each decision cost O(n^2).
class CheaperSlots {
public:
    // The slots of `trace` that overlap [from, to), each with its duration inside it.
    CheaperSlots(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to);

    // Interruptible Wait Awhile's rule (amongTheCheapest) at `now`, on the trace's own values: whether the
    // slots after the current one ranked strictly below it cover less than `needS` seconds. `now` is inside
    // the window and never goes back between calls.
    bool currentAmongTheCheapest(UtcSeconds now, double needS);

private:
    void remove(std::size_t slot);

    UtcSeconds m_traceStart = 0;
    std::int64_t m_step = 3600;
    std::size_t m_first = 0;           // the window's first slot, as an index of the trace
    std::vector<double> m_values;      // per window slot: its value as the trace has it
    std::vector<double> m_ranks;       // the distinct ranked values, ascending
    std::vector<std::size_t> m_rankOf; // per window slot: its value's place in m_ranks
    std::vector<double> m_duration;    // per window slot: its duration inside the window, s
    std::vector<double> m_tree;        // Fenwick tree over m_ranks: the durations of the slots still in
    std::size_t m_removed = 0;         // window slots removed so far (the earliest ones)
};

} // namespace carbon3d
