// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <vector>

// Plain values that pages show and workers produce. They live here, not in the pages, so that a worker
// can build them without including (and depending on) a widget.
namespace carbon3d::ui {

// One option of a policy as the engine's catalogue describes it.
struct PolicyOptionChoice {
    QString key;
    QString defaultValue;
    QString description; // one line, with the unit
    QString accepted;    // what the engine accepts, e.g. "0 to 100" or "fit or fastest"
    bool flag = false;   // true or false: a choice, not typed text
};

// One policy the user can tick, as the engine's catalogue describes it.
struct PolicyChoice {
    QString name;        // e.g. "dynamic-3d"
    QString description; // one line
    QString source;      // citation
    std::vector<PolicyOptionChoice> options;
};

// Every policy of the engine's catalogue, in catalogue order.
std::vector<PolicyChoice> policyChoicesFromCatalogue();

// A bundled or imported carbon trace the region box offers.
struct TraceChoice {
    QString label; // "US-CAL-CISO California (2022)"
    QString path;
    QString regionId;
    bool imported = false; // by the user in this session: what reading it assumed is shown under the choice
};

// A teaching scenario the Learn page lists.
struct LessonChoice {
    QString title;
    QString description; // from the scenario file's "description"
    QString path;        // scenario file
};

// A policy of a batch that failed while the others finished: shown beside the results, not mixed into
// the scenario (which is saved with the runs).
struct PolicyWarning {
    QString policy;
    QString message;
};

} // namespace carbon3d::ui
