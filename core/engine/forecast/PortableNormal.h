// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace carbon3d {

// Standard normal draws that are the same on every platform for a seed: Box-Muller on mt19937_64, whose
// output the standard fixes, rather than std::normal_distribution, whose algorithm it leaves to the library.
class PortableNormal {
public:
    explicit PortableNormal(std::uint64_t seed)
        : m_generator(seed) {}
    double next() {
        const double u1 = uniform();
        const double u2 = uniform();
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }

private:
    double uniform() { return (static_cast<double>(m_generator() >> 11) + 0.5) * 0x1.0p-53; }
    std::mt19937_64 m_generator;
};

} // namespace carbon3d
