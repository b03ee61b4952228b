// Files created where another user (or a careless script) may have planted
// something: a temporary's name is guessable (NAME.tmpPID), so a symbolic link left
// at it would otherwise be followed and a file outside the destination written.
// Every temporary and lock file is created here with O_NOFOLLOW, temporaries also
// with O_EXCL, and what a dead run left is recognised by the process id in its name.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace statespace {

// `path` with ".tmp" and this process's id appended.
[[nodiscard]] std::filesystem::path temporary_beside(const std::filesystem::path& path);

// Creates `path` as a new, empty file and returns its descriptor open for writing
// (O_CREAT | O_EXCL | O_NOFOLLOW). A regular file already there (left by a dead run
// that had this process id) is removed first; anything else (a symbolic link, a
// folder, a pipe) is refused: throws UsageError naming it. Other failures return -1
// with errno set.
[[nodiscard]] int create_exclusive(const std::filesystem::path& path, mode_t mode = 0644);

// Opens (creating) `path` for reading and writing without following a link at it;
// throws UsageError naming a link or a non-file found there, returns -1 with errno
// set on other failures.
[[nodiscard]] int open_no_follow(const std::filesystem::path& path, mode_t mode = 0644);

// The one line refusing `path`, which holds `what` where this run must create a file.
[[nodiscard]] std::string planted_refusal(const std::filesystem::path& path, std::string_view what);

// The process id after `marker` at the end of `name` when all that follows is
// digits ("summary.csv.tmp123", ".tmp" -> 123).
[[nodiscard]] std::optional<long> pid_after(const std::string& name, std::string_view marker);

// False for the id of a process that no longer exists.
[[nodiscard]] bool process_alive(long pid);

// Removes from `dir` the regular files named PREFIX.tmpPID whose process is gone
// (PREFIX empty: any name); links and folders are left alone.
void remove_stale_temporaries(const std::filesystem::path& dir, std::string_view prefix = {});

}  // namespace statespace
