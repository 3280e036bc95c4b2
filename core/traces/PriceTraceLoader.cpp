// SPDX-License-Identifier: MIT
#include "domain/InputFile.h"
#include "traces/RawTrace.h"
#include "traces/TraceLoader.h"

namespace carbon3d {

PriceTrace loadPriceTrace(const std::string& path, const TraceLoadOptions& options) {
    const std::string bytes = readInputFile(path, options.maxFileBytes, "an electricity price trace file");
    const std::string_view text = withoutByteOrderMark(bytes);
    traces_detail::RawTrace raw = traces_detail::parsePriceCsv(text, path);
    traces_detail::GridResult grid = traces_detail::buildUniformGrid(raw, path, options.repair);
    PriceTrace trace;
    trace.regionId = options.regionId;
    trace.startUtc = grid.startUtc;
    trace.stepSeconds = grid.stepSeconds;
    trace.usdPerMwh = std::move(grid.gPerKwh);
    trace.sourceFile = path;
    trace.contentSha256 = traces_detail::sha256Hex(bytes);
    trace.repairs = std::move(grid.repairs);
    return trace;
}

} // namespace carbon3d
