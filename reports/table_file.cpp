#include "reports/table_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <string>

#include "core/temporary_file.hpp"
#include "reports/atomic_file.hpp"
#include "reports/staging.hpp"

namespace statespace::reports {

namespace {

// 0 when all `n` bytes were written, else the errno.
int write_all(int fd, const char* p, std::uint64_t n) {
  while (n > 0) {
    const ssize_t k = ::write(fd, p, std::min<std::uint64_t>(n, 1 << 30));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return k < 0 ? errno : EIO;
    p += k;
    n -= std::uint64_t(k);
  }
  return 0;
}

}  // namespace

void write_goal_table(const std::filesystem::path& path, const GoalTable& table) {
  const GoalTableHeader& h = table.header();
  const std::uint64_t words = h.data_words();
  const std::string header = encode_goal_table_header(h, goal_table_checksum(table.words(), words));
  // A new file, never one found at the temporary's name (a link planted there is
  // refused, not written through).
  const std::filesystem::path tmp = temporary_beside(path);
  const int fd = create_exclusive(tmp);
  if (fd < 0) throw WriteError(path, errno);
  int error = write_all(fd, header.data(), header.size());
  if (!error) error = write_all(fd, reinterpret_cast<const char*>(table.words()), words * 8);
  if (!error && !in_own_staging(path) && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  if (!error && std::rename(tmp.c_str(), path.c_str()) != 0) error = errno;
  if (error) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw WriteError(path, error);
  }
}

}  // namespace statespace::reports
