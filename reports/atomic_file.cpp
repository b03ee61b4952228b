#include "reports/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "core/write_failure.hpp"

namespace statespace::reports {

WriteError::WriteError(const std::filesystem::path& f, int e)
    : std::runtime_error(write_failure(f.string(), e)), file(f), error(e) {}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  std::error_code ec;
  if (path.has_parent_path() && !std::filesystem::create_directories(path.parent_path(), ec) && ec) {
    throw WriteError(path, ec.value());
  }
  const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw WriteError(path, errno);
  // The first failure's errno: the later calls overwrite it.
  int error = 0;
  if (std::fwrite(contents.data(), 1, contents.size(), f) != contents.size()) error = errno;
  if (!error && std::fflush(f) != 0) error = errno;
  if (!error && ::fsync(::fileno(f)) != 0) error = errno;
  if (std::fclose(f) != 0 && !error) error = errno;
  if (!error && std::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    std::filesystem::remove(tmp, ec);
    throw WriteError(path, error);
  }
}

std::vector<std::filesystem::path> prepare_folders(const std::vector<Destination>& destinations) {
  std::vector<std::filesystem::path> created;  // the topmost folder each creation added
  const auto refuse = [&](const Destination& d, const std::string& why) {
    std::error_code ec;
    for (auto it = created.rbegin(); it != created.rend(); ++it) std::filesystem::remove_all(*it, ec);
    throw UsageError("cannot write to " + std::string(d.option) + " " + quote_input(d.folder.string(), 200) + ": " +
                     why + " (expected a folder that can be created and written)");
  };
  for (const auto& d : destinations) {
    const auto& folder = d.folder;
    std::error_code ec;
    std::filesystem::path top;
    for (auto p = std::filesystem::absolute(folder, ec); !p.empty() && !std::filesystem::exists(p, ec);
         p = p.parent_path()) {
      top = p;
      if (p == p.parent_path()) break;
    }
    if (!std::filesystem::create_directories(folder, ec) && ec) refuse(d, ec.message());
    if (!top.empty()) created.push_back(top);
    if (!std::filesystem::is_directory(folder, ec)) refuse(d, "it is not a folder");
    const auto probe = folder / (".statespace-probe.tmp" + std::to_string(::getpid()));
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    const bool ok = f && std::fputc('\n', f) != EOF && std::fflush(f) == 0;
    const int error = errno;
    if (f) std::fclose(f);
    std::filesystem::remove(probe, ec);
    if (!ok) refuse(d, std::strerror(error));
  }
  return created;
}

void check_folder_destination(const Destination& d) {
  std::error_code ec;
  if (std::filesystem::exists(d.folder, ec) && !std::filesystem::is_directory(d.folder, ec)) {
    throw UsageError("cannot write to " + std::string(d.option) + " " + quote_input(d.folder.string(), 200) +
                     ": it is not a folder (expected a folder that can be created and written)");
  }
}

}  // namespace statespace::reports
