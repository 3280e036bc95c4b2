// SPDX-License-Identifier: MIT
#include "domain/Time.h"

#include <QDateTime>
#include <QTimeZone>
#include <array>
#include <cstdio>

namespace carbon3d {

std::int64_t daysFromCivil(int year, unsigned month, unsigned day) {
    const int y = year - (month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return static_cast<std::int64_t>(era) * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

namespace {

bool readDigits(std::string_view text, size_t pos, size_t count, int& value) {
    if (pos + count > text.size())
        return false;
    value = 0;
    for (size_t i = 0; i < count; ++i) {
        const char c = text[pos + i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    return true;
}

bool isLeapYear(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int daysInMonth(int year, int month) {
    static constexpr std::array<int, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeapYear(year) ? 29 : kDays[static_cast<size_t>(month - 1)];
}

} // namespace

std::optional<UtcSeconds> parseIsoDateTime(std::string_view text) {
    int year = 0;
    int month = 0;
    int day = 0;
    if (!readDigits(text, 0, 4, year) || text.size() < 10 || text[4] != '-' ||
        !readDigits(text, 5, 2, month) || text[7] != '-' || !readDigits(text, 8, 2, day))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
        return std::nullopt;
    const std::int64_t days = daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    if (text.size() == 10)
        return days * kSecondsPerDay;

    if (text[10] != 'T' && text[10] != ' ')
        return std::nullopt;
    int hour = 0;
    int minute = 0;
    int second = 0;
    if (!readDigits(text, 11, 2, hour) || text.size() < 16 || text[13] != ':' ||
        !readDigits(text, 14, 2, minute))
        return std::nullopt;
    size_t pos = 16;
    if (pos < text.size() && text[pos] == ':') {
        if (!readDigits(text, pos + 1, 2, second))
            return std::nullopt;
        pos += 3;
        if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
            ++pos;
            const size_t fractionStart = pos;
            while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
                ++pos;
            if (pos == fractionStart)
                return std::nullopt;
        }
    }
    if (hour > 23 || minute > 59 || second > 59) // no leap seconds in grid data
        return std::nullopt;

    int offsetSeconds = 0;
    if (pos < text.size()) {
        const char sign = text[pos];
        if (sign == 'Z' || sign == 'z') {
            ++pos;
        } else if (sign == '+' || sign == '-') {
            int offHours = 0;
            int offMinutes = 0;
            if (!readDigits(text, pos + 1, 2, offHours))
                return std::nullopt;
            size_t next = pos + 3;
            if (next < text.size() && text[next] == ':')
                ++next;
            if (!readDigits(text, next, 2, offMinutes))
                return std::nullopt;
            pos = next + 2;
            if (offHours > 14 || offMinutes > 59)
                return std::nullopt;
            offsetSeconds = (offHours * 3600 + offMinutes * 60) * (sign == '-' ? -1 : 1);
        } else {
            return std::nullopt;
        }
    }
    if (pos != text.size())
        return std::nullopt;
    return days * kSecondsPerDay + static_cast<std::int64_t>(hour) * 3600 +
           static_cast<std::int64_t>(minute) * 60 + second - offsetSeconds;
}

std::string formatIsoUtc(UtcSeconds t) {
    std::int64_t days = t / kSecondsPerDay;
    std::int64_t secondsOfDay = t % kSecondsPerDay;
    if (secondsOfDay < 0) {
        secondsOfDay += kSecondsPerDay;
        --days;
    }
    // civil-from-days (Hinnant)
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    std::array<char, 96> buffer{}; // generous: GCC's -Wformat-truncation assumes the widest int64 fields
    std::snprintf(
        buffer.data(), buffer.size(), "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ",
        static_cast<long long>(y) + (m <= 2 ? 1 : 0), m, d, static_cast<long long>(secondsOfDay / 3600),
        static_cast<long long>((secondsOfDay % 3600) / 60), static_cast<long long>(secondsOfDay % 60));
    return buffer.data();
}

bool isKnownTimeZone(const std::string& ianaZone) {
    return QTimeZone::isTimeZoneIdAvailable(QByteArray::fromStdString(ianaZone));
}

std::optional<int> utcOffsetSeconds(const std::string& ianaZone, UtcSeconds t) {
    if (ianaZone == "UTC" || ianaZone == "Etc/UTC")
        return 0;
    const QTimeZone zone(QByteArray::fromStdString(ianaZone));
    if (!zone.isValid())
        return std::nullopt;
    return zone.offsetFromUtc(QDateTime::fromSecsSinceEpoch(t, QTimeZone::utc()));
}

} // namespace carbon3d
