// Which engines write a distance table (analyze --table), decided with the plan and
// before any work: the implicit engine on tiles:RxC and the ranked engine (each on
// one process or over MPI), the sorted-levels engine on 64- and 128-bit words, the
// graded-chain engine on 64-bit words and the explicit engine on models with a rank
// or 64-bit words write one; the other engines, and a
// directed model that cannot list a position's predecessors, are refused with the
// reason, as an engine that cannot give a view says so (AnalysisResult::unavailable).
#pragma once

#include <string>

#include "analysis/analyze.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/tables/explicit_table.hpp"
#include "core/errors.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// Bytes a table over p's indices takes in memory while the engine fills it.
template <Puzzle P>
std::uint64_t goal_table_bytes(const P& p, Engine engine) {
  if constexpr (TileGridPuzzle<P>) {
    // Over MPI, rank 0 holds the whole table as it gathers the processes' parts.
    if (engine == Engine::implicit || engine == Engine::mpi) {
      return GoalTable::bytes(p.rank_space() / 2, TableEncoding::two_bits);
    }
  }
  if constexpr (RankedPuzzle<P>) {
    return GoalTable::bytes(p.rank_space(), is_directed(p) ? TableEncoding::byte : TableEncoding::two_bits);
  }
  return 0;
}

// Throws UsageError unless plan's engine writes p's table; checks the memory the
// engine and the table need together.
template <Puzzle P>
void require_table_engine(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan) {
  if (!o.table) return;
  const std::string engine(engine_name(plan.engine));
  const auto refuse = [&](const std::string& why) {
    throw UsageError(p.name() + ": --table: " + why +
                     " (tables index positions by the implicit engine's tile classes, a model's dense rank or "
                     "positions packed into words: 64 bits, or 128 by the levels engine)");
  };
  if constexpr (DirectedPuzzle<P>) {
    if constexpr (!ReversiblePuzzle<P>) {
      if (is_directed(p)) refuse("the distance to the goal is not available: " + no_predecessors_reason());
    }
  }
  if (plan.engine != Engine::implicit && plan.engine != Engine::ranked && plan.engine != Engine::levels &&
      plan.engine != Engine::chains && plan.engine != Engine::explicit_graph && plan.engine != Engine::mpi) {
    refuse("the " + engine + " engine writes no table");
  }
  if (plan.engine == Engine::explicit_graph && !explicit_table_indexable(p, plan.start)) {
    refuse("positions with neither a dense rank nor a packing into 64 bits have no table index");
  }
  std::uint64_t need = goal_table_bytes(p, plan.engine);
  if constexpr (TileGridPuzzle<P>) {
    if (plan.engine == Engine::implicit) need += implicit_bytes(Tiles(p.rows(), p.cols()));
  }
  if constexpr (RankedPuzzle<P>) {
    if (plan.engine == Engine::ranked) need += ranked_bytes(p);
  }
  o.memory.require(need, p.name() + ": " + engine + " BFS with its distance table");
}

}  // namespace statespace
