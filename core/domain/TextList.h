// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

// Lists as text: the one way the core's messages, help texts, CSV lines and SQL fragments put items
// side by side, so that no caller repeats the "separator before every item but the first" test.
namespace carbon3d {

// Appends `item` to `list`, after `separator` unless `list` is still empty. For lists built in a loop
// that skips some items; an empty item therefore counts as no item (use joinedText when items may be
// empty, as CSV fields may).
void appendSeparated(std::string& list, std::string_view item, std::string_view separator = ", ");

// Every item of `items`, turned to text by `toText` (a callable or a member pointer; the item itself by
// default), with `separator` between consecutive items: joinedText(ids, ", ") == "a, b, c".
template <typename Range, typename ToText = std::identity>
std::string joinedText(const Range& items, std::string_view separator = ", ", ToText toText = {}) {
    std::string out;
    bool first = true;
    for (const auto& item : items) {
        if (!first)
            out.append(separator);
        first = false;
        out.append(std::string_view(std::invoke(toText, item)));
    }
    return out;
}

// Items as a sentence lists them, with `conjunction` before the last: "a", "a or b", "a, b or c".
std::string spokenList(const std::vector<std::string>& items, std::string_view conjunction);

} // namespace carbon3d
