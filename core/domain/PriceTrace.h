// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Time.h"

#include <cstdint>
#include <string>
#include <vector>

namespace carbon3d {

// An electricity price on a uniform UTC grid, piecewise constant like a carbon trace (timestamps mark the
// start of a slot). USD per MWh, as wholesale markets quote it; negative prices are real and kept.
struct PriceTrace {
    std::string regionId;
    UtcSeconds startUtc = 0;
    std::int64_t stepSeconds = 3600;
    std::vector<double> usdPerMwh; // one value per slot
    std::string sourceFile;
    std::string contentSha256;
    std::vector<std::string> repairs; // explicit repairs applied (the region's "repair": true)

    std::size_t size() const { return usdPerMwh.size(); }
    UtcSeconds endUtc() const { return startUtc + static_cast<std::int64_t>(size()) * stepSeconds; }
};

// The price in USD/kWh of each slot of a grid (start, step, slots): the time-weighted mean of the price
// trace over the slot, exact when the carbon and price grids align. Slots the price trace does not reach
// take `outsideUsdPerKwh`.
std::vector<double> pricesOnGrid(const PriceTrace& prices, UtcSeconds startUtc, std::int64_t stepSeconds,
                                 std::size_t slots, double outsideUsdPerKwh);

} // namespace carbon3d
