// SPDX-License-Identifier: MIT
#pragma once

#include "cli/CliArguments.h"
#include "cli/Command.h"

#include <string>
#include <vector>

namespace carbon3d::cli {

// study slurm: the scripts that run a study's shards as Slurm job arrays and merge them (docs/STUDIES.md
// "On your cluster"); study status: how far the shards of such a folder got.
void writeSlurmScripts(const CliArguments& args, CommandIo& io, const std::string& studyPath,
                       const std::string& bundledTraces);
int printSlurmStatus(const CliArguments& args, CommandIo& io, const std::string& folder);
// The flags study slurm adds to the study command.
std::vector<FlagSpec> slurmFlags();

} // namespace carbon3d::cli
