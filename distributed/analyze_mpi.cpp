#include "distributed/analyze_mpi.hpp"

#include <memory>
#include <numeric>

#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "distributed/mpi_bfs.hpp"
#include "distributed/mpi_collectives.hpp"

namespace statespace {

MpiAnalysis analyze_mpi(const Tiles& p, Board start, const AnalyzeOptions& o) {
  ImplicitOptions io = implicit_options(o);
  // As the implicit engine: the search from the goal fills the table as it goes,
  // one from elsewhere or a resumed one is followed by a search from the goal for
  // the table alone. Each process fills the part over its own sequences, and rank 0
  // gathers the parts into the one-process engine's table.
  std::shared_ptr<GoalTable> table;
  std::uint64_t whole = 0;
  const bool from_goal = start == p.goal() && io.resume.empty();
  if (o.table) {
    GoalTableHeader h = tiles_table_header(p);
    whole = h.entries;
    h.entries = mpi_table_entries(p, mpi_processes(), mpi_rank());
    table = std::make_shared<GoalTable>(std::move(h));
    if (from_goal) io.table = table.get();
  }
  const MpiResult m = mpi_bfs(p, start, io);
  MpiAnalysis a{implicit_analysis(p, start, m.bfs, Engine::mpi), mpi_rank() == 0};
  if (!table) return a;
  std::vector<std::uint64_t> layers = m.bfs.layers;
  if (!from_goal) {
    ImplicitOptions again;
    again.memory = o.memory;
    again.progress = o.progress;
    again.table = table.get();
    layers = mpi_bfs(p, p.goal(), again).bfs.layers;
  }
  GoalTableHeader& h = table->header();
  h.reached = std::accumulate(layers.begin(), layers.end(), std::uint64_t{0});
  h.layers = std::move(layers);
  a.result.table = mpi_gather_table(std::move(table), whole);
  return a;
}

}  // namespace statespace
