#include "reports/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

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

}  // namespace statespace::reports
