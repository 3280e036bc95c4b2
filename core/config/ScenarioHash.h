// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"

#include <string>

namespace carbon3d {

// The scenario as compact JSON with every object's keys sorted, the cluster and the model written
// inline (never as preset ids, so that a changed preset changes the text), traces identified by
// region, time zone and content hash, operating points inline, and no file paths (the same
// scenario on another machine or in another folder gives the same text). Name and description are
// included: they are part of what the user saved.
std::string canonicalJson(const Scenario& scenario);

// Lower-case hex SHA-256 of canonicalJson() followed by each region's trace content hash: the key
// of a scenario in the results store. Any change to an input that can change a result changes it.
std::string scenarioHash(const Scenario& scenario);

} // namespace carbon3d
