#include "core/temporary_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace {

namespace fs = std::filesystem;

namespace {

// What lstat finds at `path`, in words for a refusal; empty for a regular file.
std::string kind_at(const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return {};
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (!S_ISREG(st.st_mode)) return "a special file";
  return {};
}

}  // namespace

fs::path temporary_beside(const fs::path& path) { return path.string() + ".tmp" + std::to_string(::getpid()); }

std::string planted_refusal(const fs::path& path, std::string_view what) {
  std::string out = "refusing to write through ";
  out += quote_input(path.string(), 4096);
  out += ": it is ";
  out += what;
  out += " (expected no file there, or a regular file; remove it)";
  return out;
}

int create_exclusive(const fs::path& path, mode_t mode) {
  // Twice at most: a regular file found the first time is removed (unlinking a
  // name never touches another file), and whatever appears after that is refused.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd >= 0 || (errno != EEXIST && errno != ELOOP)) return fd;
    const int error = errno;
    if (const std::string kind = kind_at(path); !kind.empty()) throw UsageError(planted_refusal(path, kind));
    if (attempt == 0 && ::unlink(path.c_str()) != 0 && errno != ENOENT) return -1;
    errno = error;
  }
  throw UsageError(planted_refusal(path, "a file that keeps coming back"));
}

int open_no_follow(const fs::path& path, mode_t mode) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd >= 0) {
    struct stat st {};
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) return fd;
    ::close(fd);
    throw UsageError(planted_refusal(path, "a special file"));
  }
  const int error = errno;
  if (const std::string kind = kind_at(path); !kind.empty()) throw UsageError(planted_refusal(path, kind));
  errno = error;
  return -1;
}

std::optional<long> pid_after(const std::string& name, std::string_view marker) {
  const auto at = name.rfind(marker);
  if (at == std::string::npos) return std::nullopt;
  const std::string digits = name.substr(at + marker.size());
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stol(digits);
}

bool process_alive(long pid) { return pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno == EPERM; }

void remove_stale_temporaries(const fs::path& dir, std::string_view prefix) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!prefix.empty() && !(name.starts_with(prefix) && name.compare(prefix.size(), 4, ".tmp") == 0)) continue;
    const auto pid = pid_after(name, ".tmp");
    std::error_code gone;
    if (!pid || process_alive(*pid) || !it->is_regular_file(gone) || it->is_symlink(gone)) continue;
    fs::remove(it->path(), gone);
  }
}

}  // namespace statespace
