// SPDX-License-Identifier: MIT
// Lists as text (domain/TextList.h): the separators every message, help text, CSV line and SQL fragment
// of the core relies on.
#include "domain/TextList.h"

#include <QTest>
#include <map>

using namespace carbon3d;

namespace {
struct Named {
    std::string name;
};
} // namespace

class TstTextList : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void joinedTextSeparatesConsecutiveItems() {
        QCOMPARE(joinedText(std::vector<std::string>{}), std::string());
        QCOMPARE(joinedText(std::vector<std::string>{"a"}), std::string("a"));
        QCOMPARE(joinedText(std::vector<std::string>{"a", "b", "c"}), std::string("a, b, c"));
        QCOMPARE(joinedText(std::vector<std::string>{"a", "b"}, " | "), std::string("a | b"));
    }

    void joinedTextKeepsEmptyItemsInTheirPlace() {
        // A CSV line whose first field is empty still has its comma: the fields stay in their columns.
        QCOMPARE(joinedText(std::vector<std::string>{"", "x", ""}, ","), std::string(",x,"));
    }

    void joinedTextTurnsItemsToTextByCallableOrMember() {
        const std::vector<int> ids{3, 14};
        QCOMPARE(joinedText(ids, ",", [](int id) { return std::to_string(id); }), std::string("3,14"));
        const std::vector<Named> named{{"static-max"}, {"oracle"}};
        QCOMPARE(joinedText(named, ", ", &Named::name), std::string("static-max, oracle"));
        const std::map<std::string, std::string> options{{"k", "1"}, {"a", "2"}};
        QCOMPARE(joinedText(options, "; ", [](const auto& e) { return e.first + "=" + e.second; }),
                 std::string("a=2; k=1"));
    }

    void appendSeparatedStartsWithoutASeparator() {
        std::string list;
        appendSeparated(list, "x");
        appendSeparated(list, "y");
        appendSeparated(list, "z", "|");
        QCOMPARE(list, std::string("x, y|z"));
    }

    void spokenListPutsTheConjunctionBeforeTheLastItem() {
        QCOMPARE(spokenList({}, "and"), std::string());
        QCOMPARE(spokenList({"18.4B"}, "and"), std::string("18.4B"));
        QCOMPARE(spokenList({"a", "b"}, "or"), std::string("a or b"));
        QCOMPARE(spokenList({"3.6B", "18.4B", "175B"}, "and"), std::string("3.6B, 18.4B and 175B"));
    }
};

QTEST_GUILESS_MAIN(TstTextList)
#include "tst_textlist.moc"
