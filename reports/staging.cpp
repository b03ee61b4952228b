#include "reports/staging.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <string>

#include "reports/atomic_file.hpp"

namespace statespace::reports {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStaging = ".staging-";
constexpr std::string_view kOld = ".old-";
constexpr std::string_view kTmp = ".tmp";

fs::path sibling(const fs::path& target, std::string_view marker, long pid) {
  std::string name(".");
  name += target.filename().string();
  name += marker;
  name += std::to_string(pid);
  return target.parent_path() / name;
}

// The process id after `marker` at the end of `name`, when all that follows is digits.
std::optional<long> pid_after(const std::string& name, std::string_view marker) {
  const auto at = name.rfind(marker);
  if (at == std::string::npos) return std::nullopt;
  const std::string digits = name.substr(at + marker.size());
  if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stol(digits);
}

bool alive(long pid) { return pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno == EPERM; }

// fsync on the folder, so that a rename in it reaches the disk before the run ends.
void sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

void clear_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path entry = it->path();
    const std::string name = entry.filename().string();
    bool handled = false;
    for (const auto marker : {kOld, kStaging}) {
      const auto pid = name.starts_with(".") ? pid_after(name, marker) : std::nullopt;
      if (!pid || alive(*pid)) continue;
      handled = true;
      // ".NAME.old-PID" is the earlier bundle, moved aside by a commit that died
      // before its second rename: when NAME is missing it is the bundle to keep.
      const fs::path target = dir / name.substr(1, name.rfind(marker) - 1);
      std::error_code gone;
      if (marker == kOld && !fs::exists(target, gone)) {
        fs::rename(entry, target, gone);
        if (!gone) break;
      }
      fs::remove_all(entry, gone);
      break;
    }
    if (const auto pid = pid_after(name, kTmp); !handled && pid && !alive(*pid)) {
      std::error_code gone;
      if (!it->is_regular_file(gone)) continue;
      fs::remove(entry, gone);
    }
  }
}

StagedFolder::StagedFolder(const fs::path& target) : target_(target), path_(sibling(target, kStaging, ::getpid())) {
  std::error_code ec;
  const fs::path parent = target.parent_path();
  if (!fs::create_directories(parent, ec) && ec) throw WriteError(target, ec.value());
  clear_stale_temporaries(parent);
  fs::remove_all(path_, ec);
  if (!fs::create_directory(path_, ec) && ec) throw WriteError(target, ec.value());
}

StagedFolder::~StagedFolder() {
  std::error_code ec;
  if (!committed_) fs::remove_all(path_, ec);
}

void StagedFolder::commit() {
  sync_folder(path_);
  std::error_code ec;
  if (!fs::exists(target_, ec)) {
    if (std::rename(path_.c_str(), target_.c_str()) != 0) throw WriteError(target_, errno);
  } else if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(path_, ec);  // now the earlier bundle
  } else if (errno == EINVAL || errno == ENOSYS) {
    // No exchange on this file system: between the two renames the target is
    // missing, and the next run restores it from ".NAME.old-PID" if this one dies.
    const fs::path old = sibling(target_, kOld, ::getpid());
    if (std::rename(target_.c_str(), old.c_str()) != 0) throw WriteError(target_, errno);
    if (std::rename(path_.c_str(), target_.c_str()) != 0) {
      const int error = errno;
      std::rename(old.c_str(), target_.c_str());
      throw WriteError(target_, error);
    }
    fs::remove_all(old, ec);
  } else {
    throw WriteError(target_, errno);
  }
  committed_ = true;
  sync_folder(target_.parent_path());
}

FolderLock::FolderLock(const fs::path& dir) {
  std::error_code ec;
  if (!fs::create_directories(dir, ec) && ec) throw WriteError(dir / ".lock", ec.value());
  fd_ = ::open((dir / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw WriteError(dir / ".lock", errno);
  while (::flock(fd_, LOCK_EX) != 0) {
    if (errno != EINTR) {
      const int error = errno;
      ::close(fd_);
      throw WriteError(dir / ".lock", error);
    }
  }
}

FolderLock::~FolderLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace statespace::reports
