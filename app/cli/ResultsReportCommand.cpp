// SPDX-License-Identifier: MIT
// carbon3d-cli report-results: regenerates docs/RESULTS.md - every engine policy on every bundled
// region for the default job - so the published numbers always come from the code as built.
#include "cli/Commands.h"
#include "cli/ReportOutput.h"
#include "cli/SimulateSupport.h"
#include "config/ScenarioJson.h"
#include "domain/InputError.h"
#include "engine/PolicyRegistry.h"
#include "engine/Simulator.h"
#include "runner/ScenarioRunner.h"
#include "support/DataDirectory.h"
#include "traces/TraceLoader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

namespace carbon3d::cli {

namespace {

struct RegionRow {
    std::string region;
    double meanCi = 0.0;
    double dailySwing = 0.0; // mean over days of (max - min) / mean, in the job's window
    double delayedStart =
        0.0; // 1 - (cleanest full-size window starting within the slack) / (window from now)
    std::vector<RunResult> runs;
};

const RunMetrics& metricsOf(const RegionRow& row, const std::string& policy) {
    for (const RunResult& run : row.runs) {
        if (run.policy == policy)
            return run.metrics;
    }
    throw InputError("report-results", 0, 0, "missing policy " + policy);
}

std::string percent(double fraction) {
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << 100.0 * fraction << " %";
    return out.str();
}

} // namespace

Command makeResultsReportCommand() {
    Command command;
    command.name = "report-results";
    command.summary = "regenerate docs/RESULTS.md: every policy on every bundled region, default job";
    command.usage = "report-results [--out FILE] [--policy NAME]...";
    command.details =
        "Runs the bundled default scenario with its region replaced by each bundled trace\n"
        "(sample_data/traces) and every policy of the engine. Writes Markdown to FILE (default:\n"
        "standard output).";
    command.flags = {
        {"out", true, false, "FILE", "write the Markdown here"},
        {"policy", true, true, "NAME", "policy to include (repeatable; default: the whole catalogue)"}};
    command.run = [](const CliArguments& args, CommandIo& io) {
        const std::string data = app::sampleDataDirectory().toStdString();
        const Scenario base = loadScenario(defaultScenarioPath());
        static const std::vector<std::string> files{
            "US-CAL-CISO_2022.csv", "US-TEX-ERCO_2022.csv", "GB_2022.csv", "DE_2022.csv",
            "FR_2022.csv",          "SE-SE3_2022.csv",      "ZA_2022.csv"};
        std::vector<std::string> policies = args.values("policy");
        if (policies.empty()) {
            for (const PolicyInfo& info : policyCatalog())
                policies.push_back(info.name);
        }
        if (std::find(policies.begin(), policies.end(), "static-max") == policies.end())
            policies.insert(policies.begin(), "static-max"); // the baseline of every saving
        if (std::find(policies.begin(), policies.end(), "oracle") == policies.end())
            policies.push_back("oracle");
        if (std::find(policies.begin(), policies.end(), "dynamic-3d") == policies.end())
            policies.push_back("dynamic-3d");
        if (std::find(policies.begin(), policies.end(), "suspend-resume") == policies.end())
            policies.push_back("suspend-resume");
        std::string commandLine = "carbon3d-cli report-results --out docs/RESULTS.md";
        for (const std::string& name : args.values("policy"))
            commandLine += " --policy " + name;
        std::vector<RegionRow> rows;
        PreparedScenario prepared;
        for (const std::string& file : files) {
            Scenario scenario = base;
            RegionSpec region;
            region.tracePath = data + "/traces/" + file;
            region.trace = loadCarbonTrace(region.tracePath);
            region.regionId = region.trace.regionId;
            region.timeZone = region.trace.timeZone;
            scenario.regions = {region};
            prepared = prepareScenario(scenario);
            RegionRow row;
            row.region = region.regionId;
            const CarbonTrace& trace = prepared.input.regions.front();
            const auto first =
                static_cast<std::size_t>((prepared.input.startUtc - trace.startUtc) / trace.stepSeconds);
            const auto last =
                static_cast<std::size_t>((prepared.input.deadlineUtc - trace.startUtc) / trace.stepSeconds);
            const std::size_t perDay = static_cast<std::size_t>(kSecondsPerDay / trace.stepSeconds);
            double sum = 0.0;
            for (std::size_t i = first; i < last; ++i)
                sum += trace.gPerKwh[i];
            row.meanCi = sum / static_cast<double>(last - first);
            int days = 0;
            for (std::size_t d = first; d + perDay <= last; d += perDay) {
                const auto begin = trace.gPerKwh.begin() + static_cast<std::ptrdiff_t>(d);
                const auto [lo, hi] = std::minmax_element(begin, begin + static_cast<std::ptrdiff_t>(perDay));
                row.dailySwing += (*hi - *lo) / row.meanCi;
                ++days;
            }
            row.dailySwing /= std::max(1, days);
            // What a delayed start alone can buy: mean CI over the static-max runtime, starting now vs
            // at the best slot within the slack.
            const RunResult fastest = runPolicy(prepared, PolicySpec{"static-max", {}});
            const auto runtime =
                static_cast<std::size_t>(fastest.metrics.completionSeconds / trace.stepSeconds);
            auto windowMean = [&](std::size_t from) {
                double total = 0.0;
                for (std::size_t i = from; i < from + runtime; ++i)
                    total += trace.gPerKwh[i];
                return total / static_cast<double>(runtime);
            };
            const double now = windowMean(first);
            double best = now;
            for (std::size_t s = first; s + runtime <= last; ++s)
                best = std::min(best, windowMean(s));
            row.delayedStart = 1.0 - best / now;
            for (const std::string& name : policies)
                row.runs.push_back(
                    runPolicy(prepared, PolicySpec{name, {}})); // the runner applies eadt's levers
            rows.push_back(std::move(row));
        }

        std::ostringstream md;
        md << std::fixed;
        md << "# Results: every policy on every bundled region\n\n"
           << "Generated by `" << commandLine << "` (do not edit by hand).\n\n"
           << "Job: the bundled default scenario (" << base.name
           << "), with its region replaced by each of the "
           << "seven bundled 2022 traces (Electricity Maps, ODbL: see sample_data/traces/SOURCES.md). Start "
           << formatIsoUtc(prepared.input.startUtc) << ", deadline " << std::setprecision(1)
           << static_cast<double>(prepared.input.deadlineUtc - prepared.input.startUtc) / 3600.0
           << " h later (slack over static-max), hard. Menu: " << prepared.menu.size()
           << " Pareto options of the analytic performance model. Modelling: parked GPUs "
           << rows.front().runs.front().modelling.at("parked_gpus") << ", reconfiguration "
           << rows.front().runs.front().modelling.at("reconfiguration_s") << " s, preemption "
           << rows.front().runs.front().modelling.at("preemption_s") << " s, forecast `" << base.forecast.kind
           << "` (" << base.forecast.horizonHours
           << " h horizon; beyond it a 7-day past-only daily profile). Emissions include embodied "
              "carbon.\n\n";
        md << "| region | mean CI g/kWh | daily swing | delayed-start CI gain | policy | emissions t | "
              "completion h | savings vs static-max | reconfig. | preempt. |\n"
              "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n";
        for (const RegionRow& row : rows) {
            const RunMetrics& baseline = metricsOf(row, "static-max");
            for (const RunResult& run : row.runs) {
                const RunMetrics& m = run.metrics;
                md << "| " << row.region << " | " << std::setprecision(0) << row.meanCi << " | "
                   << std::setprecision(0) << 100.0 * row.dailySwing << " % | " << std::setprecision(1)
                   << 100.0 * row.delayedStart << " % | " << run.policy << " | " << std::setprecision(1)
                   << m.totalG / 1e6 << " | " << m.completionSeconds / 3600.0 << " | "
                   << percent(savingsFraction(m, baseline)) << " | " << m.reconfigurations << " | "
                   << m.preemptions << " |\n";
            }
        }
        // What the numbers teach, computed from them.
        auto saving = [](const RegionRow& row, const std::string& policy) {
            return savingsFraction(metricsOf(row, policy), metricsOf(row, "static-max"));
        };
        const auto best =
            std::max_element(rows.begin(), rows.end(), [&](const RegionRow& a, const RegionRow& b) {
                return saving(a, "oracle") < saving(b, "oracle");
            });
        const auto worst =
            std::min_element(rows.begin(), rows.end(), [&](const RegionRow& a, const RegionRow& b) {
                return saving(a, "oracle") < saving(b, "oracle");
            });
        const auto swingiest =
            std::max_element(rows.begin(), rows.end(), [](const RegionRow& a, const RegionRow& b) {
                return a.dailySwing < b.dailySwing;
            });
        const auto flattest =
            std::min_element(rows.begin(), rows.end(), [](const RegionRow& a, const RegionRow& b) {
                return a.dailySwing < b.dailySwing;
            });
        md << "\n## What the numbers teach\n\n";
        md << "- Columns: *daily swing* = mean over the window's days of (max - min) / mean CI; "
              "*delayed-start "
              "CI gain* = how much lower the mean CI of the full-size runtime is when it starts at the best "
              "hour "
              "within the slack instead of now (what waiting alone can buy on energy).\n";
        md << "- The offline optimum saves the most in " << best->region << " ("
           << percent(saving(*best, "oracle")) << ", delayed-start gain " << percent(best->delayedStart)
           << ") and the least in " << worst->region << " (" << percent(saving(*worst, "oracle"))
           << ", delayed-start gain " << percent(worst->delayedStart) << "). The largest daily swing is "
           << swingiest->region << "'s (" << std::setprecision(0) << 100.0 * swingiest->dailySwing
           << " %), yet its oracle saves " << percent(saving(*swingiest, "oracle")) << ": with all "
           << prepared.input.gpusHeld << " GPUs held (parked GPUs "
           << rows.front().runs.front().modelling.at("parked_gpus")
           << ", embodied carbon charged while held) and a "
           << rows.front().runs.front().modelling.at("preemption_s")
           << " s preemption per pause, riding a daily dip means paying idle and embodied carbon through "
              "every "
              "pause, which eats most of the gain. What a multi-day shift of the whole run can reach (the "
              "delayed-start gain) predicts the savings better than the daily swing. The flattest grid, "
           << flattest->region << " (swing " << std::setprecision(0) << 100.0 * flattest->dailySwing
           << " %), leaves almost nothing: oracle " << percent(saving(*flattest, "oracle")) << ".\n";
        md << "- The oracle bounds every policy from below; the gap between it and dynamic-3d (the seed's "
              "policy) is what better forecasts or planning could still recover: ";
        for (std::size_t i = 0; i < rows.size(); ++i)
            md << (i ? ", " : "") << rows[i].region << " "
               << percent(saving(rows[i], "oracle") - saving(rows[i], "dynamic-3d"));
        md << " of static-max's emissions.\n";
        md << "- Suspend-resume pays for pausing: parked GPUs keep drawing idle power and carry embodied "
              "carbon "
              "while held, and each resume costs a preemption. Where it loses to static-max (";
        bool any = false;
        for (const RegionRow& row : rows) {
            if (saving(row, "suspend-resume") < 0.0) {
                md << (any ? ", " : "") << row.region;
                any = true;
            }
        }
        md << (any ? "" : "none here")
           << "), the held GPUs' idle and embodied carbon outweighed the cleaner hours it waited for.\n";
        md << "- Completion times show the price: carbon-aware policies finish later (up to the deadline) "
              "while static-max finishes first; best-static and the oracle trade speed for carbon only when "
              "the "
              "menu's smaller configurations are more carbon-efficient per token after idle and embodied "
              "carbon are counted.\n";
        md << "\nForecast errors (MAPE over the run window) and every modelling choice are in each run's "
              "JSON "
              "(`carbon3d-cli simulate --json`).\n";
        writeReport(md.str(), args.value("out"), io);
        return 0;
    };
    return command;
}

} // namespace carbon3d::cli
