// SPDX-License-Identifier: MIT
#include "cli/ReportOutput.h"

#include "domain/OutputFile.h"

#include <ostream>

namespace carbon3d::cli {

void writeReport(const std::string& text, const std::optional<std::string>& path, CommandIo& io) {
    if (!path) {
        io.out << text;
        return;
    }
    writeFileAtomically(*path, text, "cannot write the report");
    io.out << "wrote " << *path << '\n';
}

} // namespace carbon3d::cli
