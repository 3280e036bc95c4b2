// SPDX-License-Identifier: MIT
#include "engine/policies/CheaperSlots.h"

#include "engine/policies/PlanningTools.h"

#include <algorithm>

namespace carbon3d {

CheaperSlots::CheaperSlots(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to)
    : m_traceStart(trace.startUtc)
    , m_step(trace.stepSeconds) {
    m_first = static_cast<std::size_t>(std::max<std::int64_t>(0, (from - trace.startUtc) / m_step));
    std::vector<double> values;
    for (std::size_t i = m_first; i < trace.size() && trace.slotStart(i) < to; ++i) {
        const UtcSeconds start = std::max(trace.slotStart(i), from);
        const UtcSeconds end = std::min(trace.slotStart(i) + m_step, to);
        m_values.push_back(trace.gPerKwh[i]);
        values.push_back(rankingValue(trace.gPerKwh[i]));
        m_duration.push_back(static_cast<double>(end - start));
    }
    m_ranks = values;
    std::sort(m_ranks.begin(), m_ranks.end());
    m_ranks.erase(std::unique(m_ranks.begin(), m_ranks.end()), m_ranks.end());
    m_tree.assign(m_ranks.size() + 1, 0.0);
    for (std::size_t k = 0; k < values.size(); ++k) {
        m_rankOf.push_back(static_cast<std::size_t>(
            std::lower_bound(m_ranks.begin(), m_ranks.end(), values[k]) - m_ranks.begin()));
        for (std::size_t i = m_rankOf.back() + 1; i < m_tree.size(); i += i & (~i + 1))
            m_tree[i] += m_duration[k];
    }
}

void CheaperSlots::remove(std::size_t slot) {
    for (std::size_t i = m_rankOf[slot] + 1; i < m_tree.size(); i += i & (~i + 1))
        m_tree[i] -= m_duration[slot];
}

bool CheaperSlots::currentAmongTheCheapest(UtcSeconds now, double needS) {
    // Every slot up to the one holding `now` leaves: what remains comes after it.
    const auto slot = static_cast<std::size_t>(std::max<std::int64_t>(0, (now - m_traceStart) / m_step));
    const std::size_t current = std::min(slot >= m_first ? slot - m_first : 0, m_values.size() - 1);
    for (; m_removed <= current; ++m_removed)
        remove(m_removed);
    // The ranks strictly below the current slot's: a prefix of m_ranks, summed by the tree.
    const auto below = static_cast<std::size_t>(
        std::lower_bound(m_ranks.begin(), m_ranks.end(), rankingValue(m_values[current])) - m_ranks.begin());
    double cheaper = 0.0;
    for (std::size_t i = below; i > 0; i -= i & (~i + 1))
        cheaper += m_tree[i];
    return cheaper < needS;
}

} // namespace carbon3d
