// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace carbon3d {

class ResultsStore;

// A results database worked on in a node-local folder and published whole into a shared one (issue 44).
// A cluster's shared folder is a network filesystem (NFS, Lustre, GPFS), where SQLite's WAL mode does not
// work (its -shm index is memory shared between processes of one machine) and file locks are not to be
// relied on; SQLite's documentation says so ("WAL does not work over a network filesystem"; "How To Corrupt
// An SQLite Database File", 2.1). So SQLite never opens anything in the shared folder: the working copy lives
// in scratch, and publish() copies a compact snapshot of it there under a temporary name, then renames it
// over the published file, so that a reader sees the previous snapshot or the new one, never half of one.
class ScratchDatabase {
public:
    // Copies the published file (and its -wal, if one was written in place) into scratchFolder, created if
    // need be, so that work resumes from what was published. InputError naming a file that cannot be
    // copied or a folder that cannot be made.
    ScratchDatabase(std::string publishedPath, const std::string& scratchFolder);
    ~ScratchDatabase(); // removes the working copy and its companions from scratch
    ScratchDatabase(const ScratchDatabase&) = delete;
    ScratchDatabase& operator=(const ScratchDatabase&) = delete;

    const std::string& workingPath() const { return m_working; }
    const std::string& publishedPath() const { return m_published; }

    // Publishes what `store` (opened on workingPath(), on this thread) has committed. The shared folder
    // needs room for the snapshot twice while the rename has not happened; scratch for one more.
    void publish(const ResultsStore& store) const;

private:
    std::string m_published;
    std::string m_working;
};

} // namespace carbon3d
