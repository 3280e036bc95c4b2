// SPDX-License-Identifier: MIT
#pragma once

#include "domain/ClusterProfile.h"

#include <array>

namespace carbon3d {

// How a GPU behaves under a power limit: compute runs at `throughputFactor` of its uncapped speed and the
// compute phases draw `powerFactor` of their uncapped power.
struct PowerLimitEffect {
    double limitW = 0.0;           // the limit in force, clamped to [minPowerLimitW, tdpW], W
    double throughputFactor = 1.0; // 0..1
    double powerFactor = 1.0;      // 0..1
    bool measured = false;         // from the cluster's measured curve (else the DVFS default)
};

// A power-limit curve normalised to the accelerator: at most kMaxPoints points, no allocation on lookup.
class PowerLimitModel {
public:
    static constexpr int kMaxPoints = 32;

    // Uses cluster.powerLimitCurve when present (relative throughput as given; power relative to the point at
    // the highest limit). Otherwise the default DVFS model: the shape of the Zeus A40 ResNet-50 sweep (You et
    // al., NSDI 2023; docs/MODEL.md section 5.3) with limits taken as fractions of TDP (A40 TDP 300 W):
    // 300 W -> 3847 s/epoch, 235.2 W ... 150 W -> 6327 s, 144.6 W. Between points: linear interpolation;
    // below the lowest point: its values (the limit is clamped to the accelerator's minimum anyway).
    explicit PowerLimitModel(const ClusterProfile& cluster);
    PowerLimitModel() = default;

    PowerLimitEffect at(double limitW) const; // limitW <= 0 means "default (TDP)"
    bool measured() const { return m_measured; }

private:
    struct Point {
        double limitW;
        double throughput;
        double power;
    };
    std::array<Point, kMaxPoints> m_points{};
    int m_count = 0;
    double m_tdpW = 0.0;
    double m_minLimitW = 0.0;
    bool m_measured = false;
};

} // namespace carbon3d
