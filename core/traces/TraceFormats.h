// SPDX-License-Identifier: MIT
#pragma once

// Internal to carbon3d_traces: the carbon-trace formats as one table. Each entry is the one place a format's
// id, name, layout, file pattern, detection and parser are spelled; loadCarbonTrace, its messages, the CLI
// and the studio's import read the table, so a new format is one entry plus its parser and fixture.

#include "domain/CsvText.h"
#include "domain/Json.h"
#include "traces/RawTrace.h"
#include "traces/TraceLoader.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace carbon3d::traces_detail {

// What detection sees of a file: its CSV header (trimmed and lower-cased names) or, when its first non-blank
// character opens a JSON document, that document, parsed once (the JSON formats read it from here).
struct TraceFileHead {
    CsvHeader header;
    std::optional<JsonValue> json;
    bool has(std::string_view name) const;
    // The JSON document's root is an object with every one of these keys.
    bool hasKeys(std::initializer_list<std::string_view> keys) const;
};

// What detection reads of a file's text (without its byte-order mark); throws InputError for an empty file
// or a JSON syntax error.
TraceFileHead readTraceFileHead(std::string_view text, const std::string& path);

struct TraceFormat {
    const char* id;      // what provenance records, e.g. "electricitymaps-csv"
    const char* name;    // as messages and the studio's import button name it
    const char* layout;  // what the file looks like, for the message when no format matches
    const char* pattern; // the file dialog's pattern, "*.csv" or "*.json"
    bool (*detect)(const TraceFileHead& head);
    RawTrace (*parse)(const TraceFileHead& head, std::string_view text, const std::string& file,
                      const TraceLoadOptions& options);
};

// In detection order: the first entry whose detect() accepts the file reads it.
const std::vector<TraceFormat>& traceFormats();

// What a file no entry of a table recognises found, and what each entry expects (its name and layout), as one
// InputError at the header or the document: "<refusal>: found ...; expected one of: ...".
[[noreturn]] void refuseUnrecognised(const TraceFileHead& head, const std::string& path,
                                     const std::string& refusal, const std::vector<std::string>& expected);

// The first entry of `table` (trace or forecast formats: each has detect, name and layout) that reads the
// file.
template <typename Format>
const Format& firstFormatReading(const std::vector<Format>& table, const TraceFileHead& head,
                                 const std::string& path, const std::string& refusal) {
    for (const Format& format : table)
        if (format.detect(head))
            return format;
    std::vector<std::string> expected;
    expected.reserve(table.size());
    for (const Format& format : table)
        expected.push_back(std::string(format.name) + " (" + format.layout + ")");
    refuseUnrecognised(head, path, refusal, expected);
}

} // namespace carbon3d::traces_detail
