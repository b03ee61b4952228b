// What one analysis is asked for (AnalyzeOptions) and the engines it may run on:
// shared by every engine and the pipeline that picks one (analysis/analyze.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/runtime/memory.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"

namespace statespace {

// The BFS engine: the explicit Boost CSR graph, the two-bit implicit BFS over ranks
// (tiles:RxC), that one over MPI processes, the sorted levels of packed words
// (analysis/engines/levels/sorted_levels.hpp), or the choice resolve_engine() makes.
enum class Engine { automatic, explicit_graph, implicit, mpi, levels };

// "auto", "explicit", "implicit", "mpi", "levels": the --engine spelling and the reports' name.
constexpr std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::explicit_graph:
      return "explicit";
    case Engine::implicit:
      return "implicit";
    case Engine::mpi:
      return "mpi";
    case Engine::levels:
      return "levels";
    case Engine::automatic:
      break;
  }
  return "auto";
}

struct AnalyzeOptions {
  std::string from;  // start position; empty: the goal
  std::string goal;  // goal position; empty: the model's goal
  bool all_pairs = false;
  std::uint64_t all_pairs_limit = 20'000;  // vertices; brute force is V BFS runs
  bool components = false;
  std::optional<LookupKind> lookup;   // the visited set; none: the model's default_lookup()
  Engine engine = Engine::automatic;  // resolve_engine() (analysis/engines/implicit/analyze_implicit.hpp) decides
  std::uint64_t dot_limit = 300;      // positions up to which the explicit graph is kept, for graph.dot
  MemoryBudget memory;
  std::string checkpoint;       // implicit engine: write its state here after each level
  double checkpoint_every = 0;  // ...at most once per this many seconds
  std::string resume;           // implicit engine: continue the run checkpointed here
  bool progress = true;
  int threads = 1;
};

template <Puzzle P>
typename P::State resolve_start(const P& p, const AnalyzeOptions& o) {
  if (!o.from.empty()) return p.parse(o.from);
  return o.goal.empty() ? p.goal() : p.parse(o.goal);
}

}  // namespace statespace
