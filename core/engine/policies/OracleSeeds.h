// SPDX-License-Identifier: MIT
#pragma once

#include "engine/policies/OracleSolver.h"

#include <vector>

namespace carbon3d {

// The schedules the catalogue's policies make of the job in `context`, each run with its default options
// on the same input and forecast, for the oracle to start from: whatever its search finds, it then never
// emits more than any of them. Left out: policies of perfect knowledge (the oracle itself), those that
// solve a program per horizon (PolicyTraits::solvesPrograms: seconds a run), those whose runs change the
// job or menu (eadt), and a policy that cannot run this input (it offers no schedule). dynamic-3d runs its
// own rule alone: the simpler plans it weighs are seeds of their own. Throws PlanningCancelled when the
// run is cancelled.
std::vector<OracleSchedule> catalogueSchedules(const PlanningContext& context);

} // namespace carbon3d
