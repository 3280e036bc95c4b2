// SPDX-License-Identifier: MIT
#pragma once

#include "domain/Scenario.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace carbon3d {

// The modelling options as one table: each field's key (the same in the scenario JSON's "modelling"
// object, in `--option KEY=VALUE` and in what every run records), the older CLI spelling still accepted,
// what it accepts, its unit and meaning, and how to read and write it. The scenario loader and writer,
// the CLI and the engine's record of a run all go through this table, so a new option is one entry here
// (docs/ARCHITECTURE.md "Adding a modelling option").
enum class ModellingFieldKind {
    Number,    // a decimal number in [min, max]
    Choice,    // one of `choices`
    NumberList // comma-separated in --option, a JSON array in the scenario; each in [min, max]
};

struct ModellingField {
    std::string key;   // e.g. "reconfiguration_seconds"
    std::string alias; // the older --option spelling, still accepted (e.g. "reconfiguration_s"); may be empty
    ModellingFieldKind kind = ModellingFieldKind::Number;
    double min = 0.0;
    double max = 0.0;
    // A number field that also takes 0 below `min`: 0 means "off" or "the engine's own rule" (a decision
    // interval of 0 decides at the trace's slot boundaries; 1 to 59 s is refused).
    bool orZero = false;
    std::vector<std::string> choices;
    std::string unit;        // e.g. "s", for messages
    std::string description; // one line: what it means and where its default comes from
    // Whether the field changes what the performance model offers (the menu: its configurations, or their
    // rates through the goodput), not only the accounting: a study sweeping it builds a menu per value, and
    // the studio re-estimates the static-max runtime when it changes.
    bool changesMenu = false;
    // How the studio's form shows the field; an empty label keeps it off the form (it is then set in the
    // scenario file or with --option, and the form leaves the loaded value as it is).
    struct Display {
        std::string label;
        std::string unit;   // the unit it is shown in, e.g. "min"
        double scale = 1.0; // shown = value x scale (seconds shown in minutes: 1/60)
        int decimals = 2;
        std::vector<std::string> choiceLabels;       // a choice: what each reads as, in `choices` order
        std::vector<std::string> choiceDescriptions; // a choice: what each means (the item's tooltip)
        std::string unsetText; // a number that may be unset (NaN): what the box reads one step below min
    };
    Display display;
    // Whether the field matters under these options (spot strikes only under spot capacity); the studio greys
    // out a field that does not. Null: always.
    std::function<bool(const ModellingOptions&)> applies;
    // The field's value as text: a number as its shortest text, a choice as its name, a list joined by ','.
    std::function<std::string(const ModellingOptions&)> get;
    // Sets the field from text that check() accepted.
    std::function<void(ModellingOptions&, const std::string&)> set;
};

// The key of who pays for parked GPUs, which a study's 'parked_gpus' axis also sets (so the two exclude each
// other there).
// A macro as well, so that SQL reading the key out of a run's modelling record is one literal at compile
// time.
#define CARBON3D_BACKFILL_KEY "backfill"
inline constexpr const char* kBackfillKey = CARBON3D_BACKFILL_KEY;

const std::vector<ModellingField>& modellingFields();
// The field with this key or alias; nullptr when none.
const ModellingField* findModellingField(const std::string& keyOrAlias);

// Whether `text` is a valid value of the field (a list as comma-separated numbers; empty: no items).
bool isValidModellingValue(const ModellingField& field, const std::string& text);
// What the field accepts, for messages: "a number in [0, 86400] s", "idle or released".
std::string expectedModellingValue(const ModellingField& field);
// A list value's items ("250,300" -> {"250", "300"}; "" -> none).
std::vector<std::string> modellingListItems(const std::string& text);

// What replaced a modelling key an older Carbon3D accepted, for the message that refuses it; empty when
// `key` is no retired key.
std::string retiredModellingKey(const std::string& key);

// What a run records of its modelling options: every field's key and value as text.
std::map<std::string, std::string> modellingRecord(const ModellingOptions& options);

} // namespace carbon3d
