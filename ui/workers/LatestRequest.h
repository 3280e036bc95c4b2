// SPDX-License-Identifier: MIT
#pragma once

#include <QtGlobal>

namespace carbon3d::ui {

// Newest job wins. Background jobs asked for after every edit (a runtime estimate, a configuration
// search) may finish in any order; only the answer to the latest question may reach the screen, or a
// slow stale answer would overwrite a fresh one. begin() hands out a ticket for each job; when its answer
// comes back, isCurrent(ticket) says whether a newer job has superseded it. GUI thread only: tickets are
// handed out and checked where the jobs are started and their answers applied.
class LatestRequest {
public:
    using Ticket = quint64;

    Ticket begin() { return ++m_latest; }
    bool isCurrent(Ticket ticket) const { return ticket == m_latest; }

private:
    Ticket m_latest = 0;
};

} // namespace carbon3d::ui
