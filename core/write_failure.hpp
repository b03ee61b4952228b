// The one line for a file that could not be written, shared by every writer (report
// files, checkpoints).
#pragma once

#include <cerrno>
#include <cstring>
#include <string>

namespace statespace {

// Why writing `file` failed with `error` (an errno value): a full disk and a file
// size limit (ulimit -f) are named as such, since they are the user's to fix and
// not a fault of the program; any other error by its system description.
inline std::string write_failure(const std::string& file, int error) {
  if (error == ENOSPC || error == EDQUOT) return "no space left on device while writing " + file;
  if (error == EFBIG) return "file size limit exceeded while writing " + file;
  return "cannot write " + file + ": " + std::strerror(error);
}

}  // namespace statespace
