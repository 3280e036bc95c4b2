// SPDX-License-Identifier: MIT
#include "reports/Prose.h"

#include "reports/NumberFormat.h"

namespace carbon3d::reports {

std::string joinWithAnd(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string joinWithCommas(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : ", ") + items[i];
    return out;
}

std::string rangeText(double lo, double hi, int decimals) {
    const std::string a = fixed(lo, decimals);
    const std::string b = fixed(hi, decimals);
    return a == b ? a : a + "-" + b;
}

const char* plural(long long count, const char* singular, const char* pluralForm) {
    return count == 1 ? singular : pluralForm;
}

} // namespace carbon3d::reports
