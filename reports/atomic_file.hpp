// Reports are written whole or not at all: contents go to a temporary file beside
// the target, which is then renamed over it (rename is atomic within a directory).
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace statespace::reports {

// A file that could not be written: its path and the errno value, so that a writer
// working in a staging folder can name the file's final place instead.
struct WriteError : std::runtime_error {
  WriteError(const std::filesystem::path& file, int error);
  std::filesystem::path file;
  int error;
};

// Creates missing parent directories; throws WriteError naming the path on failure
// (a full disk and a file size limit by those words) and leaves no temporary behind.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

// A file written whole and synced to its temporary beside `path`, renamed into place
// by commit(): a writer that must change several files at one moment does all the
// slow work first, and then only renames. Throws WriteError as write_file_atomically
// does; the temporary goes unless committed.
class PendingFile {
 public:
  // `deferred`: no fsync of its own, for a file whose rename follows a
  // StagedFolder::commit, which syncs the file system first. A file inside a folder
  // this process stages is never synced alone (in_own_staging).
  enum class Sync { now, deferred };
  PendingFile(const std::filesystem::path& path, std::string_view contents, Sync sync = Sync::now);
  PendingFile(PendingFile&& other) noexcept;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  PendingFile& operator=(PendingFile&&) = delete;
  ~PendingFile();
  void commit();
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_, tmp_;
};

// A folder a run will write to, and the option that named it (for the error).
struct Destination {
  std::filesystem::path folder;
  std::string_view option;
};

// Makes sure every folder can take files before any work starts: creates it with
// its missing parents and writes and removes a probe file in it. On the first
// failure removes the folders it created and throws UsageError naming the folder,
// the option it came from and the reason; on success the folders stay, and the
// topmost folder of each creation is returned, for a refusal found later to undo.
std::vector<std::filesystem::path> prepare_folders(const std::vector<Destination>& destinations);

// Refuses (UsageError, as prepare_folders does) a path that exists but is not a
// folder; creates nothing, for folders that appear whole at the end of a run.
void check_folder_destination(const Destination& destination);

}  // namespace statespace::reports
