// SPDX-License-Identifier: MIT
#include "domain/ModellingFields.h"

#include "domain/NumberText.h"
#include "domain/TextList.h"

#include <algorithm>

namespace carbon3d {

namespace {

using M = ModellingOptions;

// A number field bound to one member of ModellingOptions.
ModellingField number(std::string key, std::string alias, double M::*member, double min, double max,
                      std::string unit, std::string description) {
    ModellingField field;
    field.key = std::move(key);
    field.alias = std::move(alias);
    field.kind = ModellingFieldKind::Number;
    field.min = min;
    field.max = max;
    field.unit = std::move(unit);
    field.description = std::move(description);
    field.get = [member](const M& m) { return shortestNumber(m.*member); };
    field.set = [member](M& m, const std::string& text) { m.*member = *parseDecimal(text); };
    return field;
}

// A number field that also takes 0 below its minimum (ModellingField::orZero).
ModellingField orZero(ModellingField field) {
    field.orZero = true;
    return field;
}

// A choice field bound to an enum member: `names` lists each value's name in the enum's order.
template <typename Enum>
ModellingField choice(std::string key, Enum M::*member, const std::vector<std::string>& names,
                      std::string description) {
    ModellingField field;
    field.key = std::move(key);
    field.kind = ModellingFieldKind::Choice;
    field.choices = names;
    field.description = std::move(description);
    field.get = [member, names](const M& m) { return names.at(static_cast<std::size_t>(m.*member)); };
    field.set = [member, names](M& m, const std::string& text) {
        m.*member = static_cast<Enum>(std::find(names.begin(), names.end(), text) - names.begin());
    };
    return field;
}

ModellingField changingTheMenu(ModellingField field) {
    field.changesMenu = true;
    return field;
}

// On the studio's form: a number shown in `unit` at `scale` times its value.
ModellingField shown(ModellingField field, std::string label, std::string unit = {}, double scale = 1.0,
                     int decimals = 2) {
    field.display.label = std::move(label);
    field.display.unit = std::move(unit);
    field.display.scale = scale;
    field.display.decimals = decimals;
    return field;
}

// On the studio's form: a choice, each read as `labels` and meaning `descriptions`.
ModellingField shownChoice(ModellingField field, std::string label, std::vector<std::string> labels,
                           std::vector<std::string> descriptions = {}) {
    field.display.label = std::move(label);
    field.display.choiceLabels = std::move(labels);
    field.display.choiceDescriptions = std::move(descriptions);
    return field;
}

constexpr double kMinutesPerSecond = 1.0 / 60.0;
constexpr double kPerMillion = 1e6;
constexpr double kPercent = 100.0;

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> items;
    std::size_t from = 0;
    while (from <= text.size()) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        items.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return items;
}

ModellingField powerLimits() {
    // 10 W .. 2 kW brackets every accelerator's power-limit range.
    ModellingField field;
    field.key = "power_limits_w";
    field.kind = ModellingFieldKind::NumberList;
    field.min = 10.0;
    field.max = 2000.0;
    field.unit = "W";
    field.description = "per-GPU power limits the performance-model menu also offers, each option at each "
                        "limit (chase needs them); none: the default limit only";
    field.changesMenu = true;
    field.get = [](const M& m) { return joinedText(m.powerLimitsW, ",", shortestNumber); };
    field.set = [](M& m, const std::string& text) {
        m.powerLimitsW.clear();
        for (const std::string& item : modellingListItems(text))
            m.powerLimitsW.push_back(*parseDecimal(item));
    };
    return field;
}

ModellingField gpuPrice() {
    ModellingField field =
        shown(number("gpu_price_usd_per_hour", {}, &M::gpuPriceUsdPerHour, 0, 1000, "USD per GPU-hour",
                     "what one GPU-hour costs under gpu_capacity; unset: the cluster's on-demand list price "
                     "(e.g. 3.43 for an A100 80GB, 6.88 for an H100, AWS us-east-1, 2026)"),
              "GPU price", "USD per GPU-hour");
    field.display.unsetText = "cluster list price";
    return field;
}

ModellingField spotStrikes() {
    ModellingField field = shown(
        number("spot_preemptions_per_gpu_hour", {}, &M::spotPreemptionsPerGpuHour, 0, 1, "per GPU-hour",
               "spot capacity: how often the provider reclaims a training GPU, each strike costing a "
               "preemption (preemption_seconds); the default is AWS's Spot Advisor bucket for p5 "
               "instances, and measured traces of scarce GPU capacity reach 1,000 times more; ignored for "
               "other capacity"),
        "Spot reclaims", "per million GPU-hours", kPerMillion);
    field.applies = [](const M& m) { return m.gpuCapacity == M::GpuCapacity::Spot; };
    return field;
}

} // namespace

// Long by design: the table itself, one entry per modelling option; a new option is one more entry here.
const std::vector<ModellingField>& modellingFields() {
    // Ranges: a day per checkpoint/restart or migration is far beyond the 5-15 min reported for large jobs
    // (docs/MODEL.md, ilp); an overhead may draw up to twice the new configuration's power; one interruption
    // per 100 GPU-hours is 450 times Llama 3's rate.
    static const std::vector<ModellingField> fields{
        shown(number(
                  kBackfillKey, {}, &M::backfill, 0, 1, "",
                  "who pays for the GPUs a policy parks: the fraction of their time other work uses. 0, a "
                  "dedicated reservation (they idle, this job pays their idle power and embodied carbon); 1, "
                  "a shared cluster or cloud (they cost this job nothing). Every run also reports its total "
                  "at both ends (docs/DECISIONS.md)"),
              "Backfill of parked GPUs"),
        changingTheMenu(
            choice("batch_scaling", &M::batchScaling, {"global-constant", "per-replica-constant"},
                   "when data parallelism shrinks: the global batch stays (more micro-batches per "
                   "replica) or each replica's batch stays")),
        shown(number("reconfiguration_seconds", "reconfiguration_s", &M::reconfigurationSeconds, 0, 86400,
                     "s",
                     "checkpoint save + reshard + reload per configuration change (the ILP article cites "
                     "5-15 min per preemption)"),
              "Reconfiguration", "min", kMinutesPerSecond),
        number("resize_seconds", {}, &M::resizeSeconds, 0, 86400, "s",
               "a change of data parallelism alone (same t, p and layout): replicas join or leave without a "
               "reshard of the model state; a power-limit change alone costs nothing"),
        shown(number("preemption_seconds", "preemption_s", &M::preemptionSeconds, 0, 86400, "s",
                     "checkpoint + restart per pause and resume"),
              "Preemption", "min", kMinutesPerSecond),
        number("migration_seconds", "migration_s", &M::migrationSeconds, 0, 86400, "s",
               "checkpoint transfer + restart when moving to another region"),
        number("overhead_power_fraction", {}, &M::overheadPowerFraction, 0, 2, "",
               "power during an overhead: 0 = the new configuration's GPUs and nodes at idle, 1 = at "
               "training power, between: that share of the difference"),
        orZero(number("overhead_power_w", {}, &M::overheadPowerW, 1, 1e9, "W",
                      "the job's power during an overhead, before PUE, as a measurement or a peer states it "
                      "(the dynamic-parallelism authors charge a switch at 600 W); 0: as "
                      "overhead_power_fraction models it")),
        shownChoice(choice("deadline_mode", &M::deadlineMode, {"hard", "soft"},
                           "hard: the engine forces the job to run when the deadline would be missed; soft: "
                           "lateness is charged as a penalty"),
                    "Deadline", {"Hard (run fastest when behind)", "Soft (late finishes allowed)"}),
        number("soft_deadline_penalty_g_per_hour", "soft_penalty_g_per_h", &M::softDeadlinePenaltyGPerHour, 0,
               1e12, "g/h", "soft deadline: gCO2e charged per hour late"),
        orZero(number("decision_interval_seconds", "decision_interval_s", &M::decisionIntervalSeconds, 60,
                      30.0 * 86400.0, "s",
                      "how often policies decide; 0: at trace slot boundaries, at most every 30 min")),
        powerLimits(),
        // The goodput (docs/MODEL.md "Goodput") scales every configuration's rates: these change the menu.
        shown(
            changingTheMenu(number(
                "interruptions_per_gpu_hour", {}, &M::interruptionsPerGpuHour, 0, 0.01, "per GPU-hour",
                "job interruptions (failures and maintenance) per running GPU per hour; each costs a restart "
                "and the work since the last checkpoint; the default is the Llama 3 405B run's 466 in 54 "
                "days "
                "on 16,384 GPUs; 0: no failures")),
            "Interruptions", "per million GPU-hours", kPerMillion),
        shown(changingTheMenu(number("restart_seconds", {}, &M::restartSeconds, 0, 86400, "s",
                                     "after an interruption: detect, reschedule and reload the last "
                                     "checkpoint, GPUs held idle")),
              "Restart", "min", kMinutesPerSecond),
        shown(changingTheMenu(
                  number("checkpoint_interval_seconds", {}, &M::checkpointIntervalSeconds, 1, 86400, "s",
                         "training time between checkpoints; an interruption loses the work since "
                         "the last one")),
              "Checkpoint every", "min", kMinutesPerSecond),
        shown(
            changingTheMenu(number("evaluation_fraction", {}, &M::evaluationFraction, 0, 1, "",
                                   "evaluation time per unit of training time, at training power (0.02: 2 % "
                                   "more)")),
            "Evaluation", "%", kPercent),
        // Prices: $1,000 per GPU-hour and $10 per kWh are two orders of magnitude above any list price;
        // a spot strike per GPU-hour would stop a 1,000-GPU job every 3.6 s.
        shownChoice(choice("gpu_capacity", &M::gpuCapacity, {"on-demand", "reserved", "spot"},
                           "how the GPUs are bought: on-demand (paid while held, parked ones by the backfill "
                           "share), reserved (every GPU paid from the start until the job completes, paused "
                           "or not) or spot (as on-demand, and reclaimed at spot_preemptions_per_gpu_hour)"),
                    "GPU capacity", {"On demand", "Reserved", "Spot"},
                    {"Paid while held (parked GPUs by the backfill share)",
                     "Every GPU paid from the scenario's start to completion, used or not",
                     "As on demand at a lower price, and reclaimed by the provider at random"}),
        gpuPrice(),
        spotStrikes(),
        number("spot_seed", {}, &M::spotSeed, 0, 9007199254740992.0, "",
               "spot capacity: the random stream of the strikes (an integer; the same seed strikes at the "
               "same times whatever the policy)"),
        shown(number("electricity_usd_per_kwh", {}, &M::electricityUsdPerKwh, 0, 10, "USD/kWh",
                     "flat electricity price of facility energy (the default is the 2022 US industrial "
                     "average); a region's price trace replaces it there"),
              "Electricity", "USD/kWh", 1.0, 4),
        shown(number("carbon_price_usd_per_t", {}, &M::carbonPriceUsdPerT, 0, 100000, "USD/tCO2e",
                     "price of a tonne of the run's emissions (operational + embodied); 0: none (the EU ETS "
                     "averaged about 80 EUR/t in 2022, the US EPA's social cost of carbon is 190 USD/t)"),
              "Carbon price", "USD/t"),
    };
    return fields;
}

std::string retiredModellingKey(const std::string& key) {
    if (key == "parked_gpus")
        return "'parked_gpus' became 'backfill', the fraction of parked GPUs' time other work uses: idle is "
               "backfill 0, released is backfill 1";
    return {};
}

const ModellingField* findModellingField(const std::string& keyOrAlias) {
    for (const ModellingField& field : modellingFields()) {
        if (field.key == keyOrAlias || (!field.alias.empty() && field.alias == keyOrAlias))
            return &field;
    }
    return nullptr;
}

bool isValidModellingValue(const ModellingField& field, const std::string& text) {
    const auto inRange = [&](const std::string& item) {
        const std::optional<double> value = parseDecimal(item);
        return value && ((*value >= field.min && *value <= field.max) || (field.orZero && *value == 0.0));
    };
    switch (field.kind) {
    case ModellingFieldKind::Number:
        return inRange(text);
    case ModellingFieldKind::Choice:
        return std::find(field.choices.begin(), field.choices.end(), text) != field.choices.end();
    case ModellingFieldKind::NumberList: {
        const std::vector<std::string> items = modellingListItems(text);
        return std::all_of(items.begin(), items.end(), inRange);
    }
    }
    return false;
}

std::string expectedModellingValue(const ModellingField& field) {
    const std::string range = "[" + shortestNumber(field.min) + ", " + shortestNumber(field.max) + "]" +
                              (field.unit.empty() ? "" : " " + field.unit);
    switch (field.kind) {
    case ModellingFieldKind::Number:
        return (field.orZero ? "0 or a number in " : "a number in ") + range;
    case ModellingFieldKind::Choice:
        return spokenList(field.choices, "or");
    case ModellingFieldKind::NumberList:
        return "numbers in " + range;
    }
    return {};
}

std::vector<std::string> modellingListItems(const std::string& text) {
    return text.empty() ? std::vector<std::string>{} : splitList(text);
}

std::map<std::string, std::string> modellingRecord(const ModellingOptions& options) {
    std::map<std::string, std::string> record;
    for (const ModellingField& field : modellingFields())
        record[field.key] = field.get(options);
    return record;
}

} // namespace carbon3d
