// SPDX-License-Identifier: MIT
#include "storage/RunCsv.h"

#include "domain/InputError.h"
#include "domain/MetricFields.h"
#include "domain/NumberText.h"
#include "domain/OutputFile.h"
#include "domain/TextList.h"

#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <ostream>
#include <sstream>

namespace carbon3d {

std::string csvNumber(double value) {
    if (std::isnan(value))
        return {};
    return shortestNumber(value);
}

void writeSeriesCsv(std::ostream& out, const std::vector<IntervalRecord>& series,
                    const std::vector<std::string>& regionIds) {
    out << "start,end,region,activity,dp,tp,pp,cp,gpus_active,power_limit_w,facility_power_w,ci_g_per_kwh,"
           "work_done,emissions_g,gpus_held,energy_j,embodied_g,marginal_emissions_g,forecast_ci_g_per_kwh,"
           "electricity_usd_per_kwh,gpu_cost_usd,energy_cost_usd,carbon_cost_usd,cost_usd\n";
    for (const IntervalRecord& r : series) {
        const bool known = r.regionIndex >= 0 && static_cast<std::size_t>(r.regionIndex) < regionIds.size();
        const bool training = r.activity == IntervalActivity::Training;
        out << formatIsoUtc(r.start) << ',' << formatIsoUtc(r.end) << ','
            << (known ? regionIds[static_cast<std::size_t>(r.regionIndex)] : std::to_string(r.regionIndex))
            << ',' << intervalActivityName(r.activity) << ',' << (training ? r.config.dp : 0) << ','
            << (training ? r.config.tp : 0) << ',' << (training ? r.config.pp : 0) << ','
            << (training ? r.config.cp : 0) << ',' << r.gpusActive << ',' << csvNumber(r.powerLimitW) << ','
            << csvNumber(r.facilityPowerW) << ',' << csvNumber(r.ciGPerKwh) << ',' << csvNumber(r.workDone)
            << ',' << csvNumber(r.emissionsG) << ',' << r.gpusHeld << ',' << csvNumber(r.energyJ) << ','
            << csvNumber(r.embodiedG) << ',' << csvNumber(r.marginalEmissionsG) << ','
            << csvNumber(r.forecastCiGPerKwh) << ',' << csvNumber(r.electricityUsdPerKwh) << ','
            << csvNumber(r.gpuCostUsd) << ',' << csvNumber(r.energyCostUsd) << ','
            << csvNumber(r.carbonCostUsd) << ',' << csvNumber(r.costUsd()) << '\n';
    }
}

void writeMetricsCsv(std::ostream& out, const RunMetrics& m) {
    std::vector<std::string> header;
    std::vector<std::string> values;
    for (const MetricField& field : metricFields()) {
        if (!field.stored)
            continue; // the export of a saved run has only what the database keeps
        header.push_back(field.name);
        if (const auto* flag = std::get_if<bool RunMetrics::*>(&field.member))
            values.emplace_back(m.**flag ? "true" : "false");
        else if (const auto* count = std::get_if<int RunMetrics::*>(&field.member))
            values.push_back(std::to_string(m.**count));
        else
            values.push_back(csvNumber(metricValue(field, m)));
    }
    out << joinedText(header, ",") << '\n' << joinedText(values, ",") << '\n';
}

void ensureOutputDirectory(const std::string& directory) {
    const QFileInfo info(QString::fromStdString(directory));
    if (info.exists() && !info.isDir())
        throw InputError(directory, 0, 0,
                         "expected a directory for the output files, found a file of that name");
    if (!QDir().mkpath(info.absoluteFilePath()))
        throw InputError(directory, 0, 0,
                         "cannot create the output directory (check its parent's permissions)");
}

void writeSeriesCsvFile(const RunResult& run, const std::vector<std::string>& regionIds,
                        const std::string& path) {
    std::ostringstream series;
    writeSeriesCsv(series, run.series, regionIds);
    writeFileAtomically(path, series.str(), "cannot write");
}

ExportedRunFiles writeRunCsvFiles(const RunResult& run, const std::vector<std::string>& regionIds,
                                  const std::string& directory, const std::string& prefix) {
    ensureOutputDirectory(directory);
    const QDir dir(QString::fromStdString(directory));
    const auto write = [&](const std::string& fileName, const std::string& text) {
        const QString path = dir.filePath(QString::fromStdString(prefix + fileName));
        writeFileAtomically(path.toStdString(), text, "cannot write");
        return path.toStdString();
    };
    std::ostringstream series;
    writeSeriesCsv(series, run.series, regionIds);
    std::ostringstream metrics;
    writeMetricsCsv(metrics, run.metrics);
    ExportedRunFiles files;
    files.seriesCsv = write("series.csv", series.str());
    files.metricsCsv = write("metrics.csv", metrics.str());
    return files;
}

} // namespace carbon3d
