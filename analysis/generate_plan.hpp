// The sliding-tile commands planned the way analyze is (analysis/analyze.hpp):
// plan_generate() decides where `generate` takes its problems' distances from, among
// the engine table's rows that give distances, and plan_partition() which pattern
// databases the optimal solver (solve --method ida, generate past 12 cells, pdb)
// builds. The commands parse, print and run what these decide.
#pragma once

#include <optional>
#include <string>

#include "analysis/engines/options.hpp"
#include "analysis/runtime/memory.hpp"
#include "analysis/solvers/distance_table.hpp"
#include "analysis/solvers/pdb.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// What generate is asked for, as the command line gave it.
struct GenerateRequest {
  bool by_distance = false;  // --distance, --min or --max: exact difficulty
  bool compare = false;      // --compare: the true distribution against the methods'
  bool csv = false;          // --format csv: a distance column
};

// Where generate's distances come from. `distances`: explicit_graph or rank_space, a
// distance table (TableEngine); ida, each problem solved optimally; automatic, none
// (plain problems need no distance).
struct GeneratePlan {
  Engine distances = Engine::automatic;
  bool required = true;  // false: a table that cannot be built leaves the csv column empty

  [[nodiscard]] bool table() const { return distances == Engine::explicit_graph || distances == Engine::rank_space; }
  [[nodiscard]] TableEngine table_engine() const {
    return distances == Engine::explicit_graph ? TableEngine::kExplicit : TableEngine::kRankSpace;
  }
};

// The table engine of t: the explicit graph up to DistanceTable::kExplicitMaxCells
// cells, where it is quick; past it the graph would take tens of GB where the
// rank-space table takes one byte a rank.
inline TableEngine distance_table_engine(const Tiles& t) {
  return t.cells() <= DistanceTable::kExplicitMaxCells ? TableEngine::kExplicit : TableEngine::kRankSpace;
}

// Exact difficulty and --compare need a table (past DistanceTable::kMaxCells, exact
// difficulty solves each problem optimally instead, and --compare is refused by the
// table's build); a csv column takes a table when the board has one and it fits,
// else stays empty; plain problems need nothing.
inline GeneratePlan plan_generate(const Tiles& t, const GenerateRequest& r) {
  static_assert(command_needs(Command::generate) == kGivesDistances);
  GeneratePlan plan;
  const bool wants = r.by_distance || r.compare || r.csv;
  if (!wants) return plan;
  if (!distance_table_supported(t) && !r.compare) {
    plan.distances = Engine::ida;
    return plan;
  }
  plan.distances = distance_table_engine(t) == TableEngine::kExplicit ? Engine::explicit_graph : Engine::rank_space;
  plan.required = r.by_distance || r.compare;
  return plan;
}

// The pattern databases the optimal solver builds: the partition asked for (its build
// checked against `budget`), else the first standard one that fits. `larger` names
// the standard partition a larger budget would allow when the choice is not it.
struct PartitionPlan {
  Partition partition;
  std::optional<Partition> larger;
};

inline PartitionPlan plan_partition(const Tiles& t, const std::string& asked, const MemoryBudget& budget) {
  PartitionPlan plan;
  if (!asked.empty()) {
    plan.partition = parse_partition(t, asked);
    budget.require(partition_build_bytes(t, plan.partition), t.name() + ": pattern databases " + plan.partition.name);
    return plan;
  }
  plan.partition = choose_partition(t, budget);
  const auto all = standard_partitions(t);
  if (plan.partition.name != all.front().name) plan.larger = all.front();
  return plan;
}

}  // namespace statespace
