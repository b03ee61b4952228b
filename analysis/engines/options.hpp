// What one analysis is asked for (AnalyzeOptions) and the engines it may run on:
// shared by every engine and the pipeline that picks one (analysis/analyze.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/runtime/memory.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/puzzle.hpp"
#include "core/text.hpp"

namespace statespace {

// The search methods, one row each in kEngines. The analysis engines: the explicit
// Boost CSR graph, the implicit frontier search over ranks (tiles:RxC), that one over
// MPI processes, the sorted levels of packed words
// (analysis/engines/levels/sorted_levels.hpp), the frontier search over the rank
// bitsets of any ranked model (analysis/engines/ranked/ranked_bfs.hpp), the chain
// moves of a rules file searched by single graded applications
// (analysis/engines/levels/graded_chains.hpp), or the choice the plan functions make
// (choose_engine() in analysis/analyze.hpp, plan_solve() in analysis/solve_plan.hpp,
// plan_generate() in analysis/generate_plan.hpp). The methods that give no report: the
// seeds' breadth-first search from one position and its bidirectional form
// (analysis/solvers/solve.hpp, bidirectional.hpp), IDA* over pattern databases
// (analysis/solvers/ida.hpp) and the rank-space distance table
// (analysis/solvers/distance_table.hpp).
enum class Engine {
  automatic,
  explicit_graph,
  implicit,
  mpi,
  levels,
  ranked,
  chains,
  bfs,
  bidirectional,
  ida,
  rank_space
};

// What a run of a method hands a command: the report of the whole reachable space,
// each position's distance to the goal, or a shortest path from one position.
enum Gives : unsigned { kGivesReport = 1, kGivesDistances = 2, kGivesPath = 4 };

// One row of the engine table: the name (--engine's or --method's spelling, the
// reports' "engine"), what --help says of it, what it needs of a puzzle, what it
// cannot do and what it gives. The --engine parser, analyze's help, the refusals and
// the plan functions read these rows, so a new method is one row here and one branch
// in the plan that runs it.
struct EngineInfo {
  Engine engine;
  std::string_view name;
  std::string_view help;    // one line for analyze --help
  std::string_view needs;   // what the puzzle must be; empty: any puzzle
  std::string_view cannot;  // what it refuses to run with; empty: nothing
  bool in_manifests;        // report manifests run in one process: no MPI
  unsigned gives;           // Gives flags
};

inline constexpr std::array<EngineInfo, 11> kEngines = {{
    {Engine::explicit_graph, "explicit", "the Boost CSR graph of every reachable position", "", "", true,
     kGivesReport | kGivesDistances},
    {Engine::implicit, "implicit", "frontier search over layer bitsets of ranks (1.5 bits a position), no edges stored",
     "the tiles:RxC puzzles", "--all-pairs, --components or --lookup (they need the explicit graph)", true,
     kGivesReport},
    {Engine::mpi, "mpi",
     "the implicit one (tiles:RxC) or the ranked one (other ranked models) over MPI processes: mpirun -np N "
     "statespace analyze ...",
     "the tiles:RxC puzzles or a ranked model",
     "--all-pairs, --components, --lookup, or a report manifest (one process)", false, kGivesReport},
    {Engine::levels, "levels",
     "sorted levels of 64-bit or 128-bit words; the one engine that stops at a depth (--max-depth, --partial)",
     "positions that pack into 64 or 128 bits "
     "(permutation files whose moving cells fit 128, blocks files whose pieces' places fit 64, rules files whose "
     "cells fit 64, .tws and sticker files by their rank)",
     "--all-pairs, --components, --lookup, checkpoints or graph.dot", true, kGivesReport},
    {Engine::ranked, "ranked", "frontier search over bitsets of the rank space (2 bits a rank), no edges stored",
     "a model with a dense rank (the built-in models, graph, .tws and sticker files)",
     "--all-pairs, --components, --lookup or graph.dot", true, kGivesReport},
    {Engine::chains, "chains",
     "chain moves by single applications in layers of equal piece count, each position with its fewest chain "
     "moves and the cells its last ones landed on; no edge counts or distances to the goal",
     "a rules file with moves = \"chain\" whose every single application adds the same number of pieces "
     "(peg solitaire), its positions within 56 bits",
     "--all-pairs, --components, --lookup, checkpoints or graph.dot", true, kGivesReport | kGivesPath},
    {Engine::bfs, "bfs", "forward from the position through a queue and a visited set (seed 003's hex1.c)", "", "",
     false, kGivesPath},
    {Engine::bidirectional, "bidirectional", "from both ends in one queue (hex2.c)", "one goal position",
     "--lookup or a partial goal", false, kGivesPath},
    {Engine::ida, "ida", "IDA* over pattern databases: an optimal path without storing the space",
     "the tiles:RxC puzzles", "--goal", false, kGivesPath | kGivesDistances},
    {Engine::rank_space, "rank-space", "a byte per rank filled level by level, no graph",
     "the tiles:RxC puzzles of up to 12 cells", "", false, kGivesDistances},
    {Engine::automatic, "auto",
     "implicit for tiles:RxC, ranked for other ranked models whose rank space fits --memory, chains for graded "
     "chain moves, levels where positions fit a word, explicit where graph.dot, --all-pairs, --components or "
     "--lookup need the graph",
     "", "", true, kGivesReport | kGivesDistances | kGivesPath},
}};

// What each command needs of the method it runs: its plan function takes only rows
// that give it.
enum class Command { analyze, report, solve, generate };
constexpr unsigned command_needs(Command c) {
  switch (c) {
    case Command::solve:
      return kGivesPath;
    case Command::generate:
      return kGivesDistances;
    case Command::analyze:
    case Command::report:
      break;
  }
  return kGivesReport;
}

// The row of `e`.
constexpr const EngineInfo& engine_info(Engine e) {
  for (const auto& info : kEngines) {
    if (info.engine == e) return info;
  }
  return kEngines.back();
}

// Whether `e` gives what command `c` needs (and, for a report manifest, runs in one process).
constexpr bool serves(Engine e, Command c) {
  const EngineInfo& info = engine_info(e);
  return (info.gives & command_needs(c)) == command_needs(c) && (c != Command::report || info.in_manifests);
}

// "auto", "explicit", "implicit", "mpi", "levels", "ranked", "chains", ...: the
// --engine or --method spelling and the reports' name.
constexpr std::string_view engine_name(Engine e) { return engine_info(e).name; }

// The engines of `analyze` ("explicit, implicit, mpi, levels, ranked, chains, auto"),
// or of another command, for help texts and errors.
inline std::string engine_names(std::string_view separator = ", ", Command command = Command::analyze) {
  std::string out;
  for (const auto& info : kEngines) {
    if (!serves(info.engine, command)) continue;
    if (!out.empty()) out += separator;
    out += info.name;
  }
  return out;
}

// The engine table as analyze --help prints it: one line per engine that analyzes.
inline std::string engine_help() {
  std::string out = "BFS engine, one of:";
  for (const auto& info : kEngines) {
    if (!serves(info.engine, Command::analyze)) continue;
    out += "\n  " + std::string(info.name) + ": " + std::string(info.help);
    if (!info.needs.empty()) out += "; needs " + std::string(info.needs);
    if (!info.cannot.empty()) out += "; not with " + std::string(info.cannot);
  }
  return out;
}

// An analysis engine by its name: --engine's value, a report manifest's engine.
inline Engine parse_engine(std::string_view text) {
  for (const auto& info : kEngines) {
    if (text == info.name && serves(info.engine, Command::analyze)) return info.engine;
  }
  throw ParseError("unknown --engine " + quote_input(text) + " (expected one of: " + engine_names() + ")");
}

struct AnalyzeOptions {
  std::string from;  // start position; empty: the goal
  std::string goal;  // goal position; empty: the model's goal
  bool all_pairs = false;
  std::uint64_t all_pairs_limit = 20'000;  // vertices; brute force is V BFS runs
  bool components = false;
  std::optional<LookupKind> lookup;   // the visited set; none: the model's default_lookup()
  Engine engine = Engine::automatic;  // choose_engine() (analysis/analyze.hpp) decides
  std::uint64_t dot_limit = 300;      // positions up to which the explicit graph is kept, for graph.dot
  bool draw_graph = true;             // graph.dot is written (analyze); report bundles draw none
  MemoryBudget memory;
  std::string checkpoint;       // implicit and ranked engines: write their state here after each level
  double checkpoint_every = 0;  // ...at most once per this many seconds
  std::string resume;           // implicit and ranked engines: continue the run checkpointed here
  std::function<void(std::uint32_t level)> on_checkpoint;  // once each checkpoint is on disk (tests stop runs there)
  bool table = false;  // also the distance to the goal of every position reached (AnalysisResult::table)
  bool progress = true;
  int threads = 1;
  // The first levels of a space too large to finish (the sorted-levels engine):
  // stop once the positions at distance max_depth are found, or (partial) when the
  // next level would not fit the memory budget; the result then says the space was
  // not exhausted (AnalysisResult::complete).
  std::optional<unsigned> max_depth;
  bool partial = false;
};

template <Puzzle P>
typename P::State resolve_start(const P& p, const AnalyzeOptions& o) {
  if (!o.from.empty()) return p.parse(o.from);
  return o.goal.empty() ? p.goal() : p.parse(o.goal);
}

}  // namespace statespace
