// SPDX-License-Identifier: MIT
#include "config/ScenarioHash.h"

#include "config/ScenarioJson.h"

#include <QCryptographicHash>
#include <algorithm>

namespace carbon3d {

namespace {

JsonValue sortedKeys(const JsonValue& value) {
    if (value.isArray()) {
        JsonValue array = JsonValue::makeArray();
        for (const JsonValue& item : value.items())
            array.append(sortedKeys(item));
        return array;
    }
    if (!value.isObject())
        return value;
    std::vector<const JsonValue::Member*> members;
    for (const JsonValue::Member& m : value.members())
        members.push_back(&m);
    std::sort(members.begin(), members.end(),
              [](const JsonValue::Member* a, const JsonValue::Member* b) { return a->key < b->key; });
    JsonValue object = JsonValue::makeObject();
    for (const JsonValue::Member* m : members)
        object.insert(m->key, sortedKeys(m->value));
    return object;
}

} // namespace

std::string canonicalJson(const Scenario& scenario) {
    return sortedKeys(detail::scenarioToJson(scenario, std::string(), true)).dump(-1);
}

std::string scenarioHash(const Scenario& scenario) {
    std::string text = canonicalJson(scenario);
    for (const RegionSpec& region : scenario.regions)
        text += "\n" + detail::traceFingerprint(region.trace);
    return QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

} // namespace carbon3d
