// SPDX-License-Identifier: MIT
#include "reports/NumberFormat.h"

#include <array>
#include <charconv>
#include <cstdlib>
#include <stdexcept>

namespace carbon3d::reports {

namespace {

std::string toChars(double value, std::chars_format format, int precision) {
    std::array<char, 512> buffer{}; // enough for any double in fixed notation with a few decimals
    const auto [end, error] =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format, precision);
    if (error != std::errc())
        throw std::length_error("number too long for a report");
    return {buffer.data(), end};
}

} // namespace

std::string fixed(double value, int decimals) {
    return toChars(value, std::chars_format::fixed, decimals);
}

std::string significant(double value, int digits) {
    return toChars(value, std::chars_format::general, digits);
}

std::string percent(double fraction, int decimals) {
    return fixed(100.0 * fraction, decimals) + " %";
}

std::string signedPercent(double fraction, int decimals) {
    return (fraction >= 0 ? "+" : "") + percent(fraction, decimals);
}

std::string grouped(long long value) {
    const std::string digits = std::to_string(std::llabs(value));
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return value < 0 ? "-" + out : out;
}

std::string countWord(long long value) {
    static constexpr std::array<const char*, 13> kWords{"zero", "one",    "two",   "three", "four",
                                                        "five", "six",    "seven", "eight", "nine",
                                                        "ten",  "eleven", "twelve"};
    if (value >= 0 && value < static_cast<long long>(kWords.size()))
        return kWords[static_cast<size_t>(value)];
    return std::to_string(value);
}

std::string ordinalWord(long long value) {
    static constexpr std::array<const char*, 13> kWords{"zeroth", "first",    "second",  "third",  "fourth",
                                                        "fifth",  "sixth",    "seventh", "eighth", "ninth",
                                                        "tenth",  "eleventh", "twelfth"};
    if (value >= 0 && value < static_cast<long long>(kWords.size()))
        return kWords[static_cast<size_t>(value)];
    return std::to_string(value) + "th";
}

} // namespace carbon3d::reports
