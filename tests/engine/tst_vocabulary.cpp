// SPDX-License-Identifier: MIT
// One vocabulary in one place: policy and forecast names are spelled only in their own files and the
// catalogues (engine/PolicyRegistry.h, engine/forecast/Forecaster.h), so a new policy is one file plus
// one registration line; and no file sends a reader to notes that are not in this repository.
#include "common/SourceTree.h"
#include "domain/InputError.h"
#include "domain/NumberText.h"
#include "engine/PolicyRegistry.h"
#include "engine/forecast/Forecaster.h"

#include <QRegularExpression>
#include <QTest>

using namespace carbon3d::testing;

namespace {

// Where names may be spelled: the policies' and forecasters' own files and the catalogues. The report
// generators (tools/) reproduce named papers' claims, so they name those papers' policies on purpose.
bool mayNamePolicies(const QString& relative) {
    // Scenario.h holds the default value of ForecastSpec::kind: a value, never compared.
    if (relative == QLatin1String("core/domain/Scenario.h"))
        return true;
    return relative.startsWith(QLatin1String("core/engine/policies/")) ||
           relative.startsWith(QLatin1String("core/engine/forecast/")) ||
           relative.startsWith(QLatin1String("core/engine/PolicyRegistry.")) ||
           relative.startsWith(QLatin1String("tools/"));
}

} // namespace

class TstVocabulary : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // Issue 43: runs that differ only in who pays for parked GPUs are told apart by name; the default
    // (charged to the job) goes unsaid.
    void runNamesSayWhoPaysForParkedGpus() {
        carbon3d::RunResult run;
        run.policy = "dynamic-3d";
        QCOMPARE(carbon3d::runName("S", run), std::string("S / dynamic-3d"));
        run.modelling["backfill"] = "0";
        QCOMPARE(carbon3d::runName("S", run), std::string("S / dynamic-3d"));
        run.modelling["backfill"] = "1";
        QCOMPARE(carbon3d::runName("S", run), std::string("S / dynamic-3d, parked GPUs released"));
        run.modelling["backfill"] = "0.5";
        QCOMPARE(carbon3d::runName("S", run), std::string("S / dynamic-3d, backfill 0.5"));
    }

    void policyAndForecastNamesLiveInTheirCatalogues() {
        QStringList names;
        for (const carbon3d::PolicyInfo& info : carbon3d::policyCatalog())
            names << QString::fromStdString(info.name);
        for (const carbon3d::ForecastKindInfo& info : carbon3d::forecastCatalog()) {
            names << QString::fromStdString(info.kind);
            for (const std::string& alias : info.aliases)
                names << QString::fromStdString(alias);
        }
        QVERIFY(names.size() > 15);
        const QStringList sources = filesUnder(
            {QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app"), QStringLiteral("tools")},
            {QStringLiteral(".cpp"), QStringLiteral(".h")});
        QVERIFY(sources.size() > 100);
        QStringList offenders;
        for (const QString& file : sources) {
            if (mayNamePolicies(file))
                continue;
            const QString code = codeOf(file);
            for (const QString& name : names) {
                if (code.contains(QLatin1Char('"') + name + QLatin1Char('"')))
                    offenders << file + QStringLiteral(": \"") + name + QLatin1Char('"');
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }

    void theCatalogueDescribesEveryPolicyOnce() {
        QStringList seen;
        int baselines = 0;
        for (const carbon3d::PolicyInfo& info : carbon3d::policyCatalog()) {
            const QString name = QString::fromStdString(info.name);
            QVERIFY2(!seen.contains(name), qPrintable(name));
            seen << name;
            QVERIFY2(!info.description.empty() && !info.source.empty() && info.make, qPrintable(name));
            baselines += info.traits.defaultBaseline ? 1 : 0;
            // Made with its defaults, the policy reports its own name.
            QCOMPARE(QString::fromStdString(carbon3d::makePolicy({info.name, {}})->name()), name);
        }
        QCOMPARE(baselines, 1);
        // No two policies are drawn alike: colour and dash together, and the marker, are unique.
        for (const auto& a : carbon3d::policyCatalog()) {
            for (const auto& b : carbon3d::policyCatalog()) {
                if (&a == &b)
                    continue;
                QVERIFY2(!(a.look.colourRgb == b.look.colourRgb && a.look.dash == b.look.dash),
                         qPrintable(QString::fromStdString(a.name + " and " + b.name)));
                QVERIFY2(a.look.marker != b.look.marker,
                         qPrintable(QString::fromStdString(a.name + " and " + b.name)));
            }
        }
    }

    // A run's record of its options reads back to the numbers it ran with: a value of many digits (a third of
    // each number option's range) comes back exactly from every policy that records it (they wrote 6
    // significant digits, through the global locale, before issue 42). A count refuses a fraction, which
    // it used to cut off silently, and records a whole value exactly.
    void everyNumberOptionIsRecordedExactly() {
        int checked = 0;
        for (const carbon3d::PolicyInfo& info : carbon3d::policyCatalog()) {
            for (const carbon3d::PolicyOptionInfo& option : info.options) {
                if (option.kind != carbon3d::PolicyOptionKind::Number)
                    continue;
                double value = option.min + (std::min(option.max, option.min + 1e6) - option.min) / 3.0;
                if (option.wholeNumber) {
                    QVERIFY_THROWS_EXCEPTION(
                        carbon3d::InputError,
                        carbon3d::makePolicy({info.name, {{option.key, carbon3d::shortestNumber(value)}}}));
                    value = std::floor(value);
                }
                const std::string text = carbon3d::shortestNumber(value);
                const std::unique_ptr<carbon3d::Policy> policy =
                    carbon3d::makePolicy({info.name, {{option.key, text}}});
                const std::map<std::string, std::string> options = policy->options();
                const auto recorded = options.find(option.key);
                if (recorded == options.end())
                    continue; // recorded once the run has planned (the oracle's method)
                QVERIFY2(carbon3d::parseDecimal(recorded->second) == value,
                         qPrintable(QString::fromStdString(info.name + " " + option.key + " = " + text +
                                                           " recorded as " + recorded->second)));
                ++checked;
            }
        }
        QVERIFY(checked >= 20);
        qInfo("%d number options recorded exactly", checked);
    }

    void noFileSendsReadersToNotesOutsideTheRepository() {
        // Spelled in two pieces so that this file does not match itself.
        const QStringList notes{QStringLiteral("MODELING") + QStringLiteral(".md"),
                                QStringLiteral("STYLE") + QStringLiteral(".md")};
        const QStringList files =
            filesUnder({QStringLiteral("core"), QStringLiteral("ui"), QStringLiteral("app"),
                        QStringLiteral("tools"), QStringLiteral("docs"), QStringLiteral("tests"),
                        QStringLiteral("sample_data"), QStringLiteral("scripts"), QStringLiteral("resources"),
                        QStringLiteral("cmake"), QStringLiteral(".ci")},
                       {});
        QStringList offenders;
        for (const QString& file :
             files + QStringList{QStringLiteral("README.md"), QStringLiteral("CMakeLists.txt")}) {
            if (file.endsWith(QLatin1String(".png")) || file.endsWith(QLatin1String(".sqlite")))
                continue;
            QFile in(kSourceRoot + QLatin1Char('/') + file);
            if (!in.open(QIODevice::ReadOnly) || in.size() > qint64{8} * 1024 * 1024)
                continue;
            const QByteArray text = in.readAll();
            for (const QString& note : notes) {
                if (text.contains(note.toUtf8()))
                    offenders << file + QStringLiteral(": ") + note;
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TstVocabulary)
#include "tst_vocabulary.moc"
