// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace carbon3d::cli {

// Long work says it is alive (issue 40, item 7): while it lives, a thread writes a line to `out` every
// interval with what `describe(elapsed)` returns (seconds since it started: "simulate: 40 % of the runs'
// work done after 30 s (now ilp, run 2 of 5)"), the
// first only after one interval, so that quick commands stay silent. A line a time, never a carriage
// return: the output may be a log file as well as a terminal. The interval is 10 s, or
// CARBON3D_PROGRESS_SECONDS when set (tests use a short one). Ctrl+C stops the command as any other
// (nothing a command saves is left half-written: every save is one transaction).
class ProgressLines {
public:
    ProgressLines(std::ostream& out, std::function<std::string(double elapsedSeconds)> describe);
    ~ProgressLines();
    ProgressLines(const ProgressLines&) = delete;
    ProgressLines& operator=(const ProgressLines&) = delete;

private:
    void loop();

    std::ostream& m_out;
    std::function<std::string(double)> m_describe;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::duration<double> m_interval;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    std::thread m_thread; // last: started once everything above is ready
};

} // namespace carbon3d::cli
