// The MPI engine's entry point in a build without MPI (STATESPACE_WITH_MPI=OFF).
#include "core/errors.hpp"
#include "distributed/analyze_mpi.hpp"

namespace statespace {

MpiAnalysis analyze_mpi(const Tiles& p, Board, const AnalyzeOptions&) {
  throw UsageError(p.name() +
                   ": --engine mpi: this statespace was built without MPI (install the packages with "
                   "scripts/install-deps.sh and configure with -DSTATESPACE_WITH_MPI=ON)");
}

}  // namespace statespace
