// SPDX-License-Identifier: MIT
#pragma once

#include "Choices.h"
#include "domain/InputError.h"

#include <QString>
#include <exception>
#include <optional>
#include <vector>

// What the studio loads in the background (file I/O never runs on the GUI thread), and the one way such
// a task reports failure: a value, or the message of the error that prevented it, crossing threads by value.
namespace carbon3d::ui {

template <typename T> struct Loaded {
    std::optional<T> value;
    QString error;
};

// Runs `load` and captures an InputError (or any std::exception) as text instead of letting it escape
// a worker thread.
template <typename T, typename F> Loaded<T> loadCatching(F&& load) {
    Loaded<T> result;
    try {
        result.value = load();
    } catch (const InputError& error) {
        result.error = QString::fromStdString(error.what());
    } catch (const std::exception& error) { // a bug, not bad input: say so
        result.error = QStringLiteral("internal error: %1").arg(QString::fromUtf8(error.what()));
    }
    return result;
}

// What the data directory offers: bundled traces and teaching scenarios.
struct DataDirectoryContents {
    std::vector<TraceChoice> traces;
    std::vector<LessonChoice> lessons;
};

// Lists sample_data/traces/*.csv and reads the name and description of sample_data/scenarios/learn-*.json.
DataDirectoryContents scanDataDirectory(const QString& dataDir);

} // namespace carbon3d::ui
