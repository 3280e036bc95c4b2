// SPDX-License-Identifier: MIT
#include "traces/TraceWriter.h"

#include "domain/InputError.h"
#include "domain/NumberText.h"

#include <QSaveFile>
#include <QString>

namespace carbon3d {

void writeCanonicalCsv(const CarbonTrace& trace, const std::string& path) {
    if (trace.hasMarginal() && trace.marginalGPerKwh.size() != trace.size())
        throw InputError(path, 0, 0,
                         "cannot write the trace: its marginal series has " +
                             std::to_string(trace.marginalGPerKwh.size()) + " values, expected " +
                             std::to_string(trace.size()) + " (one per slot)");
    const bool marginalOnly = trace.signal == CarbonSignal::Marginal && !trace.hasMarginal();
    std::string text;
    text.reserve(trace.size() * 48 + 64);
    text += marginalOnly ? "timestamp,marginal_g_per_kwh\n"
                         : (trace.hasMarginal() ? "timestamp,carbon_intensity_g_per_kwh,marginal_g_per_kwh\n"
                                                : "timestamp,carbon_intensity_g_per_kwh\n");
    for (std::size_t i = 0; i < trace.size(); ++i) {
        text += formatIsoUtc(trace.slotStart(i));
        text += ',';
        text += shortestNumber(trace.gPerKwh[i]);
        if (trace.hasMarginal() && !marginalOnly) {
            text += ',';
            text += shortestNumber(trace.marginalGPerKwh[i]);
        }
        text += '\n';
    }
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly))
        throw InputError(path, 0, 0, "cannot write the trace: " + file.errorString().toStdString());
    if (file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
        !file.commit())
        throw InputError(path, 0, 0, "cannot write the trace: " + file.errorString().toStdString());
}

} // namespace carbon3d
