// SPDX-License-Identifier: MIT
#include "reports/Prose.h"

#include "reports/NumberFormat.h"

namespace carbon3d::reports {

std::string rangeText(double lo, double hi, int decimals) {
    const std::string a = fixed(lo, decimals);
    const std::string b = fixed(hi, decimals);
    return a == b ? a : a + "-" + b;
}

const char* plural(long long count, const char* singular, const char* pluralForm) {
    return count == 1 ? singular : pluralForm;
}

} // namespace carbon3d::reports
