#include "distributed/analyze_mpi.hpp"

#include "distributed/mpi_bfs.hpp"

namespace statespace {

MpiAnalysis analyze_mpi(const Tiles& p, Board start, const AnalyzeOptions& o) {
  const MpiResult m = mpi_bfs(p, start, implicit_options(o));
  return {implicit_analysis(p, start, m.bfs, Engine::mpi), mpi_rank() == 0};
}

}  // namespace statespace
