// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <string>

namespace carbon3d::traces_detail {

// Shortest text that reads back to the same double (std::to_chars), so written traces round-trip
// bit for bit and messages show the value as it stood in the file.
inline std::string formatNumber(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    std::array<char, 32> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return std::string(buffer.data(), result.ptr);
}

} // namespace carbon3d::traces_detail
