// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"

#include <string>

// The name a scenario's runs are saved and shown under must say what was run. A bundled scenario's name
// ("GPT-3 175B on 1,024 A100s in California, June 2022") stops being true once the region, the start, the
// model, the GPU count or the cluster changes, in the studio or with CLI flags.
namespace carbon3d {

// "GPT-3 175B, 120 B tokens on 1024 x NVIDIA DGX A100 80GB in DE from 2022-06-01": the job, the hardware,
// the first region and the start day (UTC); no locale in it.
std::string describingName(const Scenario& scenario);

// `edited`'s name: `original`'s while everything that name describes is unchanged (a name of the user's
// own stays), else describingName(edited).
std::string nameAfterEdits(const Scenario& original, const Scenario& edited);

// `edited`'s description, by the same rule: `original`'s while its name still holds, else a line saying
// what it was edited from (a lesson's text about its job and grid would mislead on another).
std::string descriptionAfterEdits(const Scenario& original, const Scenario& edited);

} // namespace carbon3d
