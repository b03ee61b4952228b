// enter_mpi_engine(), compiled twice (distributed/CMakeLists.txt): with
// STATESPACE_MPI_SIBLING, the statespace binary's, which runs that program in its
// place; without, the one of the programs that run the engine (or refuse it) where
// they are.
#include "distributed/enter_mpi_engine.hpp"

#ifdef STATESPACE_MPI_SIBLING
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "core/errors.hpp"
#endif

namespace statespace {

#ifdef STATESPACE_MPI_SIBLING
void enter_mpi_engine() {
  std::error_code ec;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return;
  const std::string sibling = (self.parent_path() / STATESPACE_MPI_SIBLING).string();
  if (::access(sibling.c_str(), X_OK) != 0) return;
  // The arguments exactly as this process got them, NUL-terminated each.
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string line{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<char*> argv;
  for (std::size_t i = 0; i < line.size(); i += std::strlen(line.data() + i) + 1) argv.push_back(line.data() + i);
  argv.push_back(nullptr);
  ::execv(sibling.c_str(), argv.data());
  throw UsageError("--engine mpi: cannot run " + sibling + ": " + std::strerror(errno));
}
#else
void enter_mpi_engine() {}
#endif

}  // namespace statespace
