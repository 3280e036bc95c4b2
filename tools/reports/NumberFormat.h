// SPDX-License-Identifier: MIT
#pragma once

#include <string>

// Number text for the generated reports. Every function writes with std::to_chars, which the global
// locale never touches: a report regenerates byte for byte on any machine, whatever LC_NUMERIC says.
namespace carbon3d::reports {

// Fixed notation with `decimals` digits after the point, as printf's "%.*f" ("-0.0" keeps its sign).
std::string fixed(double value, int decimals);
// Shortest of fixed and exponent notation with `digits` significant digits, as printf's "%.*g".
std::string significant(double value, int digits);
// A fraction as a percentage: percent(0.123) = "12.3 %".
std::string percent(double fraction, int decimals = 1);
// The same with a "+" in front of non-negative values: "+1.2 %", "-0.4 %".
std::string signedPercent(double fraction, int decimals = 1);
// An integer with thousands separators: "1,440".
std::string grouped(long long value);
// Small counts as words in running text ("four seeds of four"); digits from 13 on.
std::string countWord(long long value);
// The ordinal of a small count ("fourth"); "13th" and so on from 13.
std::string ordinalWord(long long value);

} // namespace carbon3d::reports
