// Reports are written whole or not at all: contents go to a temporary file beside
// the target, which is then renamed over it (rename is atomic within a directory).
#pragma once

#include <filesystem>
#include <string_view>

namespace statespace::reports {

// Creates missing parent directories; throws std::runtime_error naming the path on failure.
void write_file_atomically(const std::filesystem::path& path, std::string_view contents);

}  // namespace statespace::reports
