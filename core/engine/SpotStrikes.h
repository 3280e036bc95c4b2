// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Time.h"

#include <cstdint>
#include <optional>
#include <random>

namespace carbon3d {

// When the provider reclaims spot capacity: a seeded Poisson process over wall-clock time. Candidates fall
// at the rate of every GPU the job holds; one that falls while the job trains is a strike with the
// probability that it hit a training GPU (active / held), else it passes (thinning). Candidate times and
// their draws come from the seed alone, so every policy of a scenario meets the same luck and a rerun
// strikes at the same seconds.
class SpotStrikes {
public:
    SpotStrikes(double perGpuHour, int gpusHeld, std::uint64_t seed, UtcSeconds startUtc);

    // The first strike in [from, to) on a job training `activeGpus` GPUs, at a whole second; nullopt when
    // none. Calls must not go back in time: candidates before `from` fell while the job was not training.
    std::optional<UtcSeconds> firstIn(UtcSeconds from, UtcSeconds to, int activeGpus);

private:
    void drawNext();

    std::mt19937_64 m_random;
    double m_candidatesPerS = 0.0;
    int m_held = 1;
    double m_time = 0.0;   // the current candidate, UTC seconds
    double m_accept = 0.0; // its uniform draw in [0, 1)
};

} // namespace carbon3d
