// SPDX-License-Identifier: MIT
#include "domain/InputFile.h"

#include "domain/FileIdentity.h"
#include "domain/InputError.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <sys/vfs.h>

namespace carbon3d {

namespace {

namespace fs = std::filesystem;

// What a non-regular file is, in words.
std::string kindOf(const fs::file_status& status) {
    switch (status.type()) {
    case fs::file_type::directory:
        return "a directory";
    case fs::file_type::fifo:
        return "a FIFO (named pipe)";
    case fs::file_type::character:
        return "a character device";
    case fs::file_type::block:
        return "a block device";
    case fs::file_type::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

// The kernel's pseudo-filesystems (procfs, sysfs, debugfs, ...) show files as regular with a size of 0 whose
// reads are generated on the fly and may block forever (/proc/kmsg); no input of Carbon3D lives there.
const char* pseudoFilesystem(const std::string& path) {
    struct statfs info {};
    if (::statfs(path.c_str(), &info) != 0)
        return nullptr;
    switch (static_cast<unsigned long>(info.f_type)) {
    case 0x9fa0UL: // PROC_SUPER_MAGIC
        return "procfs";
    case 0x62656572UL: // SYSFS_MAGIC
        return "sysfs";
    case 0x64626720UL: // DEBUGFS_MAGIC
        return "debugfs";
    case 0x74726163UL: // TRACEFS_MAGIC
        return "tracefs";
    case 0x27e0ebUL:   // CGROUP_SUPER_MAGIC
    case 0x63677270UL: // CGROUP2_SUPER_MAGIC
        return "cgroupfs";
    default:
        return nullptr;
    }
}

// Checks the path and returns the file's size.
std::int64_t checkedSize(const std::string& path, std::int64_t maxBytes, const std::string& expected) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (ec == std::errc::too_many_symbolic_link_levels)
        throw InputError(path, 0, 0, "a loop of symbolic links: expected " + expected);
    if (ec || !fs::exists(status))
        throw InputError(path, 0, 0, "file not found: expected " + expected);
    if (!fs::is_regular_file(status))
        throw InputError(path, 0, 0, "is " + kindOf(status) + ": expected " + expected);
    if (const std::string database = openDatabaseAt(path); !database.empty())
        throw InputError(path, 0, 0,
                         "is the results database " + database +
                             " that this program has open (the same file by device and inode, or one of its "
                             "companions); reading it would release the database's locks: expected " +
                             expected);
    if (const char* pseudo = pseudoFilesystem(path))
        throw InputError(path, 0, 0,
                         std::string("is a pseudo-file of the kernel (") + pseudo +
                             "), whose reads may never end: expected " + expected);
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec)
        throw InputError(path, 0, 0, "unreadable file: " + ec.message());
    if (size > static_cast<std::uintmax_t>(maxBytes))
        throw InputError(path, 0, 0,
                         "file too large: " + std::to_string(size) + " bytes, expected " + expected +
                             " of at most " + std::to_string(maxBytes) + " bytes");
    return static_cast<std::int64_t>(size);
}

// At most `limit` bytes from the start of the file, read in chunks (no allocation of the limit up front).
std::string readPrefix(const std::string& path, std::int64_t limit) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, 0, 0, "unreadable file: cannot open it for reading");
    std::string text;
    char chunk[64 * 1024];
    while (in && static_cast<std::int64_t>(text.size()) < limit) {
        const auto wanted =
            std::min<std::int64_t>(sizeof chunk, limit - static_cast<std::int64_t>(text.size()));
        in.read(chunk, static_cast<std::streamsize>(wanted));
        text.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
    return text;
}

// Every input is UTF-8 text with LF or CRLF line ends. Two common exports are not, and the readers would
// report their first odd byte in generic words: UTF-16 (Excel's "Unicode text", PowerShell's default) and CR
// line ends only (classic Mac, some spreadsheet exports), which read as one long line. Said by name instead.
void checkTextEncoding(const std::string& path, const std::string& text, const std::string& expected) {
    const std::string_view all(text);
    const auto startsWith = [&all](std::string_view prefix) {
        return all.substr(0, prefix.size()) == prefix;
    };
    using namespace std::string_view_literals;
    const bool utf32 = startsWith("\xFF\xFE\0\0"sv) || startsWith("\0\0\xFE\xFF"sv);
    const bool utf16Bom = !utf32 && (startsWith("\xFF\xFE"sv) || startsWith("\xFE\xFF"sv));
    // Without a byte-order mark, ASCII text in UTF-16 has a NUL in every other byte, all at one parity.
    const std::string_view head = all.substr(0, 4096);
    std::size_t nuls[2] = {0, 0}; // at even and at odd offsets
    for (std::size_t i = 0; i < head.size(); ++i)
        nuls[i % 2] += head[i] == '\0' ? 1 : 0;
    const std::size_t pairs = head.size() / 2;
    const bool utf16Bare = !utf32 && !utf16Bom && pairs >= 4 &&
                           std::max(nuls[0], nuls[1]) * 10 >= pairs * 9 &&
                           std::min(nuls[0], nuls[1]) * 10 <= pairs;
    if (utf32 || utf16Bom || utf16Bare)
        throw InputError(path, 0, 0,
                         std::string("is ") + (utf32 ? "UTF-32" : "UTF-16") +
                             (utf16Bare ? " (no byte-order mark: a NUL in every other byte)" : "") +
                             " text: expected " + expected +
                             " in UTF-8; save it as UTF-8 (in a spreadsheet: CSV UTF-8)");
    if (startsWith("SQLite format 3\0"sv))
        throw InputError(path, 0, 0,
                         "is a SQLite database (a results database?), not text: expected " + expected);
    const std::string_view lines = all.substr(0, 1 << 16);
    if (lines.find('\r') != std::string_view::npos && lines.find('\n') == std::string_view::npos)
        throw InputError(path, 1, 0,
                         "has lines ending in CR only (a classic Mac export): expected " + expected +
                             " with lines ending in LF or CRLF; convert it, for example with tr '\\r' '\\n'");
}

} // namespace

std::string readInputFile(const std::string& path, std::int64_t maxBytes, const std::string& expected) {
    checkedSize(path, maxBytes, expected);
    // One byte past the limit tells a file that grew past it since it was measured.
    std::string text = readPrefix(path, maxBytes + 1);
    if (static_cast<std::int64_t>(text.size()) > maxBytes)
        throw InputError(path, 0, 0,
                         "file too large: it grew past " + std::to_string(maxBytes) +
                             " bytes while being read");
    checkTextEncoding(path, text, expected);
    return text;
}

std::string readInputFileHead(const std::string& path, std::int64_t maxBytes, std::int64_t headBytes,
                              const std::string& expected) {
    checkedSize(path, maxBytes, expected);
    std::string head = readPrefix(path, headBytes);
    checkTextEncoding(path, head, expected);
    return head;
}

std::string_view withoutByteOrderMark(std::string_view text) {
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3);
    return text;
}

} // namespace carbon3d
