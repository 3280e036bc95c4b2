// SPDX-License-Identifier: MIT
#include "engine/policies/OraclePolicy.h"

#include <algorithm>
#include <sstream>

namespace carbon3d {

std::map<std::string, std::string> OraclePolicy::options() const {
    return {
        {"method", m_method}, {"max_labels", std::to_string(m_maxLabels)}, {"solved_by", m_solution.method}};
}

Decision OraclePolicy::decide(const DecisionState& state) {
    const auto it = std::lower_bound(m_solution.points.begin(), m_solution.points.end(), state.nowUtc);
    if (it == m_solution.points.end() || *it != state.nowUtc)
        return {kPaused, state.region}; // past the deadline (soft mode only): nothing planned
    return {m_solution.actions[static_cast<std::size_t>(it - m_solution.points.begin())], state.region};
}

std::vector<std::string> OraclePolicy::warnings() const {
    if (m_solution.method == "exact")
        return {};
    std::ostringstream text;
    const double gap =
        m_solution.costG > 0.0 ? (m_solution.costG - m_solution.lowerBoundG) / m_solution.costG : 0.0;
    text << "oracle: not proven optimal (" << m_solution.method << ", " << m_solution.multipliersTried
         << " Lagrange multipliers); at most " << gap * 100.0
         << " % above the Lagrangian bound (full-interval relaxation)";
    return {text.str()};
}

} // namespace carbon3d
