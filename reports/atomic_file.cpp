#include "reports/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/temporary_file.hpp"
#include "core/text.hpp"
#include "core/write_failure.hpp"
#include "reports/staging.hpp"

namespace statespace::reports {

WriteError::WriteError(const std::filesystem::path& f, int e)
    : std::runtime_error(write_failure(f.string(), e)), file(f), error(e) {}

PendingFile::PendingFile(const std::filesystem::path& path, std::string_view contents, Sync sync) : path_(path) {
  std::error_code ec;
  if (path.has_parent_path() && !std::filesystem::create_directories(path.parent_path(), ec) && ec) {
    throw WriteError(path, ec.value());
  }
  // A new file at a name nobody else may hold: a link planted at the guessable
  // name is refused rather than followed out of the folder.
  const std::filesystem::path tmp = temporary_beside(path);
  const int fd = create_exclusive(tmp);
  if (fd < 0) throw WriteError(path, errno);
  // The first failure's errno: the later calls overwrite it.
  int error = 0;
  for (std::size_t done = 0; !error && done < contents.size();) {
    const ssize_t k = ::write(fd, contents.data() + done, contents.size() - done);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) error = k < 0 ? errno : EIO;
    if (k > 0) done += std::size_t(k);
  }
  if (!error && sync == Sync::now && !in_own_staging(path) && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (error) {
    std::filesystem::remove(tmp, ec);
    throw WriteError(path, error);
  }
  tmp_ = tmp;
}

PendingFile::PendingFile(PendingFile&& other) noexcept
    : path_(std::move(other.path_)), tmp_(std::exchange(other.tmp_, {})) {}

PendingFile::~PendingFile() {
  std::error_code ec;
  if (!tmp_.empty()) std::filesystem::remove(tmp_, ec);
}

void PendingFile::commit() {
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw WriteError(path_, errno);
  tmp_.clear();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view contents) {
  PendingFile(path, contents).commit();
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
    // Links planted where this run will create files (its temporaries, the lock)
    // are refused now, before any work, rather than when the run reaches them.
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      std::error_code link;
      if (it->is_symlink(link) && (name == ".lock" || pid_after(name, ".tmp") == long(::getpid()))) {
        throw UsageError(planted_refusal(it->path(), "a symbolic link"));
      }
    }
    // A link planted at the probe's name is refused by create_exclusive, naming it.
    const int fd = create_exclusive(probe);
    const int error = fd < 0 || ::write(fd, "\n", 1) != 1 ? errno : 0;
    if (fd >= 0) ::close(fd);
    if (fd >= 0) std::filesystem::remove(probe, ec);
    const bool ok = error == 0;
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
