// The MPI engine's entry points in the programs that link no MPI (the statespace
// binary, the Python module, the benchmarks, every program of a build without MPI):
// one process, and --engine mpi refused.
#include <algorithm>

#include "core/errors.hpp"
#include "distributed/analyze_mpi.hpp"
#include "distributed/mpi_collectives.hpp"

namespace statespace {

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
