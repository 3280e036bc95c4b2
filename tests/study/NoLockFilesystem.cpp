// SPDX-License-Identifier: MIT
// An emulation of a network filesystem whose locks do not work (NFS without its lock daemon answers ENOLCK),
// for tests/study/study_nolock.sh: preloaded (LD_PRELOAD) into carbon3d-cli, it fails every POSIX and BSD
// lock on a file under $CARBON3D_NOLOCK_DIR with ENOLCK and passes everything else to the C library. SQLite
// locks every database it opens (WAL's -shm too), so any SQLite access to that folder fails loudly, while
// plain reads, writes and renames work: the folder stands for a cluster's shared folder.
#include <cerrno>
#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <unistd.h>

namespace {

bool isLockCommand(int command) {
    return command == F_SETLK || command == F_SETLKW || command == F_GETLK || command == F_OFD_SETLK ||
           command == F_OFD_SETLKW || command == F_OFD_GETLK;
}

// Whether descriptor `fd` names a file under the folder whose locks "do not work".
bool inNoLockFolder(int fd) {
    const char* folder = std::getenv("CARBON3D_NOLOCK_DIR");
    if (folder == nullptr || *folder == '\0')
        return false;
    char target[4096];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t length = readlink(link.c_str(), target, sizeof(target) - 1);
    if (length <= 0)
        return false;
    target[length] = '\0';
    return std::strncmp(target, folder, std::strlen(folder)) == 0;
}

using FcntlFunction = int (*)(int, int, ...);

int forward(const char* name, int fd, int command, void* argument) {
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): dlsym returns the function as void*
    const auto real = reinterpret_cast<FcntlFunction>(dlsym(RTLD_NEXT, name));
    if (isLockCommand(command) && inNoLockFolder(fd)) {
        errno = ENOLCK;
        return -1;
    }
    return real(fd, command, argument);
}

} // namespace

// Every fcntl command takes at most one argument, an int or a pointer: passed on as a pointer-sized word.
extern "C" int fcntl(int fd, int command, ...) {
    va_list arguments;
    va_start(arguments, command);
    void* argument = va_arg(arguments, void*);
    va_end(arguments);
    return forward("fcntl", fd, command, argument);
}

extern "C" int fcntl64(int fd, int command, ...) {
    va_list arguments;
    va_start(arguments, command);
    void* argument = va_arg(arguments, void*);
    va_end(arguments);
    return forward("fcntl64", fd, command, argument);
}

extern "C" int flock(int fd, int operation) {
    if (inNoLockFolder(fd)) {
        errno = ENOLCK;
        return -1;
    }
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): dlsym returns the function as void*
    return reinterpret_cast<int (*)(int, int)>(dlsym(RTLD_NEXT, "flock"))(fd, operation);
}
