// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carbon3d {

// Numbers as text, independent of the process's locale (Qt sets the C locale from the environment, so
// strtod and iostreams would read and write "0,05" under de_DE). Every parser and message of the core
// goes through these (docs/DECISIONS.md "Numbers and locales").

// The shortest text that reads back to the same double: "0.05", "100", "1e+308"; "nan", "inf", "-inf".
std::string shortestNumber(double value);
// Fixed notation with `decimals` digits after the point: fixedNumber(37.466, 1) == "37.5".
std::string fixedNumber(double value, int decimals);

// The whole of `text` as a decimal number (no leading or trailing spaces, no locale); nullopt otherwise.
std::optional<double> parseDecimal(std::string_view text);
// The whole of `text` as a non-negative integer that fits in 64 bits; nullopt otherwise (so an over-long
// seed is refused rather than saturated).
std::optional<std::uint64_t> parseUnsigned(std::string_view text);
// The whole of `text` as a signed 64-bit integer (ids, counts, flags' whole numbers); nullopt otherwise.
std::optional<std::int64_t> parseInteger(std::string_view text);

} // namespace carbon3d
