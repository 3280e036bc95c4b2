// SPDX-License-Identifier: MIT
#include "engine/policies/StaticMaxPolicy.h"

#include "engine/PolicyRegistry.h"

namespace carbon3d {

PolicyInfo staticMaxPolicyInfo() {
    PolicyInfo info{"static-max",
                    "Carbon-agnostic: the fastest option on all GPUs, start now, never stop.",
                    "Baseline of every carbon-aware training study (e.g. Hanafy et al., SIGMETRICS 2024)",
                    {},
                    {},
                    {0x000000, LineDash::Solid, PlotMarker::Circle},
                    [](const PolicyOptions&) { return std::make_unique<StaticMaxPolicy>(); }};
    info.traits.defaultBaseline = true;
    info.traits.usesForecast = false;
    return info;
}

} // namespace carbon3d
