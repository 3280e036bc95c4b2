// SPDX-License-Identifier: MIT
#include "traces/ForecastLoader.h"

#include "domain/InputFile.h"
#include "domain/PrintableText.h"
#include "domain/TextList.h"
#include "traces/ForecastFormats.h"
#include "traces/RawTrace.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace carbon3d {

using namespace traces_detail;

namespace {

// A directory archive holds at most this many files: a year of hourly downloads is 8,784.
constexpr std::size_t kMaxArchiveFiles = 100000;

std::vector<std::string> archiveFiles(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return {path};
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(path, ec)) {
        const std::string extension = entry.path().extension().string();
        if (entry.is_regular_file(ec) && (extension == ".csv" || extension == ".json"))
            files.push_back(entry.path().string());
        if (files.size() > kMaxArchiveFiles)
            throw InputError(path, 0, 0,
                             "more than " + std::to_string(kMaxArchiveFiles) +
                                 " forecast files: expected an archive of at most that many");
    }
    if (ec)
        throw InputError(path, 0, 0, "cannot list the directory: " + ec.message());
    if (files.empty())
        throw InputError(path, 0, 0, "no .csv or .json file in the directory: expected forecast files");
    std::sort(files.begin(), files.end());
    return files;
}

// What the archive's files say of their region and signal must agree; a file that does not say agrees.
void mergeFacts(ForecastArchive& archive, const ForecastFileContent& content, const std::string& file,
                const std::string& firstFile) {
    if (!content.regionId.empty()) {
        if (archive.regionId.empty())
            archive.regionId = content.regionId;
        else if (archive.regionId != content.regionId)
            throw InputError(file, 0, 0,
                             "forecasts for region " + quotedExcerpt(content.regionId) + ", but " +
                                 firstFile + " is for " + quotedExcerpt(archive.regionId) +
                                 ": expected one region");
    }
    if (content.signal) {
        if (!archive.signal)
            archive.signal = content.signal;
        else if (*archive.signal != *content.signal)
            throw InputError(file, 0, 0,
                             std::string("a ") + carbonSignalName(*content.signal) + " signal, but " +
                                 firstFile + " forecasts the " + carbonSignalName(*archive.signal) +
                                 " one: expected one signal");
    }
    if (archive.attribution.empty())
        archive.attribution = content.attribution;
    for (const std::string& note : content.notes)
        if (std::find(archive.notes.begin(), archive.notes.end(), note) == archive.notes.end())
            archive.notes.push_back(note);
}

} // namespace

ForecastArchive loadForecastArchive(const std::string& path, std::int64_t maxFileBytes) {
    ForecastArchive archive;
    archive.sourcePath = path;
    std::map<UtcSeconds, ForecastIssue>
        issues; // by issue time: a later file's issue replaces an earlier one's
    std::size_t replaced = 0;
    std::string hashes;
    const std::vector<std::string> files = archiveFiles(path);
    for (const std::string& file : files) {
        const std::string bytes = readInputFile(file, maxFileBytes, "a forecast file");
        const std::string_view text = withoutByteOrderMark(bytes);
        const TraceFileHead head = readTraceFileHead(text, file);
        const ForecastFormat& format =
            firstFormatReading(forecastFormats(), head, file, "not a forecast file");
        ForecastFileContent content = format.parse(head, text, file);
        mergeFacts(archive, content, file, files.front());
        if (archive.format.empty())
            archive.format = format.id;
        else if (archive.format != format.id)
            archive.format = "mixed";
        for (ForecastIssue& issue : content.issues) {
            if (issue.periods.empty())
                continue;
            replaced += issues.count(issue.issuedUtc);
            issues[issue.issuedUtc] = std::move(issue);
        }
        hashes += sha256Hex(bytes);
    }
    if (issues.empty())
        throw InputError(path, 0, 0, "no forecast with a predicted period: expected at least one issue");
    archive.contentSha256 = files.size() == 1 ? hashes : sha256Hex(hashes);
    for (auto& [time, issue] : issues)
        archive.issues.push_back(std::move(issue));
    if (replaced > 0)
        archive.notes.push_back(std::to_string(replaced) +
                                " issue times appear twice; the later file's forecast is kept");
    return archive;
}

bool isForecastOnlyFile(const std::string& path) {
    try {
        const std::string bytes = readInputFile(path, kMaxForecastFileBytes, "a forecast file");
        const TraceFileHead head = readTraceFileHead(withoutByteOrderMark(bytes), path);
        return std::any_of(
            forecastFormats().begin(), forecastFormats().end(),
            [&head](const ForecastFormat& format) { return !format.alsoATrace && format.detect(head); });
    } catch (const InputError&) {
        return false;
    }
}

std::string forecastFormatNames() {
    return joinedText(forecastFormats(), ", ", &ForecastFormat::name);
}

} // namespace carbon3d
