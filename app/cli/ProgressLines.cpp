// SPDX-License-Identifier: MIT
#include "cli/ProgressLines.h"

#include "domain/NumberText.h"

#include <cstdlib>

namespace carbon3d::cli {

namespace {

std::chrono::duration<double> progressInterval() {
    const char* text = std::getenv("CARBON3D_PROGRESS_SECONDS");
    const std::optional<double> seconds = text != nullptr ? parseDecimal(text) : std::nullopt;
    return std::chrono::duration<double>(seconds && *seconds > 0.0 ? *seconds : 10.0);
}

} // namespace

ProgressLines::ProgressLines(std::ostream& out, std::function<std::string(double)> describe)
    : m_out(out)
    , m_describe(std::move(describe))
    , m_start(std::chrono::steady_clock::now())
    , m_interval(progressInterval())
    , m_thread([this] { loop(); }) {}

ProgressLines::~ProgressLines() {
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void ProgressLines::loop() {
    const auto elapsed = [this] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start);
    };
    const auto say = [&] {
        m_out << m_describe(elapsed().count()) << '\n';
        m_out.flush();
    };
    std::unique_lock<std::mutex> lock(m_mutex);
    bool said = false;
    while (!m_wake.wait_for(lock, m_interval, [this] { return m_stopping; })) {
        say();
        said = true;
    }
    // Work that outlasted an interval says so at least once, even when this thread was not scheduled
    // before it ended (a loaded machine).
    if (!said && elapsed() >= m_interval)
        say();
}

} // namespace carbon3d::cli
