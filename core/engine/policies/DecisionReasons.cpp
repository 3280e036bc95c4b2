// SPDX-License-Identifier: MIT
#include "engine/policies/DecisionReasons.h"

#include "domain/NumberText.h"

#include <cmath>

namespace carbon3d {

std::string intensityText(double gPerKwh) {
    return fixedNumber(gPerKwh, 0) + " g/kWh";
}

std::string carbonText(double grams) {
    const double magnitude = std::abs(grams);
    if (magnitude >= 1e6)
        return fixedNumber(grams / 1e6, 2) + " t";
    if (magnitude >= 1e3)
        return fixedNumber(grams / 1e3, magnitude >= 1e5 ? 0 : 1) + " kg";
    return fixedNumber(grams, 0) + " g";
}

std::string hoursText(double seconds) {
    const double hours = seconds / 3600.0;
    return fixedNumber(hours, std::abs(hours - std::round(hours)) < 0.05 ? 0 : 1) + " h";
}

std::string perMillionTokensText(double gPerWorkUnit) {
    return fixedNumber(gPerWorkUnit * 1e6, 1) + " g per million tokens";
}

ReasonUnits::ReasonUnits(std::optional<Objective> objective)
    : m_dollars(objective.has_value() && *objective != Objective::Carbon) {}

std::string ReasonUnits::perKwh(double value) const {
    return m_dollars ? fixedNumber(value / kObjectiveUnitsPerUsd, 3) + " USD/kWh" : intensityText(value);
}

std::string ReasonUnits::amount(double value) const {
    if (!m_dollars)
        return carbonText(value);
    const double usd = value / kObjectiveUnitsPerUsd;
    const double magnitude = std::abs(usd);
    if (magnitude >= 1e6)
        return fixedNumber(usd / 1e6, 2) + " M USD";
    if (magnitude >= 1e3)
        return fixedNumber(usd / 1e3, 1) + " k USD";
    return fixedNumber(usd, 0) + " USD";
}

std::string ReasonUnits::perMillionTokens(double value) const {
    return m_dollars ? fixedNumber(value * 1e6 / kObjectiveUnitsPerUsd, 2) + " USD per million tokens"
                     : perMillionTokensText(value);
}

const char* ReasonUnits::signal() const {
    return m_dollars ? "price" : "intensity";
}

const char* ReasonUnits::cleaner() const {
    return m_dollars ? "cheaper" : "cleaner";
}

const char* ReasonUnits::cleanest() const {
    return m_dollars ? "cheapest" : "cleanest";
}

const char* ReasonUnits::forecastUnit() const {
    return m_dollars ? "dollar of forecast cost" : "gram of forecast carbon";
}

const char* ReasonUnits::emissions() const {
    return m_dollars ? "cost" : "emissions";
}

std::string stateText(const SimulationInput& input, int state) {
    if (state == kPaused)
        return "paused";
    if (state < 0)
        return "not started";
    const ExecutionOption& option = input.menu[static_cast<std::size_t>(state)];
    return option.label.empty() ? option.config.label() : option.label;
}

} // namespace carbon3d
