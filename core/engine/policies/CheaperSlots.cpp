// SPDX-License-Identifier: MIT
#include "engine/policies/CheaperSlots.h"

#include "engine/policies/PlanningTools.h"

namespace carbon3d {

CheaperSlots::CheaperSlots(const CarbonTrace& trace, UtcSeconds from, UtcSeconds to)
    : m_traceStart(trace.startUtc)
    , m_step(trace.stepSeconds)
    , m_windowEnd(to) {
    m_first = static_cast<std::size_t>(std::max<std::int64_t>(0, (from - trace.startUtc) / m_step));
    for (std::size_t i = m_first; i < trace.size() && trace.slotStart(i) < to; ++i) {
        const UtcSeconds start = std::max(trace.slotStart(i), from);
        const UtcSeconds end = std::min(trace.slotStart(i) + m_step, to);
        m_slotValue.push_back(trace.gPerKwh[i]);
        m_duration.push_back(static_cast<double>(end - start));
    }
    m_values = m_slotValue;
    std::sort(m_values.begin(), m_values.end());
    m_values.erase(std::unique(m_values.begin(), m_values.end()), m_values.end());
    m_tree.assign(m_values.size() + 1, 0.0);
    for (std::size_t k = 0; k < m_slotValue.size(); ++k) {
        m_rankOf.push_back(static_cast<std::size_t>(
            std::lower_bound(m_values.begin(), m_values.end(), m_slotValue[k]) - m_values.begin()));
        for (std::size_t i = m_rankOf.back() + 1; i < m_tree.size(); i += i & (~i + 1))
            m_tree[i] += m_duration[k];
    }
}

void CheaperSlots::remove(std::size_t slot) {
    for (std::size_t i = m_rankOf[slot] + 1; i < m_tree.size(); i += i & (~i + 1))
        m_tree[i] -= m_duration[slot];
}

double CheaperSlots::secondsBelowRank(std::size_t rank) const {
    double seconds = 0.0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1))
        seconds += m_tree[i];
    return seconds;
}

CheaperSlots::Current CheaperSlots::advanceTo(UtcSeconds now) {
    const auto slot = static_cast<std::size_t>(std::max<std::int64_t>(0, (now - m_traceStart) / m_step));
    const std::size_t current = std::min(slot >= m_first ? slot - m_first : 0, m_slotValue.size() - 1);
    for (; m_removed <= current; ++m_removed)
        remove(m_removed);
    const UtcSeconds end =
        std::min(m_traceStart + static_cast<UtcSeconds>(m_first + current + 1) * m_step, m_windowEnd);
    return {m_slotValue[current], static_cast<double>(std::max<UtcSeconds>(0, end - now))};
}

bool CheaperSlots::currentAmongTheCheapest(UtcSeconds now, double needS) {
    const double current = rankingValue(advanceTo(now).value);
    return secondsWhere([current](double value) { return rankingValue(value) < current; }) < needS;
}

} // namespace carbon3d
