// SPDX-License-Identifier: MIT
#pragma once

#include <QTimeZone>
#include <qcustomplot.h>

namespace carbon3d::ui {

// Time ticks on whole hours, days, weeks or months of the clock the labels are read in. Axis values are
// UTC seconds (dates) or seconds since the start (elapsed). QCustomPlot's own date ticker places ticks
// at multiples of its step in UTC and its time ticker at any multiple of half a day, so a plot shown in
// California time put "midnight" ticks at 16:00 or 17:00, and an aligned overlay read "day 2 12:00".
class TimeAxisTicker : public QCPAxisTicker {
public:
    void setElapsed(bool elapsed) { m_elapsed = elapsed; }
    void setTimeZone(const QTimeZone& zone) { m_zone = zone; }
    bool elapsed() const { return m_elapsed; } // values are seconds since a start, not since the epoch

protected:
    double getTickStep(const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;

private:
    // Seconds to add to an axis value to read it on the labels' clock (0 when elapsed).
    int offsetAt(double tick) const;

    bool m_elapsed = false;
    QTimeZone m_zone = QTimeZone::utc();
    double m_step = 0.0; // of the last tick vector, for the labels' precision
};

} // namespace carbon3d::ui
