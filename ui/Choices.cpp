// SPDX-License-Identifier: MIT
#include "Choices.h"

#include "engine/PolicyRegistry.h"

namespace carbon3d::ui {

std::vector<PolicyChoice> policyChoicesFromCatalogue() {
    std::vector<PolicyChoice> policies;
    for (const PolicyInfo& info : policyCatalog()) {
        PolicyChoice choice{QString::fromStdString(info.name),
                            QString::fromStdString(info.description),
                            QString::fromStdString(info.source),
                            {}};
        for (const PolicyOptionInfo& option : info.options)
            choice.options.push_back(
                {QString::fromStdString(option.key), QString::fromStdString(option.defaultValue),
                 QString::fromStdString(option.description), QString::fromStdString(acceptedValues(option)),
                 option.kind == PolicyOptionKind::Flag});
        policies.push_back(std::move(choice));
    }
    return policies;
}

} // namespace carbon3d::ui
