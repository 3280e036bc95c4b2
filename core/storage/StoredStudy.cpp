// SPDX-License-Identifier: MIT
#include "storage/StoredStudy.h"

#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/MetricFields.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace carbon3d {

std::string exactMetricsJson(const RunMetrics& metrics) {
    JsonValue object = JsonValue::makeObject();
    for (const MetricField& field : metricFields()) {
        const double value = metricValue(field, metrics);
        object.insert(field.name,
                      !std::isfinite(value) ? JsonValue::makeNull() : JsonValue::makeNumber(value));
    }
    return object.dump(-1);
}

RunMetrics metricsFromExactJson(const std::string& json, const std::string& source) {
    const JsonValue object = parseJson(json, source);
    RunMetrics metrics;
    for (const MetricField& field : metricFields()) {
        const JsonValue* value = object.find(field.name);
        if (value == nullptr)
            throw InputError(source, 0, 0, "a study cell's metrics lack '" + field.name + "'");
        const double number = value->isNull() ? std::numeric_limits<double>::quiet_NaN() : value->toNumber();
        std::visit(
            [&](auto member) {
                using Value = std::remove_reference_t<decltype(metrics.*member)>;
                if constexpr (std::is_same_v<Value, bool>)
                    metrics.*member = number != 0.0;
                else if constexpr (std::is_same_v<Value, int>)
                    metrics.*member = static_cast<int>(number);
                else
                    metrics.*member = number;
            },
            field.member);
    }
    return metrics;
}

} // namespace carbon3d
