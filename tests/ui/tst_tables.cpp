// SPDX-License-Identifier: MIT
// One table per vocabulary: figure kinds are spelled only in their table (ui/plots/FigureRendering.cpp),
// trace formats only in theirs (core/traces/TraceFormats.cpp) and modelling keys only in theirs
// (core/domain/ModellingFields), so that a new figure kind, trace format or modelling option is one entry; a
// copy planted anywhere else in core/, ui/ or app/ fails here with its file.
#include "common/SourceTree.h"
#include "domain/ModellingFields.h"
#include "plots/FigureRendering.h"
#include "traces/TraceFormats.h"

#include <QRegularExpression>
#include <QTest>

using namespace carbon3d;
using namespace carbon3d::testing;

namespace {

// Where a name may stand as a string literal although it is not that table's: another vocabulary that
// happens to spell the same word, each with its reason.
struct Exemption {
    const char* file;
    const char* name;
    const char* reason;
};

const Exemption kModellingExemptions[] = {
    {"core/domain/MetricFields.cpp", "reconfiguration_s", "a run metric's column, the seconds spent"},
    {"core/domain/MetricFields.cpp", "preemption_s", "a run metric's column, the seconds spent"},
    {"core/domain/MetricFields.cpp", "migration_s", "a run metric's column, the seconds spent"},
    {"core/storage/RowMapping.cpp", "electricity_usd_per_kwh", "the results database's column"},
    {"core/config/ClusterProfileJson.cpp", "gpu_price_usd_per_hour", "the cluster file's own price key"},
};

bool exempt(const QString& file, const std::string& name) {
    for (const Exemption& e : kModellingExemptions) {
        if (file == QLatin1String(e.file) && name == e.name)
            return true;
    }
    return false;
}

QStringList productSources() {
    return filesUnder({QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app")},
                      {QStringLiteral(".cpp"), QStringLiteral(".h")});
}

} // namespace

class TstTables : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modellingKeysLiveInTheirTable() {
        std::vector<std::string> names;
        for (const ModellingField& field : modellingFields()) {
            names.push_back(field.key);
            if (!field.alias.empty())
                names.push_back(field.alias);
        }
        QVERIFY(names.size() > 20);
        QStringList offenders;
        for (const QString& file : productSources()) {
            if (file.startsWith(QLatin1String("core/domain/ModellingFields.")))
                continue;
            const QString code = codeOf(file);
            for (const std::string& name : names) {
                if (code.contains(QLatin1Char('"') + QString::fromStdString(name) + QLatin1Char('"')) &&
                    !exempt(file, name))
                    offenders << file + QStringLiteral(": \"") + QString::fromStdString(name) +
                                     QLatin1Char('"');
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }

    void figureKindsLiveInTheirTable() {
        QCOMPARE(static_cast<int>(ui::figureKindIdList().size()), 11);
        QStringList offenders;
        for (const QString& file : productSources()) {
            if (file.startsWith(QLatin1String("ui/plots/FigureRendering.")))
                continue;
            const QString code = codeOf(file);
            for (const ui::FigureKindInfo& info : ui::figureKinds()) {
                const QString id = QString::fromLatin1(info.id);
                // A one-word id (timeline, cost, ...) is also a word of other vocabularies (pages,
                // objectives, JSON keys): it counts where it is spelled as a figure kind, after --kind. An id
                // of several words is the table's alone wherever it is quoted.
                const bool spelled = id.contains(QLatin1Char('-'))
                                         ? code.contains(QLatin1Char('"') + id + QLatin1Char('"'))
                                         : code.contains(QStringLiteral("--kind ") + id);
                if (spelled)
                    offenders << file + QStringLiteral(": ") + id;
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }

    void traceFormatsLiveInTheirTable() {
        QVERIFY(traces_detail::traceFormats().size() >= 5);
        QStringList offenders;
        for (const QString& file : productSources()) {
            if (file.startsWith(QLatin1String("core/traces/TraceFormats.")))
                continue;
            const QString code = codeOf(file);
            for (const traces_detail::TraceFormat& format : traces_detail::traceFormats()) {
                if (code.contains(QLatin1Char('"') + QString::fromLatin1(format.id) + QLatin1Char('"')))
                    offenders << file + QStringLiteral(": ") + QString::fromLatin1(format.id);
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
        // What the studio's import offers comes from the same table.
        for (const traces_detail::TraceFormat& format : traces_detail::traceFormats()) {
            QVERIFY(traceFormatNames().find(format.name) != std::string::npos);
            QVERIFY(traceFilePatterns().find(format.pattern) != std::string::npos);
        }
    }

    void coloursComeFromTheThemeAndThePalette() {
        // A colour spelled in code: QColor(r, g, b), a named Qt colour, or "#rrggbb" in a style sheet.
        const QRegularExpression literal(QStringLiteral(
            R"(QColor\(\s*(0x)?[0-9]|Qt::(red|green|blue|gray|darkGray|lightGray|black|white)\b|#[0-9a-fA-F]{6}\b)"));
        QStringList offenders;
        for (const QString& file : filesUnder({QStringLiteral("ui"), QStringLiteral("app")},
                                              {QStringLiteral(".cpp"), QStringLiteral(".h")})) {
            if (file.startsWith(QLatin1String("ui/plots/PlotTheme.")) ||
                file.startsWith(QLatin1String("ui/TextStyles.")))
                continue;
            const QRegularExpressionMatch match = literal.match(codeOf(file));
            if (match.hasMatch())
                offenders << file + QStringLiteral(": ") + match.captured(0);
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }

    void everyFigureKindIsOneEntryThatParsesBack() {
        for (const ui::FigureKindInfo& info : ui::figureKinds()) {
            QCOMPARE(ui::parseFigureKind(QString::fromLatin1(info.id)), std::optional(info.kind));
            QCOMPARE(&ui::figureKindInfo(info.kind), &info);
            QVERIFY2(info.build != nullptr && info.description[0] != '\0', info.id);
            QCOMPARE(info.makeStudyData != nullptr, info.source == ui::FigureSource::StudyFigure);
        }
        QVERIFY(!ui::parseFigureKind(QStringLiteral("heatmap")));
    }
};

QTEST_MAIN(TstTables)
#include "tst_tables.moc"
