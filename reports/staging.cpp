#include "reports/staging.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "core/errors.hpp"
#include "core/temporary_file.hpp"
#include "reports/atomic_file.hpp"

namespace statespace::reports {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kStaging = ".staging-";
constexpr std::string_view kOld = ".old-";

fs::path sibling(const fs::path& target, std::string_view marker, long pid) {
  std::string name(".");
  name += target.filename().string();
  name += marker;
  name += std::to_string(pid);
  return target.parent_path() / name;
}

// fsync on the folder, so that a rename in it reaches the disk before the run ends.
void sync_folder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

// syncfs on the file system holding `dir`: every file written there reaches the
// disk in one call, however many there are.
void sync_file_system(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::syncfs(fd);
  ::close(fd);
}

}  // namespace

bool in_own_staging(const fs::path& path) {
  const long pid = ::getpid();
  for (const auto& part : path.parent_path()) {
    const std::string name = part.string();
    if (name.starts_with(".") && pid_after(name, kStaging) == pid) return true;
  }
  return false;
}

void clear_stale_temporaries(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path entry = it->path();
    const std::string name = entry.filename().string();
    for (const auto marker : {kOld, kStaging}) {
      const auto pid = name.starts_with(".") ? pid_after(name, marker) : std::nullopt;
      if (!pid || process_alive(*pid)) continue;
      // ".NAME.old-PID" is the earlier bundle, moved aside by a commit that died
      // before its second rename: when NAME is missing it is the bundle to keep.
      const fs::path target = dir / name.substr(1, name.rfind(marker) - 1);
      std::error_code gone;
      if (marker == kOld && !fs::exists(fs::symlink_status(target, gone)) &&
          fs::is_directory(fs::symlink_status(entry, gone))) {
        fs::rename(entry, target, gone);
        if (!gone) break;
      }
      fs::remove_all(entry, gone);
      break;
    }
  }
  remove_stale_temporaries(dir);
}

StagedFolder::StagedFolder(const fs::path& target) : target_(target), path_(sibling(target, kStaging, ::getpid())) {
  std::error_code ec;
  const fs::path parent = target.parent_path();
  if (!fs::create_directories(parent, ec) && ec) throw WriteError(target, ec.value());
  clear_stale_temporaries(parent);
  fs::remove_all(path_, ec);  // a link there goes, not what it points to
  // mkdir itself, not create_directory: that one accepts a link to a folder found
  // at the name, and the bundle would be written wherever it points.
  if (::mkdir(path_.c_str(), 0755) != 0) {
    if (errno == EEXIST) throw UsageError(planted_refusal(path_, "a file that keeps coming back"));
    throw WriteError(target, errno);
  }
}

StagedFolder::~StagedFolder() {
  std::error_code ec;
  if (!committed_) fs::remove_all(path_, ec);
}

void StagedFolder::commit(const std::function<void()>& after_swap) {
  sync_file_system(path_);
  std::error_code ec;
  // The new bundle is in place and `earlier` (if any) holds the one it replaced.
  const auto swapped = [&](const fs::path& earlier) {
    committed_ = true;
    try {
      if (after_swap) after_swap();
    } catch (...) {
      if (!earlier.empty()) fs::remove_all(earlier, ec);
      throw;
    }
    if (!earlier.empty()) fs::remove_all(earlier, ec);
  };
  if (!fs::exists(target_, ec)) {
    if (std::rename(path_.c_str(), target_.c_str()) != 0) throw WriteError(target_, errno);
    swapped({});
  } else if (::renameat2(AT_FDCWD, path_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) == 0) {
    swapped(path_);  // the staging folder's name now holds the earlier bundle
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
    swapped(old);
  } else {
    throw WriteError(target_, errno);
  }
  sync_folder(target_.parent_path());
}

FolderLock::FolderLock(const fs::path& dir) {
  std::error_code ec;
  if (!fs::create_directories(dir, ec) && ec) throw WriteError(dir / ".lock", ec.value());
  fd_ = open_no_follow(dir / ".lock");  // a link planted there would create its target
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
