// SPDX-License-Identifier: MIT
#include "domain/PriceTrace.h"

#include <algorithm>

namespace carbon3d {

std::vector<double> pricesOnGrid(const PriceTrace& prices, UtcSeconds startUtc, std::int64_t stepSeconds,
                                 std::size_t slots, double outsideUsdPerKwh) {
    std::vector<double> out(slots, outsideUsdPerKwh);
    if (prices.size() == 0 || prices.stepSeconds <= 0)
        return out;
    for (std::size_t s = 0; s < slots; ++s) {
        const UtcSeconds a = startUtc + static_cast<std::int64_t>(s) * stepSeconds;
        const UtcSeconds b = a + stepSeconds;
        if (a < prices.startUtc || b > prices.endUtc())
            continue; // not covered whole: the flat price
        double sum = 0.0;
        for (UtcSeconds t = a; t < b;) {
            const auto i = static_cast<std::size_t>((t - prices.startUtc) / prices.stepSeconds);
            const UtcSeconds end =
                std::min(b, prices.startUtc + static_cast<std::int64_t>(i + 1) * prices.stepSeconds);
            sum += prices.usdPerMwh[i] * static_cast<double>(end - t);
            t = end;
        }
        out[s] = sum / static_cast<double>(stepSeconds) / 1000.0; // USD/MWh -> USD/kWh
    }
    return out;
}

} // namespace carbon3d
