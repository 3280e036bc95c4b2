// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

// The colours of the studio's text, notices and invalid fields, derived from the widget's palette so that
// they keep their contrast on a dark desktop as on a light one (plots take theirs from PlotTheme). No
// widget spells a colour of its own.
namespace carbon3d::ui {

enum class TextRole {
    Secondary, // descriptions and notes under a field: the text colour a third of the way to the background
    Error,     // what stops a run
    Warning,   // what the user should know before running
};

QColor textColour(TextRole role, const QPalette& palette);
// "color: #rrggbb;" for a label of this role.
QString textStyle(TextRole role, const QPalette& palette);
// A framed notice above a page's content (the Results page's stale-result and error banners).
QString noticeStyle(TextRole role, const QPalette& palette);
// The red frame of a field whose value is invalid: a style sheet for the widget that holds the fields,
// keyed on the dynamic property `property` being true.
QString invalidFieldStyle(const char* property, const QPalette& palette);

} // namespace carbon3d::ui
