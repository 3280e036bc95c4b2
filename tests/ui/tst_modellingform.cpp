// SPDX-License-Identifier: MIT
// The Scenario page's modelling section is the modelling table (core/domain/ModellingFields) on screen:
// one editor per field with a display label, its range the table's in the display unit, a loaded value
// read back exactly, an edit converted back from the display unit, and fields greyed out where they do not
// apply.
#include "pages/ModellingForm.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace carbon3d;
using namespace carbon3d::ui;

class TstModellingForm : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyLabelledFieldHasAnEditorWithTheTablesRange() {
        const ModellingForm form;
        int shown = 0;
        for (const ModellingField& field : modellingFields()) {
            QWidget* editor = form.editor(field.key);
            QCOMPARE(editor != nullptr, !field.display.label.empty());
            if (!editor)
                continue;
            ++shown;
            QVERIFY2(editor->toolTip().contains(QString::fromStdString(field.key)), field.key.c_str());
            if (auto* box = qobject_cast<QDoubleSpinBox*>(editor)) {
                // The box rounds its range to its decimals: within half a step of the table's, scaled.
                const double halfStep = 0.5 * std::pow(10.0, -box->decimals());
                QVERIFY2(std::abs(box->maximum() - field.max * field.display.scale) <= halfStep,
                         field.key.c_str());
                const double min = field.min * field.display.scale;
                QVERIFY2(field.display.unsetText.empty() ? std::abs(box->minimum() - min) <= halfStep
                                                         : box->minimum() < min,
                         field.key.c_str());
            } else {
                const auto* combo = qobject_cast<QComboBox*>(editor);
                QVERIFY(combo);
                QCOMPARE(static_cast<std::size_t>(combo->count()), field.choices.size());
            }
        }
        QVERIFY(shown >= 13);
    }

    void loadedOptionsReadBackExactly() {
        ModellingForm form;
        ModellingOptions options;
        options.reconfigurationSeconds = 601.3;        // not a whole number of minutes at two decimals
        options.interruptionsPerGpuHour = 1.234567e-5; // per million GPU-hours, rounded by the box
        options.gpuCapacity = ModellingOptions::GpuCapacity::Spot;
        options.gpuPriceUsdPerHour = 2.5;
        form.setOptions(options);
        QCOMPARE(modellingRecord(form.options()), modellingRecord(options));
        form.setOptions(ModellingOptions{});
        QCOMPARE(modellingRecord(form.options()), modellingRecord(ModellingOptions{}));
        QVERIFY(std::isnan(form.options().gpuPriceUsdPerHour)); // unset reads back unset
    }

    void anEditIsConvertedFromTheDisplayUnit() {
        ModellingForm form;
        QSignalSpy edited(&form, &ModellingForm::edited);
        qobject_cast<QDoubleSpinBox*>(form.editor("reconfiguration_seconds"))->setValue(15.0); // minutes
        QCOMPARE(form.options().reconfigurationSeconds, 900.0);
        QCOMPARE(edited.count(), 1);
        QCOMPARE(edited.last().at(0).toBool(), false);                                    // accounting only
        qobject_cast<QDoubleSpinBox*>(form.editor("evaluation_fraction"))->setValue(2.0); // percent
        QCOMPARE(form.options().evaluationFraction, 0.02);
        QCOMPARE(edited.last().at(0).toBool(), true); // the goodput changes the menu
    }

    void aFieldThatDoesNotApplyIsGreyedOut() {
        ModellingForm form;
        QWidget* strikes = form.editor("spot_preemptions_per_gpu_hour");
        auto* capacity = qobject_cast<QComboBox*>(form.editor("gpu_capacity"));
        QVERIFY(strikes && capacity);
        QVERIFY(!strikes->isEnabled()); // on demand by default
        capacity->setCurrentIndex(capacity->findData(QStringLiteral("spot")));
        QVERIFY(strikes->isEnabled());
        QCOMPARE(form.options().gpuCapacity, ModellingOptions::GpuCapacity::Spot);
    }
};

QTEST_MAIN(TstModellingForm)
#include "tst_modellingform.moc"
