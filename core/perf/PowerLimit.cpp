// SPDX-License-Identifier: MIT
#include "perf/PowerLimit.h"

#include <algorithm>

namespace carbon3d {

namespace {

// Zeus A40 ResNet-50 sweep (docs/MODEL.md section 5.3): limit W, epoch s, average W. TDP 300 W.
struct ZeusRow {
    double limitW;
    double epochS;
    double averageW;
};
constexpr ZeusRow kZeusA40[] = {{150, 6327, 144.6}, {175, 4706, 160.2}, {200, 4124, 177.6},
                                {225, 3909, 196.4}, {250, 3865, 214.6}, {275, 3858, 230.8},
                                {300, 3847, 235.2}};
constexpr double kZeusTdpW = 300.0;

} // namespace

PowerLimitModel::PowerLimitModel(const ClusterProfile& cluster)
    : m_tdpW(cluster.accelerator.tdpW)
    , m_minLimitW(cluster.accelerator.minPowerLimitW) {
    const auto& curve = cluster.powerLimitCurve;
    if (!curve.empty() && static_cast<int>(curve.size()) <= kMaxPoints) {
        m_measured = true;
        const auto top = std::max_element(curve.begin(), curve.end(), [](const auto& a, const auto& b) {
            return a.powerLimitW < b.powerLimitW;
        });
        const double topPower = top->averagePowerW > 0.0 ? top->averagePowerW : 1.0;
        for (const PowerLimitPoint& p : curve)
            m_points[m_count++] = {p.powerLimitW, p.relativeThroughput,
                                   p.averagePowerW > 0.0 ? p.averagePowerW / topPower : 1.0};
    } else {
        for (const ZeusRow& row : kZeusA40)
            m_points[m_count++] = {row.limitW / kZeusTdpW * m_tdpW, kZeusA40[6].epochS / row.epochS,
                                   row.averageW / kZeusA40[6].averageW};
    }
    std::sort(m_points.begin(), m_points.begin() + m_count,
              [](const Point& a, const Point& b) { return a.limitW < b.limitW; });
    if (m_tdpW <= 0.0 && m_count > 0)
        m_tdpW = m_points[m_count - 1].limitW;
}

PowerLimitEffect PowerLimitModel::at(double limitW) const {
    PowerLimitEffect effect;
    effect.measured = m_measured;
    double limit = limitW > 0.0 ? limitW : m_tdpW;
    if (m_tdpW > 0.0)
        limit = std::min(limit, m_tdpW);
    limit = std::max(limit, m_minLimitW);
    effect.limitW = limit;
    if (m_count == 0)
        return effect;
    if (limit >= m_points[m_count - 1].limitW) {
        effect.throughputFactor = m_points[m_count - 1].throughput;
        effect.powerFactor = m_points[m_count - 1].power;
        return effect;
    }
    if (limit <= m_points[0].limitW) {
        effect.throughputFactor = m_points[0].throughput;
        effect.powerFactor = m_points[0].power;
        return effect;
    }
    int i = 1;
    while (m_points[i].limitW < limit)
        ++i;
    const Point& lo = m_points[i - 1];
    const Point& hi = m_points[i];
    const double w = (limit - lo.limitW) / (hi.limitW - lo.limitW);
    effect.throughputFactor = lo.throughput + w * (hi.throughput - lo.throughput);
    effect.powerFactor = lo.power + w * (hi.power - lo.power);
    return effect;
}

} // namespace carbon3d
