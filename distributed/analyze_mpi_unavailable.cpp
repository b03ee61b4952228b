// The MPI engine's entry points in the programs that link no MPI: the statespace
// binary, the Python module, the benchmarks, and every program of a build without
// MPI (STATESPACE_WITH_MPI=OFF). Compiled twice (distributed/CMakeLists.txt): with
// STATESPACE_MPI_SIBLING, the binary's copy, whose enter_mpi_engine() runs that
// program in its place; without, a copy whose only answer is the refusal.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/errors.hpp"
#include "distributed/analyze_mpi.hpp"
#include "distributed/mpi_collectives.hpp"

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

void require_mpi_engine(const std::string& puzzle) {
  throw UsageError(puzzle +
                   ": --engine mpi: this statespace was built without MPI (install the packages with "
                   "scripts/install-deps.sh and configure with -DSTATESPACE_WITH_MPI=ON)");
}

MpiAnalysis analyze_mpi(const Tiles& p, Board, const AnalyzeOptions&) {
  require_mpi_engine(p.name());
  return {};
}

int mpi_rank() { return 0; }
int mpi_processes() { return 1; }

// One process: what the collectives give when the world is this process alone.
void mpi_sum(std::span<std::uint64_t>) {}
std::vector<std::uint32_t> mpi_exchange(const std::vector<std::vector<std::uint32_t>>& send) { return send.at(0); }
std::vector<std::uint64_t> mpi_gather(std::span<const std::uint64_t> mine, std::uint64_t) {
  return {mine.begin(), mine.end()};
}
void mpi_gather_into(std::span<const std::uint64_t> mine, std::span<std::uint64_t> out, std::uint64_t) {
  std::copy(mine.begin(), mine.end(), out.begin());
}
std::shared_ptr<GoalTable> mpi_gather_table(std::shared_ptr<GoalTable> part, std::uint64_t) { return part; }
void mpi_refuse(const std::string& message) { throw UsageError(message); }

}  // namespace statespace
