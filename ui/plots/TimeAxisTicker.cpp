// SPDX-License-Identifier: MIT
#include "plots/TimeAxisTicker.h"

#include <QDateTime>
#include <array>
#include <cmath>

namespace carbon3d::ui {

namespace {

constexpr double kHour = 3600.0;
constexpr double kDay = 86400.0;
// Steps a reader counts in: hours that divide a day, a few days, whole weeks. Past 8 weeks ticks fall on
// the first of a month instead (createTickVector), every 1, 2, 3 or 6 months.
constexpr std::array<double, 12> kSteps = {kHour,    2 * kHour, 3 * kHour, 6 * kHour, 12 * kHour, kDay,
                                           2 * kDay, 3 * kDay,  7 * kDay,  14 * kDay, 28 * kDay,  56 * kDay};
constexpr double kMonth = 30.4375 * kDay; // a marker step: "monthly", never used as a length

} // namespace

double TimeAxisTicker::getTickStep(const QCPRange& range) {
    const double ideal = range.size() / std::max(1, tickCount());
    for (const double step : kSteps) {
        if (step >= ideal)
            return step;
    }
    const double months = std::ceil(ideal / kMonth);
    return (months <= 1 ? 1 : months <= 2 ? 2 : months <= 3 ? 3 : 6) * kMonth;
}

int TimeAxisTicker::getSubTickCount(double tickStep) {
    if (tickStep >= kMonth)
        return 0;
    if (tickStep == 7 * kDay || tickStep == 14 * kDay)
        return static_cast<int>(tickStep / kDay) - 1; // a sub-tick per day
    return 1;
}

int TimeAxisTicker::offsetAt(double tick) const {
    if (m_elapsed)
        return 0;
    return m_zone.offsetFromUtc(QDateTime::fromSecsSinceEpoch(static_cast<qint64>(tick), QTimeZone::utc()));
}

QVector<double> TimeAxisTicker::createTickVector(double tickStep, const QCPRange& range) {
    m_step = tickStep;
    QVector<double> ticks;
    if (!(range.size() > 0.0) || !std::isfinite(range.lower) || !std::isfinite(range.upper))
        return ticks;
    if (tickStep >= kMonth && !m_elapsed) {
        // The first of every n-th month at local midnight.
        const int every = static_cast<int>(std::lround(tickStep / kMonth));
        QDateTime at = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(range.lower), m_zone);
        at = QDateTime(QDate(at.date().year(), at.date().month(), 1), QTime(0, 0), m_zone);
        for (int guard = 0; guard < 400 && at.toSecsSinceEpoch() <= range.upper + tickStep; ++guard) {
            if ((at.date().month() - 1) % every == 0)
                ticks.push_back(static_cast<double>(at.toSecsSinceEpoch()));
            at = at.addMonths(1);
        }
        return ticks;
    }
    const double step = tickStep >= kMonth ? std::round(tickStep / kDay) * kDay : tickStep;
    // Multiples of the step on the labels' clock (for weeks: of 7 days from the epoch, a Thursday, which
    // is as good as any), shifted back to axis values.
    const int offset = offsetAt((range.lower + range.upper) / 2.0);
    const double first = std::floor((range.lower + offset) / step) * step - offset;
    for (double tick = first; tick <= range.upper + step && ticks.size() < 1000; tick += step)
        ticks.push_back(tick);
    return ticks;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) {
    Q_UNUSED(locale)
    Q_UNUSED(formatChar)
    Q_UNUSED(precision)
    const bool withTime = m_step < kDay;
    if (m_elapsed) {
        const auto seconds = static_cast<long long>(std::llround(tick));
        const long long day = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
        const long long inDay = seconds - day * 86400;
        const QString dayText = QStringLiteral("day %1").arg(day);
        return withTime ? dayText + QStringLiteral("\n%1:%2")
                                        .arg(inDay / 3600, 2, 10, QLatin1Char('0'))
                                        .arg(inDay % 3600 / 60, 2, 10, QLatin1Char('0'))
                        : dayText;
    }
    const QDateTime at = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(std::llround(tick)), m_zone);
    return at.toString(withTime ? QStringLiteral("MMM d\nhh:mm") : QStringLiteral("MMM d"));
}

} // namespace carbon3d::ui
