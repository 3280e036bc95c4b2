// SPDX-License-Identifier: MIT
#include "storage/RunCsv.h"

#include "domain/CsvText.h"
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
                    const std::vector<std::string>& regionIds, SeriesUnits units) {
    const bool analyst = units == SeriesUnits::Analyst;
    // The columns analysts read in larger units: their name and divisor in either form.
    const auto scaled = [analyst](double value, double divisor) {
        return csvNumber(analyst ? value / divisor : value);
    };
    out << "start,end,region,activity,dp,tp,pp,cp,gpus_active,power_limit_w,"
        << (analyst ? "facility_power_kw" : "facility_power_w") << ",ci_g_per_kwh,work_done,"
        << (analyst ? "emissions_kg" : "emissions_g") << ",gpus_held,"
        << (analyst ? "energy_kwh" : "energy_j") << ',' << (analyst ? "embodied_kg" : "embodied_g") << ','
        << (analyst ? "marginal_emissions_kg" : "marginal_emissions_g")
        << ",forecast_ci_g_per_kwh,electricity_usd_per_kwh,gpu_cost_usd,energy_cost_usd,carbon_cost_usd,cost_"
           "usd\n";
    for (const IntervalRecord& r : series) {
        const bool known = r.regionIndex >= 0 && static_cast<std::size_t>(r.regionIndex) < regionIds.size();
        const bool training = r.activity == IntervalActivity::Training;
        out << formatIsoUtc(r.start) << ',' << formatIsoUtc(r.end) << ','
            << (known ? regionIds[static_cast<std::size_t>(r.regionIndex)] : std::to_string(r.regionIndex))
            << ',' << intervalActivityName(r.activity) << ',' << (training ? r.config.dp : 0) << ','
            << (training ? r.config.tp : 0) << ',' << (training ? r.config.pp : 0) << ','
            << (training ? r.config.cp : 0) << ',' << r.gpusActive << ',' << csvNumber(r.powerLimitW) << ','
            << scaled(r.facilityPowerW, 1000.0) << ',' << csvNumber(r.ciGPerKwh) << ','
            << csvNumber(r.workDone) << ',' << scaled(r.emissionsG, 1000.0) << ',' << r.gpusHeld << ','
            << scaled(r.energyJ, 3.6e6) << ',' << scaled(r.embodiedG, 1000.0) << ','
            << scaled(r.marginalEmissionsG, 1000.0) << ',' << csvNumber(r.forecastCiGPerKwh) << ','
            << csvNumber(r.electricityUsdPerKwh) << ',' << csvNumber(r.gpuCostUsd) << ','
            << csvNumber(r.energyCostUsd) << ',' << csvNumber(r.carbonCostUsd) << ','
            << csvNumber(r.costUsd()) << '\n';
    }
}

void writeRunTableCsv(std::ostream& out, const std::vector<RunSummary>& runs) {
    std::vector<std::string> header{
        "run_id",   "name",    "scenario", "scenario_hash",       "policy", "region", "start",
        "deadline", "created", "status",   "charged_parked_share"};
    for (const MetricField& field : metricFields())
        if (field.stored)
            header.push_back(field.jsonKey);
    out << joinedText(header, ",") << '\n';
    for (const RunSummary& run : runs) {
        std::vector<std::string> cells{std::to_string(run.id),
                                       csvField(run.name),
                                       csvField(run.scenarioName),
                                       run.scenarioHash,
                                       csvField(run.policy),
                                       csvField(run.regionId),
                                       formatIsoUtc(run.startUtc),
                                       formatIsoUtc(run.deadlineUtc),
                                       formatIsoUtc(run.createdUtc),
                                       csvField(run.status),
                                       csvNumber(run.chargedParkedShare)};
        for (const MetricField& field : metricFields()) {
            if (!field.stored)
                continue;
            if (const auto* flag = std::get_if<bool RunMetrics::*>(&field.member))
                cells.emplace_back(run.metrics.**flag ? "true" : "false");
            else
                cells.push_back(csvNumber(metricValue(field, run.metrics) / field.jsonDivisor));
        }
        out << joinedText(cells, ",") << '\n';
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
                                  const std::string& directory, const std::string& prefix,
                                  SeriesUnits units) {
    ensureOutputDirectory(directory);
    const QDir dir(QString::fromStdString(directory));
    const auto write = [&](const std::string& fileName, const std::string& text) {
        const QString path = dir.filePath(QString::fromStdString(prefix + fileName));
        writeFileAtomically(path.toStdString(), text, "cannot write");
        return path.toStdString();
    };
    std::ostringstream series;
    writeSeriesCsv(series, run.series, regionIds, units);
    std::ostringstream metrics;
    writeMetricsCsv(metrics, run.metrics);
    ExportedRunFiles files;
    files.seriesCsv = write("series.csv", series.str());
    files.metricsCsv = write("metrics.csv", metrics.str());
    return files;
}

} // namespace carbon3d
