// SPDX-License-Identifier: MIT
// The power-log formats as one table: each entry's id, name, what its header looks like, detection and
// reader. Every reader reduces its log to the mean power while the job ran (PowerLogSummary).

#include "config/PowerLogs.h"

#include "domain/CsvText.h"
#include "domain/InputFile.h"
#include "domain/NumberText.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "domain/Time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <set>

namespace carbon3d {

namespace {

// nvidia-smi samples below this GPU utilisation are not training (loading, checkpointing, evaluation,
// waiting): the mean is over the busy ones (docs/DECISIONS.md "Measured power").
constexpr double kBusyUtilisation = 50.0;
// A board draws at most a few kW; more is a unit mistake (mW) or a corrupt cell.
constexpr double kMostWattsPerGpu = 5000.0;

int columnOf(const CsvHeader& header, std::string_view prefix) {
    for (std::size_t i = 0; i < header.names.size(); ++i)
        if (header.names[i].rfind(prefix, 0) == 0)
            return static_cast<int>(i);
    return -1;
}

// A number cell that may carry its unit ("245.12 W", "98 %"), as nvidia-smi writes them without nounits.
std::optional<double> numberWithUnit(std::string_view text, std::string_view unit) {
    if (text.size() > unit.size() && text.substr(text.size() - unit.size()) == unit)
        text.remove_suffix(unit.size());
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    const std::optional<double> value = parseCsvNumber(text);
    return value && std::isfinite(*value) ? value : std::nullopt;
}

double checkedWatts(double watts, const std::string& file, int line, int column) {
    if (!(watts >= 0.0 && watts <= kMostWattsPerGpu))
        throw InputError(file, line, column,
                         "power " + shortestNumber(watts) + " W: expected 0 to " +
                             shortestNumber(kMostWattsPerGpu) + " W per GPU");
    return watts;
}

// nvidia-smi's "2024/05/01 12:00:00.123" (local time; only differences are used).
std::optional<double> nvidiaSmiSeconds(std::string_view text) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0;
    double second = 0.0;
    const std::string copy(text);
    if (std::sscanf(copy.c_str(), "%d/%d/%d %d:%d:%lf", &year, &month, &day, &hour, &minute, &second) != 6)
        return std::nullopt;
    return static_cast<double>(
               daysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day))) *
               86400.0 +
           hour * 3600.0 + minute * 60.0 + second;
}

// The whitespace-separated words of a line (dcgmi's aligned columns).
std::vector<std::string> splitWords(std::string_view line) {
    std::vector<std::string> words;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t start = line.find_first_not_of(" \t\r", at);
        if (start == std::string_view::npos)
            break;
        const std::size_t end = std::min(line.find_first_of(" \t\r", start), line.size());
        words.emplace_back(line.substr(start, end - start));
        at = end;
    }
    return words;
}

PowerLogSummary readNvidiaSmi(const CsvHeader& header, std::string_view text, const std::string& file) {
    const int power = columnOf(header, "power.draw");
    const int index = columnOf(header, "index");
    const int utilisation = columnOf(header, "utilization.gpu");
    const int time = columnOf(header, "timestamp");
    PowerLogSummary summary;
    double sum = 0.0;
    std::size_t unavailable = 0, idle = 0;
    std::set<std::string> gpus;
    std::optional<double> first, last;
    forEachCsvDataRow(text, file, header.names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        const CsvCell& cell = cells[static_cast<std::size_t>(power)];
        if (time >= 0)
            if (const std::optional<double> at =
                    nvidiaSmiSeconds(cells[static_cast<std::size_t>(time)].text)) {
                first = first ? std::min(*first, *at) : *at;
                last = last ? std::max(*last, *at) : *at;
            }
        if (cell.text.find("N/A") != std::string_view::npos ||
            cell.text.find("Not Supported") != std::string_view::npos) {
            ++unavailable;
            return;
        }
        const std::optional<double> watts = numberWithUnit(cell.text, "W");
        if (!watts)
            throw InputError(file, line, cell.column,
                             "unparsable power " + quotedExcerpt(cell.text) +
                                 ": expected watts such as 245.12 W");
        if (utilisation >= 0) {
            const CsvCell& busy = cells[static_cast<std::size_t>(utilisation)];
            const std::optional<double> percent = numberWithUnit(busy.text, "%");
            if (!percent)
                throw InputError(file, line, busy.column,
                                 "unparsable utilisation " + quotedExcerpt(busy.text) +
                                     ": expected a percentage");
            if (*percent < kBusyUtilisation) {
                ++idle;
                return;
            }
        }
        sum += checkedWatts(*watts, file, line, cell.column);
        ++summary.samples;
        if (index >= 0)
            gpus.insert(std::string(cells[static_cast<std::size_t>(index)].text));
    });
    if (summary.samples == 0)
        throw InputError(file, header.line, 0,
                         "no busy sample with a power reading: expected rows with power.draw" +
                             std::string(utilisation >= 0 ? " at 50 % utilisation or more" : ""));
    summary.meanPowerW = sum / static_cast<double>(summary.samples);
    summary.devices = static_cast<int>(gpus.size());
    summary.seconds = first && last ? *last - *first : 0.0;
    if (idle > 0)
        summary.notes.push_back(std::to_string(idle) +
                                " samples below 50 % utilisation left out (not training)");
    if (unavailable > 0)
        summary.notes.push_back(std::to_string(unavailable) +
                                " samples without a power reading (N/A) left out");
    return summary;
}

// `dcgmi dmon -e 155,...`: "#Entity POWER ..." then a units line "ID W ...", then "GPU 0 245.1 ..." rows; the
// two header lines repeat every few dozen samples.
PowerLogSummary readDcgmiDmon(const CsvHeader&, std::string_view text, const std::string& file) {
    PowerLogSummary summary;
    CsvLineReader reader(text);
    std::string_view line;
    int number = 0;
    int power = -1; // the POWER field's position among the values
    double sum = 0.0;
    std::size_t unavailable = 0;
    std::set<std::string> gpus;
    while (reader.next(line, number)) {
        const std::vector<std::string> words = splitWords(line);
        if (words.empty() || words.front() == "ID")
            continue;
        if (words.front() == "#Entity") {
            const auto it = std::find(words.begin() + 1, words.end(), "POWER");
            if (it == words.end())
                throw InputError(file, number, 0,
                                 "no POWER field in the header: expected dcgmi dmon -e 155 (power usage)");
            power = static_cast<int>(it - words.begin()) - 1;
            continue;
        }
        if (power < 0)
            throw InputError(file, number, 0, "a sample before the '#Entity' header line");
        if (words.front() != "GPU")
            continue; // other entities (GPU instances, CPUs) are not boards
        const std::size_t at = 2 + static_cast<std::size_t>(power);
        if (words.size() <= at)
            throw InputError(file, number, 0,
                             "expected GPU, its id and a value per field of the header, found " +
                                 std::to_string(words.size()) + " words");
        if (words[at] == "N/A") {
            ++unavailable;
            continue;
        }
        const std::optional<double> watts = parseCsvNumber(words[at]);
        if (!watts || !std::isfinite(*watts))
            throw InputError(file, number, 0,
                             "unparsable POWER " + quotedExcerpt(words[at]) + ": expected watts");
        sum += checkedWatts(*watts, file, number, 0);
        ++summary.samples;
        gpus.insert(words[1]);
    }
    if (summary.samples == 0)
        throw InputError(file, number, 0,
                         "no GPU sample with a POWER value: expected rows such as 'GPU 0  245.1'");
    summary.meanPowerW = sum / static_cast<double>(summary.samples);
    summary.devices = static_cast<int>(gpus.size());
    if (unavailable > 0)
        summary.notes.push_back(std::to_string(unavailable) +
                                " samples without a power reading (N/A) left out");
    summary.notes.emplace_back("dcgmi dmon does not date its samples: the measured time is unknown");
    return summary;
}

double numberAt(const std::vector<CsvCell>& cells, int column, const std::string& file, int line,
                std::string_view what) {
    const CsvCell& cell = cells[static_cast<std::size_t>(column)];
    const std::optional<double> value = parseCsvNumber(cell.text);
    if (!value || !std::isfinite(*value) || *value < 0.0)
        throw InputError(file, line, cell.column,
                         "unparsable " + std::string(what) + " " + quotedExcerpt(cell.text) +
                             ": expected a number of at least 0");
    return *value;
}

// CodeCarbon's emissions.csv: a row per tracked run; duration in seconds, energies in kWh, gpu_power the sum
// over the run's GPUs.
PowerLogSummary readCodeCarbon(const CsvHeader& header, std::string_view text, const std::string& file) {
    const int duration = columnOf(header, "duration");
    const int gpuEnergy = columnOf(header, "gpu_energy");
    const int allEnergy = columnOf(header, "energy_consumed");
    const int gpuCount = columnOf(header, "gpu_count");
    if (gpuCount < 0)
        throw InputError(file, header.line, 0, "no gpu_count column: expected CodeCarbon 2.2 or later");
    PowerLogSummary summary;
    double gpuJ = 0.0, gpuSeconds = 0.0, machineJ = 0.0, seconds = 0.0;
    std::size_t withoutGpu = 0;
    forEachCsvDataRow(text, file, header.names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        const double s = numberAt(cells, duration, file, line, "duration");
        const CsvCell& countCell = cells[static_cast<std::size_t>(gpuCount)];
        const double count =
            countCell.text.empty() ? 0.0 : numberAt(cells, gpuCount, file, line, "gpu_count");
        const double energyKwh = numberAt(cells, gpuEnergy, file, line, "gpu_energy");
        if (count < 1.0 || energyKwh <= 0.0 || s <= 0.0) {
            ++withoutGpu; // a CPU-only run, or one whose GPUs CodeCarbon could not read
            return;
        }
        gpuJ += energyKwh * 3.6e6;
        gpuSeconds += s * count;
        machineJ += numberAt(cells, allEnergy, file, line, "energy_consumed") * 3.6e6;
        seconds += s;
        summary.devices = std::max(summary.devices, static_cast<int>(count));
        ++summary.samples;
    });
    if (summary.samples == 0)
        throw InputError(file, header.line, 0,
                         "no run with GPU energy: expected rows with gpu_count and gpu_energy");
    summary.meanPowerW = checkedWatts(gpuJ / gpuSeconds, file, header.line, 0);
    summary.seconds = seconds;
    summary.notes.push_back(
        "CodeCarbon's energy_consumed (CPU, GPUs and RAM as it estimates them, not the node at "
        "the wall) averages " +
        fixedNumber(machineJ / seconds, 1) + " W over the same runs");
    if (withoutGpu > 0)
        summary.notes.push_back(std::to_string(withoutGpu) + " runs without GPU energy left out");
    return summary;
}

// A ZeusMonitor log: "start_time,window_name,elapsed_time,gpu0_energy,..." a row per measurement window,
// energy in joules.
PowerLogSummary readZeus(const CsvHeader& header, std::string_view text, const std::string& file) {
    std::vector<int> energies;
    for (std::size_t i = 3; i < header.names.size(); ++i)
        if (header.names[i].rfind("gpu", 0) == 0 && header.names[i].size() > 10 &&
            header.names[i].substr(header.names[i].size() - 7) == "_energy")
            energies.push_back(static_cast<int>(i));
    if (energies.empty())
        throw InputError(file, header.line, 0, "no gpu<N>_energy column: expected ZeusMonitor's GPU energy");
    PowerLogSummary summary;
    double joules = 0.0, seconds = 0.0;
    std::set<std::string> windows;
    forEachCsvDataRow(text, file, header.names.size(), [&](const std::vector<CsvCell>& cells, int line) {
        const double elapsed = numberAt(cells, 2, file, line, "elapsed_time");
        for (const int column : energies)
            joules += numberAt(cells, column, file, line, "GPU energy");
        seconds += elapsed;
        windows.insert(std::string(cells[1].text));
        ++summary.samples;
    });
    if (!(seconds > 0.0))
        throw InputError(file, header.line, 0,
                         "no window with a positive elapsed_time: expected measured windows");
    summary.devices = static_cast<int>(energies.size());
    summary.meanPowerW = checkedWatts(joules / (seconds * summary.devices), file, header.line, 0);
    summary.seconds = seconds;
    summary.notes.push_back(
        "windows: " + joinedText(std::vector<std::string>(windows.begin(), windows.end()), ", ") +
        " (nested windows count twice, which leaves the mean power as it is)");
    return summary;
}

struct PowerLogFormat {
    const char* id;
    const char* name;
    const char* layout;
    PowerScope scope;
    bool (*detect)(const CsvHeader& header);
    // Reads the log whose header (as detection read it) is `header`.
    PowerLogSummary (*read)(const CsvHeader& header, std::string_view text, const std::string& file);
};

bool hasColumns(const CsvHeader& header, std::initializer_list<std::string_view> names) {
    return std::all_of(names.begin(), names.end(),
                       [&](std::string_view name) { return columnOf(header, name) >= 0; });
}

const std::vector<PowerLogFormat>& powerLogFormats() {
    static const std::vector<PowerLogFormat> formats{
        {"nvidia-smi-csv", "nvidia-smi CSV",
         "nvidia-smi --query-gpu=timestamp,index,power.draw,utilization.gpu --format=csv", PowerScope::Gpu,
         [](const CsvHeader& h) { return hasColumns(h, {"power.draw"}); }, readNvidiaSmi},
        {"dcgmi-dmon", "dcgmi dmon text", "#Entity POWER ... then GPU <id> <watts> ... (dcgmi dmon -e 155)",
         PowerScope::Gpu,
         [](const CsvHeader& h) { return h.names.size() == 1 && h.names.front().rfind("#entity", 0) == 0; },
         readDcgmiDmon},
        {"codecarbon-csv", "CodeCarbon emissions.csv",
         "timestamp,project_name,run_id,duration,...,gpu_energy,...", PowerScope::Gpu,
         [](const CsvHeader& h) {
             return hasColumns(h, {"run_id", "duration", "gpu_energy", "energy_consumed"});
         },
         readCodeCarbon},
        {"zeus-monitor-csv", "Zeus ZeusMonitor log", "start_time,window_name,elapsed_time,gpu0_energy,...",
         PowerScope::Gpu,
         [](const CsvHeader& h) {
             return h.names.size() > 3 && h.names[0] == "start_time" && h.names[1] == "window_name" &&
                    h.names[2] == "elapsed_time";
         },
         readZeus},
    };
    return formats;
}

} // namespace

PowerLogSummary loadPowerLog(const std::string& path, std::int64_t maxFileBytes) {
    const std::string bytes = readInputFile(path, maxFileBytes, "a power log");
    const std::string_view text = withoutByteOrderMark(bytes);
    const CsvHeader header = readCsvHeader(text);
    if (header.line == 0)
        throw InputError(path, 1, 0, "empty file: expected a power log's header");
    for (const PowerLogFormat& format : powerLogFormats()) {
        if (!format.detect(header))
            continue;
        PowerLogSummary summary = format.read(header, text, path);
        summary.format = format.id;
        summary.name = format.name;
        summary.scope = format.scope;
        return summary;
    }
    std::vector<std::string> expected;
    expected.reserve(powerLogFormats().size());
    for (const PowerLogFormat& format : powerLogFormats())
        expected.push_back(std::string(format.name) + " (" + format.layout + ")");
    throw InputError(path, header.line, 0,
                     "not a power log: found the header " + quotedExcerpt(joinedText(header.names, ",")) +
                         "; expected one of: " + joinedText(expected, ", "));
}

bool isPowerLog(const std::string& path) {
    try {
        const std::string head =
            readInputFileHead(path, kMaxPowerLogBytes, std::int64_t{64} * 1024, "a power log");
        const CsvHeader header = readCsvHeader(withoutByteOrderMark(head));
        return std::any_of(powerLogFormats().begin(), powerLogFormats().end(),
                           [&header](const PowerLogFormat& format) { return format.detect(header); });
    } catch (const InputError&) {
        return false;
    }
}

std::string powerLogFormatNames() {
    std::vector<std::string> names;
    for (const PowerLogFormat& format : powerLogFormats())
        names.emplace_back(format.name);
    return joinedText(names, ", ");
}

} // namespace carbon3d
