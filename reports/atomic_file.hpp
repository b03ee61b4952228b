// Reports are written whole or not at all: contents go to a temporary file beside
// the target, which is then renamed over it (rename is atomic within a directory).
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

namespace statespace::reports {

// Creates missing parent directories; throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

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

}  // namespace statespace::reports
