// SPDX-License-Identifier: MIT
#include "domain/OperatingPoints.h"

#include <array>

namespace carbon3d {

namespace {

constexpr std::array kScopes{PowerScope::Gpu, PowerScope::Node, PowerScope::Facility};

} // namespace

const char* powerScopeName(PowerScope scope) {
    switch (scope) {
    case PowerScope::Gpu:
        return "gpu";
    case PowerScope::Node:
        return "node";
    case PowerScope::Facility:
        return "facility";
    }
    return "?";
}

std::optional<PowerScope> parsePowerScope(std::string_view text) {
    for (PowerScope scope : kScopes) {
        if (text == powerScopeName(scope))
            return scope;
    }
    return std::nullopt;
}

} // namespace carbon3d
