// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>

class QSaveFile;

namespace carbon3d {

// Writes `text` to `path` atomically (QSaveFile: a reader sees the old file or the whole new one, never half
// of it). Otherwise an InputError naming the file: "PROBLEM: the system's reason". A path that is a
// results database open in this process (OpenDatabaseMark), or one of its companions, is refused the same
// way before anything is written.
void writeFileAtomically(const std::string& path, const std::string& text, const std::string& problem);

// The same for text written piece by piece (a million-line export need not be held whole): nothing is at
// `path` until commit(), which replaces the file whole; destroyed without commit(), the old file stays.
class AtomicTextOutput {
public:
    AtomicTextOutput(std::string path, std::string problem); // refuses an open database as above
    ~AtomicTextOutput();
    AtomicTextOutput(const AtomicTextOutput&) = delete;
    AtomicTextOutput& operator=(const AtomicTextOutput&) = delete;
    void write(std::string_view text);
    void commit();

private:
    [[noreturn]] void fail() const;
    std::string m_path;
    std::string m_problem;
    std::unique_ptr<QSaveFile> m_file;
};

} // namespace carbon3d
