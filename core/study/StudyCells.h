// SPDX-License-Identifier: MIT
#pragma once

#include "study/StudyDefinition.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace carbon3d {

// One cell of a study: its index in the Cartesian product (the first axis varies slowest, as nested loops
// in the file's order), the value it takes on each axis, and a content hash that changes whenever anything
// that could change its result does (the study's base, the cell's own values, the program version) and
// nothing else (another value added to an axis leaves the other cells' hashes as they were).
struct StudyCell {
    std::size_t index = 0;
    std::vector<std::size_t> valueIndex; // per axis, into StudyAxis::values
    std::string hash;
};

std::size_t cellCount(const StudyDefinition& study);
StudyCell cellAt(const StudyDefinition& study, std::size_t index); // index < cellCount()

// Whether shard `shard` of `shards` (0-based) runs the cell: every shards-th cell, so shards are even in
// size and in mix (a block split would give one shard all the oracle's slow cells).
bool inShard(std::size_t index, std::size_t shard, std::size_t shards);

// The scenario and policy the cell runs: the base with each axis's value applied in axis order. The
// scenario's name says what the cell is ("STUDY / start=... region=DE policy=oracle").
CellSetup cellSetup(const StudyDefinition& study, const StudyCell& cell);

// The export's axis columns (each axis's columns in axis order) and one cell's texts in them.
std::vector<std::string> axisColumns(const StudyDefinition& study);
std::vector<std::string> cellValues(const StudyDefinition& study, const StudyCell& cell);

// The cell with every axis value of `cell` but the policy, which is `policy` (a value of the policy axis as
// its column shows it: "static-max", "multi-region (hysteresis=false)"); nullopt without a policy axis or
// that value on it.
std::optional<std::size_t> cellWithPolicy(const StudyDefinition& study, const StudyCell& cell,
                                          const std::string& policy);

// The menu key of a cell: cells with equal keys share the performance model's menu (only the axes that
// change the menu count).
std::string menuKey(const StudyDefinition& study, const StudyCell& cell);

} // namespace carbon3d
