// SPDX-License-Identifier: MIT
#pragma once

// Internal to carbon3d_traces: reading one field of a CSV row or a JSON document, with the error every
// format gives when the field is wrong (the file, the line and column, and what was expected). The trace
// formats and the forecast formats share them.

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/Time.h"

#include <string>
#include <string_view>
#include <vector>

namespace carbon3d::traces_detail {

double numberCell(const CsvCell& cell, const std::string& file, int line, std::string_view what);
UtcSeconds timestampCell(const CsvCell& cell, const std::string& file, int line, std::string_view example);
// The position of `name` in a header, -1 when absent.
int findColumn(const std::vector<std::string>& header, std::string_view name);

[[noreturn]] void failAt(const std::string& file, const JsonValue& at, const std::string& problem);
// The member `key` of `object`, of the given type; `context` names what the object is, for the message.
const JsonValue& member(const std::string& file, const JsonValue& object, std::string_view key,
                        JsonValue::Type type, std::string_view context);
UtcSeconds timestampOf(const std::string& file, const JsonValue& value, std::string_view example);

} // namespace carbon3d::traces_detail
