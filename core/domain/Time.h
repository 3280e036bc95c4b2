// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace carbon3d {

// Instants inside the core are whole seconds since the Unix epoch, UTC (int64). Carbon traces are
// hourly or finer, so sub-second precision is never needed, and integers make slot arithmetic exact.
using UtcSeconds = std::int64_t;

constexpr std::int64_t kSecondsPerHour = 3600;
constexpr std::int64_t kSecondsPerDay = 86400;

// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's civil-from-days algorithm).
std::int64_t daysFromCivil(int year, unsigned month, unsigned day);

// Parses ISO-8601 / RFC 3339 date-times: "2022-06-01T00:00:00Z", "2022-06-01 00:00:00" (taken as UTC),
// "2022-06-01T02:00:00+02:00", fractional seconds ("...:00.000Z", truncated), and a bare date
// "2022-06-01" (midnight UTC). Returns nullopt on anything else.
std::optional<UtcSeconds> parseIsoDateTime(std::string_view text);

// "2022-06-01T00:00:00Z"
std::string formatIsoUtc(UtcSeconds t);

// Offset of the IANA zone from UTC at instant t, in seconds (e.g. -25200 for America/Los_Angeles
// in summer). Uses the system's zone database through QTimeZone; nullopt for an unknown zone.
std::optional<int> utcOffsetSeconds(const std::string& ianaZone, UtcSeconds t);
bool isKnownTimeZone(const std::string& ianaZone);

} // namespace carbon3d
