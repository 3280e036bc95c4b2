// SPDX-License-Identifier: MIT
#pragma once

#include <QSettings>
#include <QString>
#include <QVariant>

namespace carbon3d::ui {

// Every QSettings key the studio uses, typed, in one place (as Tiled's Preference<T>).
template <typename T> struct Preference {
    const char* key;
    T defaultValue;

    T get() const {
        return QSettings().value(QLatin1String(key), QVariant::fromValue(defaultValue)).template value<T>();
    }
    void set(const T& value) const { QSettings().setValue(QLatin1String(key), QVariant::fromValue(value)); }
};

namespace settings {
inline const Preference<QByteArray> windowGeometry{"window/geometry", {}};
inline const Preference<QByteArray> windowState{"window/state", {}};
inline const Preference<QByteArray> splitterState{"window/splitter", {}};
inline const Preference<QStringList> recentScenarios{"files/recentScenarios", {}};
inline const Preference<QString> lastDirectory{"files/lastDirectory", {}};
// Where figures and series go: its own folder (empty: the user's documents folder), apart from where
// scenarios are opened, which is often the program's sample data.
inline const Preference<QString> exportDirectory{"files/exportDirectory", {}};
inline const Preference<int> exportPreset{"plots/exportPreset", 0}; // ExportDialog's size presets
inline const Preference<bool> exportData{"plots/exportData",
                                         false}; // ExportDialog: the CSV beside the figure
inline const Preference<bool> presentationTheme{"plots/presentationTheme", false};
inline const Preference<bool> liveWhatIf{"run/liveWhatIf", true};
inline const Preference<QString> databasePath{"store/databasePath", {}};
} // namespace settings

} // namespace carbon3d::ui
