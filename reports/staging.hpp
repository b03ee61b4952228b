// Folders that appear whole or not at all. A bundle (a puzzle's report folder, an
// article) is written into a staging folder beside its destination and swapped into
// place in one rename at the end, so a kill or a full disk at any moment leaves the
// earlier bundle as it was, never a mix of two runs. What a killed run leaves
// behind (staging folders, temporary files) carries its process id in the name and
// is cleared by the next run that writes beside it.
#pragma once

#include <filesystem>
#include <functional>

namespace statespace::reports {

// The bundle under construction beside `target`, removed unless committed. Creating
// one clears what dead runs left beside `target` and, when a run died between the
// two renames of a commit without RENAME_EXCHANGE, puts the earlier bundle back.
class StagedFolder {
 public:
  explicit StagedFolder(const std::filesystem::path& target);
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;
  ~StagedFolder();

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] const std::filesystem::path& target() const { return target_; }

  // Syncs the file system that holds the staged folder (its files, and any file
  // written without its own fsync beside it, such as PendingFile::Sync::deferred
  // ones), then replaces the target by the staged folder: one atomic exchange where the file
  // system has it (Linux renameat2), else the old bundle is moved aside first.
  // `after_swap` runs as soon as the new bundle is in place, before the earlier one
  // is removed and the folder synced (renames that must follow the swap closely).
  // Throws WriteError naming the target when the rename fails.
  void commit(const std::function<void()>& after_swap = {});

 private:
  std::filesystem::path target_;
  std::filesystem::path path_;
  bool committed_ = false;
};

// Whether `path` lies in a folder this process is staging: its files need no fsync
// of their own, since StagedFolder::commit syncs the file system (one syncfs) before
// the swap, which is what makes a bundle of many files cost one sync, not one each.
[[nodiscard]] bool in_own_staging(const std::filesystem::path& path);

// An exclusive flock on DIR/.lock for the object's lifetime (creating DIR): runs
// writing into one folder take turns, so each sees the bundles of all earlier ones.
class FolderLock {
 public:
  explicit FolderLock(const std::filesystem::path& dir);
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;
  ~FolderLock();

 private:
  int fd_ = -1;
};

// Removes from DIR the temporaries of runs that are no longer alive: staging
// folders, bundles moved aside, and NAME.tmpPID files (write_file_atomically's,
// and prepare_folders' probes).
void clear_stale_temporaries(const std::filesystem::path& dir);

}  // namespace statespace::reports
