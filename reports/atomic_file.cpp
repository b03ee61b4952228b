#include "reports/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"

namespace statespace::reports {

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  const auto fail = [&](const std::string& what) {
    throw std::runtime_error("cannot write " + path.string() + ": " + what + ": " + std::strerror(errno));
  };
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  const std::filesystem::path tmp = path.string() + ".tmp" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) fail("open");
  const bool written = std::fwrite(contents.data(), 1, contents.size(), f) == contents.size();
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  if (std::fclose(f) != 0 || !written || !flushed) {
    std::filesystem::remove(tmp, ec);
    fail("write");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::filesystem::remove(tmp, ec);
    fail("rename");
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
    const auto probe = folder / (".statespace-probe" + std::to_string(::getpid()) + ".tmp");
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    const bool ok = f && std::fputc('\n', f) != EOF && std::fflush(f) == 0;
    const int error = errno;
    if (f) std::fclose(f);
    std::filesystem::remove(probe, ec);
    if (!ok) refuse(d, std::strerror(error));
  }
  return created;
}

}  // namespace statespace::reports
