// SPDX-License-Identifier: MIT
#include "study/StudyCells.h"

#include "domain/TextList.h"

#include <QCryptographicHash>
#include <stdexcept>

namespace carbon3d {

std::size_t cellCount(const StudyDefinition& study) {
    std::size_t count = 1;
    for (const StudyAxis& axis : study.axes)
        count *= axis.values.size();
    return count;
}

StudyCell cellAt(const StudyDefinition& study, std::size_t index) {
    if (index >= cellCount(study))
        throw std::out_of_range("cell " + std::to_string(index) + " of a study with " +
                                std::to_string(cellCount(study)) + " cells");
    StudyCell cell;
    cell.index = index;
    cell.valueIndex.resize(study.axes.size());
    std::size_t rest = index;
    for (std::size_t a = study.axes.size(); a-- > 0;) { // the last axis varies fastest
        const std::size_t size = study.axes[a].values.size();
        cell.valueIndex[a] = rest % size;
        rest /= size;
    }
    // The cell's own content only (the base and its values), so the same cell in a study with more values
    // on some axis has the same hash.
    std::string text = study.baseHash;
    for (std::size_t a = 0; a < study.axes.size(); ++a)
        text += "\n" + study.axes[a].key + "=" + study.axes[a].values[cell.valueIndex[a]].identity;
    cell.hash = QCryptographicHash::hash(QByteArray::fromStdString(text), QCryptographicHash::Sha256)
                    .toHex()
                    .toStdString();
    return cell;
}

std::optional<std::size_t> cellWithPolicy(const StudyDefinition& study, const StudyCell& cell,
                                          const std::string& policy) {
    std::size_t stride = 1; // of the axis below: the last axis varies fastest
    for (std::size_t a = study.axes.size(); a-- > 0;) {
        const StudyAxis& axis = study.axes[a];
        if (axis.key == "policy") {
            for (std::size_t v = 0; v < axis.values.size(); ++v)
                if (!axis.values[v].columns.empty() && axis.values[v].columns.front() == policy)
                    return cell.index - cell.valueIndex[a] * stride + v * stride;
            return std::nullopt;
        }
        stride *= axis.values.size();
    }
    return std::nullopt;
}

bool inShard(std::size_t index, std::size_t shard, std::size_t shards) {
    return shards <= 1 || index % shards == shard;
}

CellSetup cellSetup(const StudyDefinition& study, const StudyCell& cell) {
    CellSetup setup{study.base, {}};
    std::string what;
    for (std::size_t a = 0; a < study.axes.size(); ++a) {
        const AxisValue& value = study.axes[a].values[cell.valueIndex[a]];
        value.apply(setup);
        appendSeparated(what, study.axes[a].key + "=" + value.columns.front(), " ");
    }
    setup.scenario.name = study.name + " / " + what;
    setup.scenario.policies = {setup.policy};
    return setup;
}

std::vector<std::string> axisColumns(const StudyDefinition& study) {
    std::vector<std::string> columns;
    for (const StudyAxis& axis : study.axes)
        columns.insert(columns.end(), axis.columns.begin(), axis.columns.end());
    return columns;
}

std::vector<std::string> cellValues(const StudyDefinition& study, const StudyCell& cell) {
    std::vector<std::string> values;
    for (std::size_t a = 0; a < study.axes.size(); ++a) {
        const AxisValue& value = study.axes[a].values[cell.valueIndex[a]];
        values.insert(values.end(), value.columns.begin(), value.columns.end());
    }
    return values;
}

std::string menuKey(const StudyDefinition& study, const StudyCell& cell) {
    std::string key;
    for (std::size_t a = 0; a < study.axes.size(); ++a)
        if (study.axes[a].changesMenu)
            key += std::to_string(a) + ":" + std::to_string(cell.valueIndex[a]) + ";";
    return key;
}

} // namespace carbon3d
