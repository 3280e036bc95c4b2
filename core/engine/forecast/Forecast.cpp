// SPDX-License-Identifier: MIT
#include "engine/forecast/Forecast.h"

#include <algorithm>
#include <cmath>

namespace carbon3d {

namespace {

std::size_t slotOfDay(double t, std::int64_t step, std::size_t slotsPerDay) {
    const auto slot = static_cast<std::int64_t>(std::floor(t / static_cast<double>(step)));
    const auto perDay = static_cast<std::int64_t>(slotsPerDay);
    return static_cast<std::size_t>(((slot % perDay) + perDay) % perDay);
}

} // namespace

double Forecast::valueAt(double t) const {
    const double offset = t - static_cast<double>(firstSlotUtc);
    const auto index = static_cast<std::int64_t>(std::floor(offset / static_cast<double>(stepSeconds)));
    if (index >= 0 && index < static_cast<std::int64_t>(horizon.size()))
        return horizon[static_cast<std::size_t>(index)];
    if (dailyProfile.empty())
        return horizon.empty() ? 0.0 : horizon.back();
    return dailyProfile[slotOfDay(t, stepSeconds, dailyProfile.size())];
}

double Forecast::sampledSum(double from, double dt, std::int64_t n) const {
    if (!(dt > 0.0))
        return static_cast<double>(std::max<std::int64_t>(0, n)) * valueAt(from);
    const auto first = static_cast<double>(firstSlotUtc);
    const auto step = static_cast<double>(stepSeconds);
    const auto slots = static_cast<double>(horizon.size());
    const auto startOf = [&](std::int64_t j) { return from + static_cast<double>(j) * dt; };
    // Which value valueAt reads at step j's start, as a number that grows with time: the horizon's slot, or
    // outside it the epoch's slot, by which the daily profile is read (the two grids differ when the
    // forecast's slots are not aligned to the epoch's).
    constexpr double kOutside = 1e12;
    const auto pieceOf = [&](std::int64_t j) {
        const double t = startOf(j);
        const double slot = std::floor((t - first) / step);
        if (slot >= 0.0 && slot < slots)
            return slot;
        return std::floor(t / step) + (slot < 0.0 ? -kOutside : kOutside);
    };
    double sum = 0.0;
    for (std::int64_t j = 0; j < n;) {
        const double piece = pieceOf(j);
        const double t = startOf(j);
        // The first step of the next piece: estimated from the nearer of the two grids' next boundaries,
        // then settled by the same test.
        const double boundary = std::min(first + (std::floor((t - first) / step) + 1.0) * step,
                                         (std::floor(t / step) + 1.0) * step);
        auto next = static_cast<std::int64_t>(std::clamp(std::ceil((boundary - from) / dt),
                                                         static_cast<double>(j + 1), static_cast<double>(n)));
        while (next > j + 1 && pieceOf(next - 1) > piece)
            --next;
        while (next < n && pieceOf(next) <= piece)
            ++next;
        sum += static_cast<double>(next - j) * valueAt(t);
        j = next;
    }
    return sum;
}

double Forecast::integral(double a, double b) const {
    // Slot by slot inside the horizon, then whole days of the profile at once: no pieces allocated
    // (policies integrate several times per decision, ~100,000 decisions a year at 5 minutes).
    if (!(b > a))
        return 0.0;
    const auto step = static_cast<double>(stepSeconds);
    const auto first = static_cast<double>(firstSlotUtc);
    const auto hEnd = static_cast<double>(horizonEndUtc());
    double sum = 0.0;
    double t = a;
    if (t < hEnd && t >= first) {
        auto index = static_cast<std::size_t>(std::floor((t - first) / step));
        for (; t < b && t < hEnd; ++index) {
            const double end = std::min({first + static_cast<double>(index + 1) * step, b, hEnd});
            sum += (end - t) * horizon[index];
            t = end;
        }
    }
    if (t >= b)
        return sum;
    if (dailyProfile.empty() || t < first) {
        for (const ForecastPiece& piece : pieces(t, b, true)) // rare: no profile, or before the horizon
            sum += piece.durationS * piece.ciGPerKwh;
        return sum;
    }
    const std::size_t perDay = dailyProfile.size();
    const double day = step * static_cast<double>(perDay);
    auto slotValue = [&](double at) { return dailyProfile[slotOfDay(at, stepSeconds, perDay)]; };
    // To the next slot boundary, then whole slots up to a day boundary, whole days, the rest.
    while (t < b && t != std::floor(t / step) * step) {
        const double end = std::min(b, (std::floor(t / step) + 1.0) * step);
        sum += (end - t) * slotValue(t);
        t = end;
    }
    if (b - t >= day) {
        double dayTotal = 0.0;
        for (double v : dailyProfile)
            dayTotal += v * step;
        const double days = std::floor((b - t) / day);
        sum += days * dayTotal;
        t += days * day;
    }
    while (t < b) {
        const double end = std::min(b, t + step);
        sum += (end - t) * slotValue(t);
        t = end;
    }
    return sum;
}

std::vector<ForecastPiece> Forecast::pieces(double a, double b, bool groupBeyond) const {
    std::vector<ForecastPiece> out;
    if (!(b > a))
        return out;
    const auto step = static_cast<double>(stepSeconds);
    const auto hEnd = static_cast<double>(horizonEndUtc());
    double t = a;
    // Inside the horizon: slot by slot (by index: this runs ~100,000 times a year at 5-minute decisions).
    if (t < b && t < hEnd) {
        const auto first = static_cast<double>(firstSlotUtc);
        auto index = static_cast<std::int64_t>(std::floor((t - first) / step));
        out.reserve(static_cast<std::size_t>(
                        std::max<std::int64_t>(0, static_cast<std::int64_t>(horizon.size()) - index)) +
                    1);
        for (; t < b && t < hEnd; ++index) {
            const double end = std::min({first + static_cast<double>(index + 1) * step, b, hEnd});
            const double value = index >= 0 ? horizon[static_cast<std::size_t>(index)] : valueAt(t);
            out.push_back({t, end - t, value, false});
            t = end;
        }
    }
    if (t >= b)
        return out;
    const std::size_t perDay = dailyProfile.empty() ? 1 : dailyProfile.size();
    if (!groupBeyond || dailyProfile.empty()) {
        while (t < b) {
            const double end = std::min(b, (std::floor(t / step) + 1.0) * step);
            out.push_back({t, end - t, valueAt(t), true});
            t = end;
        }
        return out;
    }
    // Beyond the horizon the profile repeats daily: one piece per slot of day, durations summed.
    std::vector<double> duration(perDay, 0.0);
    std::vector<double> firstStart(perDay, -1.0);
    const double day = step * static_cast<double>(perDay);
    auto add = [&](double from, double to) {
        const std::size_t q = slotOfDay(from, stepSeconds, perDay);
        if (firstStart[q] < 0.0)
            firstStart[q] = from;
        duration[q] += to - from;
    };
    // Walk slot by slot until a whole day is aligned, then add whole days at once, then the tail.
    while (t < b) {
        const double slotEnd = (std::floor(t / step) + 1.0) * step;
        if (t == std::floor(t / step) * step && b - t >= day) {
            const double days = std::floor((b - t) / day);
            for (std::size_t i = 0; i < perDay; ++i)
                add(t + static_cast<double>(i) * step, t + static_cast<double>(i) * step + step * days);
            t += days * day;
            continue;
        }
        const double end = std::min(b, slotEnd);
        add(t, end);
        t = end;
    }
    for (std::size_t q = 0; q < perDay; ++q) {
        if (duration[q] > 0.0)
            out.push_back({firstStart[q], duration[q], dailyProfile[q], true});
    }
    return out;
}

} // namespace carbon3d
