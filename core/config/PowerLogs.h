// SPDX-License-Identifier: MIT
#pragma once

#include "domain/InputError.h" // thrown by everything here
#include "domain/OperatingPoints.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace carbon3d {

// The largest power log read: the traces' limit.
inline constexpr std::int64_t kMaxPowerLogBytes = 64LL * 1024 * 1024;

// A measured power log reduced to what Carbon3D uses of it: the mean power while the job ran, and what that
// power covers (docs/DATA.md "Measured power").
struct PowerLogSummary {
    std::string format;                 // the power-log table's id, e.g. "nvidia-smi-csv"
    std::string name;                   // as messages name it, e.g. "nvidia-smi CSV"
    PowerScope scope = PowerScope::Gpu; // what meanPowerW covers
    int devices = 0;                    // GPUs the log measured; 0 when it does not say
    double meanPowerW = 0.0;            // per GPU at GPU scope
    double seconds = 0.0;               // how long the log measured; 0 when it does not say
    std::size_t samples = 0;            // rows or windows the mean is over
    std::vector<std::string> notes;     // what was left out and why, what else the log holds
};

// Reads a power log as its tool writes it, the format told by its header (one table, PowerLogs.cpp):
// nvidia-smi --query-gpu CSV (with or without units), `dcgmi dmon` text with the POWER field, CodeCarbon's
// emissions.csv, and a Zeus ZeusMonitor log. Throws InputError naming the file, the line and what was
// expected; a log with nothing measured (no busy sample, no GPU energy) is refused, never averaged to zero.
PowerLogSummary loadPowerLog(const std::string& path, std::int64_t maxFileBytes = kMaxPowerLogBytes);

// Whether the file's header is one of a power log's (what `validate` asks before it reads a file). False for
// an unreadable file.
bool isPowerLog(const std::string& path);

// The formats loadPowerLog reads, as a sentence lists them.
std::string powerLogFormatNames();

} // namespace carbon3d
