// SPDX-License-Identifier: MIT
#include "domain/TextList.h"

namespace carbon3d {

void appendSeparated(std::string& list, std::string_view item, std::string_view separator) {
    if (!list.empty())
        list.append(separator);
    list.append(item);
}

std::string spokenList(const std::vector<std::string>& items, std::string_view conjunction) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0)
            out.append(i + 1 == items.size() ? " " + std::string(conjunction) + " " : ", ");
        out.append(items[i]);
    }
    return out;
}

} // namespace carbon3d
