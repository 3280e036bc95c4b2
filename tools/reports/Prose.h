// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

// Small pieces of running text shared by the report renderers, so that a sentence built from computed
// lists and ranges reads the same in every report (lists themselves: domain/TextList.h).
namespace carbon3d::reports {

// A range of values as fixed(lo)-fixed(hi), or one value when both print alike: "32-62", "0.79".
std::string rangeText(double lo, double hi, int decimals);
// `singular` for a count of one, else `plural`.
const char* plural(long long count, const char* singular, const char* pluralForm);

} // namespace carbon3d::reports
