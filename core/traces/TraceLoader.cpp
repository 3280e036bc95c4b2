// SPDX-License-Identifier: MIT
#include "traces/TraceLoader.h"

#include "domain/CsvText.h"
#include "domain/InputError.h"
#include "domain/InputFile.h"
#include "domain/Json.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "traces/RawTrace.h"
#include "traces/TraceFormats.h"

#include <QByteArrayView>
#include <QCryptographicHash>
#include <algorithm>
#include <filesystem>

namespace carbon3d {

using namespace traces_detail;

std::string traces_detail::sha256Hex(const std::string& bytes) {
    return QCryptographicHash::hash(QByteArrayView(bytes.data(), static_cast<qsizetype>(bytes.size())),
                                    QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

const std::string& electricityMapsAttribution() {
    static const std::string text =
        "Contains information from the Electricity Maps Data Portal "
        "(https://www.electricitymaps.com/data-portal), "
        "made available under the Open Database License (ODbL 1.0). (c) Electricity Maps.";
    return text;
}

namespace {

// Checked before reading so that a wrong path (a multi-gigabyte dump, a device) cannot exhaust memory.
std::string readTraceFile(const std::string& path, std::int64_t maxBytes) {
    return readInputFile(path, maxBytes, "a carbon-intensity trace file");
}

std::string regionFromFileName(const std::string& path) {
    const std::string stem = std::filesystem::path(path).stem().string();
    return stem.substr(0, stem.find('_'));
}

} // namespace

CarbonTrace loadCarbonTrace(const std::string& path, const TraceLoadOptions& options) {
    if (!options.column.empty() && options.column != "lca" && options.column != "direct")
        throw InputError(path, 0, 0,
                         "unknown column option '" + options.column + "': expected 'lca' or 'direct'");
    if (!options.timeZone.empty() && !isKnownTimeZone(options.timeZone))
        throw InputError(path, 0, 0,
                         "unknown IANA time zone '" + options.timeZone +
                             "': expected a zone such as Europe/Berlin");

    const std::string bytes = readTraceFile(path, options.maxFileBytes);
    const std::string_view text = withoutByteOrderMark(bytes);

    const TraceFileHead head = readTraceFileHead(text, path);
    const TraceFormat& format = firstFormatReading(traceFormats(), head, path, "unknown format");
    RawTrace raw = format.parse(head, text, path, options);
    raw.format = format.id;

    GridResult grid = buildUniformGrid(raw, path, options.repair);

    CarbonTrace trace;
    trace.regionId = !options.regionId.empty()
                         ? options.regionId
                         : (!raw.regionId.empty() ? raw.regionId : regionFromFileName(path));
    const std::optional<std::string> known = knownTimeZoneForRegion(trace.regionId);
    trace.timeZone = !options.timeZone.empty() ? options.timeZone : known.value_or("UTC");
    trace.timeZoneAssumed = options.timeZone.empty() && !known;
    trace.signal = raw.signal;
    trace.startUtc = grid.startUtc;
    trace.stepSeconds = grid.stepSeconds;
    trace.gPerKwh = std::move(grid.gPerKwh);
    trace.marginalGPerKwh = std::move(grid.marginalGPerKwh);
    TraceProvenance& provenance = trace.provenance;
    provenance.sourceFile = path;
    provenance.format = raw.format;
    provenance.column = raw.column;
    provenance.contentSha256 = sha256Hex(bytes);
    provenance.attribution = raw.attribution;
    provenance.repairs = std::move(grid.repairs);
    provenance.notes = std::move(raw.notes);
    provenance.notes.insert(provenance.notes.end(), grid.notes.begin(), grid.notes.end());
    provenance.estimatedRows = raw.estimatedRows;
    provenance.directColumn = options.column == "direct";
    return trace;
}

} // namespace carbon3d
