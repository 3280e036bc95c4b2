// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace carbon3d {

// The one guarded way to read an input file (traces, every JSON kind, operating-point tables): only a
// regular file is read (a directory, FIFO, device or socket is refused by name, so /dev/zero cannot exhaust
// memory and a FIFO cannot hang the program), its size is checked against `maxBytes` before a byte is read,
// and a file that grows while it is read is cut off at the limit and refused. `expected` says what the file
// should have been, for messages ("a carbon-intensity trace file"). Throws InputError(path, 0, 0, ...).
std::string readInputFile(const std::string& path, std::int64_t maxBytes, const std::string& expected);

// The first `headBytes` of such a file (fewer when it is shorter), after the same checks: enough to tell
// what kind of file it is without reading all of it.
std::string readInputFileHead(const std::string& path, std::int64_t maxBytes, std::int64_t headBytes,
                              const std::string& expected);

// `text` without a leading UTF-8 byte-order mark, as spreadsheet exports and some Windows tools write one.
std::string_view withoutByteOrderMark(std::string_view text);

} // namespace carbon3d
