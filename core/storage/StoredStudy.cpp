// SPDX-License-Identifier: MIT
#include "storage/StoredStudy.h"

#include "domain/InputError.h"
#include "domain/Json.h"
#include "domain/MetricFields.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace carbon3d {

// The text a JSON object of the fields would dump, written directly (building the object was a tenth of a
// year-long study's time).
std::string exactMetricsJson(const RunMetrics& metrics) {
    std::string out = "{";
    for (const MetricField& field : metricFields()) {
        if (out.size() > 1)
            out += ',';
        appendJsonString(out, field.name);
        out += ':';
        appendJsonNumber(out, metricValue(field, metrics));
    }
    out += '}';
    return out;
}

RunMetrics metricsFromExactJson(const std::string& json, const std::string& source) {
    const JsonValue object = parseJson(json, source);
    RunMetrics metrics;
    for (const MetricField& field : metricFields()) {
        const JsonValue* value = object.find(field.name);
        // Studies came with schema version 4: a cell saved then lacks the fields added since (unknown, NaN).
        constexpr int kStudiesSchema = 4;
        if (value == nullptr && field.sinceSchema <= kStudiesSchema)
            throw InputError(source, 0, 0, "a study cell's metrics lack '" + field.name + "'");
        const double number = value == nullptr || value->isNull() ? std::numeric_limits<double>::quiet_NaN()
                                                                  : value->toNumber();
        std::visit(
            [&](auto member) {
                using Value = std::remove_reference_t<decltype(metrics.*member)>;
                if constexpr (std::is_same_v<Value, bool>)
                    metrics.*member = number != 0.0;
                else if constexpr (std::is_same_v<Value, int>)
                    metrics.*member =
                        std::isfinite(number) ? static_cast<int>(number) : 0; // absent count: none
                else
                    metrics.*member = number;
            },
            field.member);
    }
    return metrics;
}

} // namespace carbon3d
