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

// The BFS engine: the explicit Boost CSR graph, the implicit frontier search over ranks
// (tiles:RxC), that one over MPI processes, the sorted levels of packed words
// (analysis/engines/levels/sorted_levels.hpp), the frontier search over the rank
// bitsets of any ranked model (analysis/engines/ranked/ranked_bfs.hpp), the chain
// moves of a rules file searched by single graded applications
// (analysis/engines/levels/graded_chains.hpp), or the choice choose_engine()
// (analysis/analyze.hpp) makes.
enum class Engine { automatic, explicit_graph, implicit, mpi, levels, ranked, chains };

// One row of the engine table: the --engine spelling (also the reports' "engine"),
// what --help says of it, what it needs of a puzzle and what it cannot do. The
// --engine parser, analyze's help and the refusals read these rows, so a new engine
// is one row here and one branch in run_analysis().
struct EngineInfo {
  Engine engine;
  std::string_view name;
  std::string_view help;    // one line for analyze --help
  std::string_view needs;   // what the puzzle must be; empty: any puzzle
  std::string_view cannot;  // what it refuses to run with; empty: nothing
  bool in_manifests;        // report manifests run in one process: no MPI
};

inline constexpr std::array<EngineInfo, 7> kEngines = {{
    {Engine::explicit_graph, "explicit", "the Boost CSR graph of every reachable position", "", "", true},
    {Engine::implicit, "implicit", "frontier search over layer bitsets of ranks (1.5 bits a position), no edges stored",
     "the tiles:RxC puzzles", "--all-pairs, --components or --lookup (they need the explicit graph)", true},
    {Engine::mpi, "mpi",
     "the implicit one (tiles:RxC) or the ranked one (other ranked models) over MPI processes: mpirun -np N "
     "statespace analyze ...",
     "the tiles:RxC puzzles or a ranked model",
     "--all-pairs, --components, --lookup, or a report manifest (one process)", false},
    {Engine::levels, "levels",
     "sorted levels of 64-bit or 128-bit words; the one engine that stops at a depth (--max-depth, --partial)",
     "positions that pack into 64 or 128 bits "
     "(permutation files whose moving cells fit 128, blocks files whose pieces' places fit 64)",
     "--all-pairs, --components, --lookup, checkpoints or graph.dot", true},
    {Engine::ranked, "ranked", "frontier search over bitsets of the rank space (3 bits a rank), no edges stored",
     "a model with a dense rank (the built-in models, graph files)", "--all-pairs, --components, --lookup or graph.dot",
     true},
    {Engine::chains, "chains",
     "chain moves by single applications in layers of equal piece count, each position with its fewest chain "
     "moves and the cells its last ones landed on; no edge counts or distances to the goal",
     "a rules file with moves = \"chain\" whose every single application adds the same number of pieces "
     "(peg solitaire), its positions within 56 bits",
     "--all-pairs, --components, --lookup, checkpoints or graph.dot", true},
    {Engine::automatic, "auto",
     "implicit for tiles:RxC, ranked for other ranked models whose rank space fits --memory, chains for graded "
     "chain moves, levels where positions fit a word, explicit where graph.dot, --all-pairs, --components or "
     "--lookup need the graph",
     "", "", true},
}};

// The row of `e`.
constexpr const EngineInfo& engine_info(Engine e) {
  for (const auto& info : kEngines) {
    if (info.engine == e) return info;
  }
  return kEngines.back();
}

// "auto", "explicit", "implicit", "mpi", "levels", "ranked", "chains": the --engine spelling and the reports' name.
constexpr std::string_view engine_name(Engine e) { return engine_info(e).name; }

// "explicit, implicit, mpi, levels, ranked, chains, auto", for help texts and errors.
inline std::string engine_names(std::string_view separator = ", ") {
  std::string out;
  for (const auto& info : kEngines) {
    if (!out.empty()) out += separator;
    out += info.name;
  }
  return out;
}

// The engine table as analyze --help prints it: one line per engine.
inline std::string engine_help() {
  std::string out = "BFS engine, one of:";
  for (const auto& info : kEngines) {
    out += "\n  " + std::string(info.name) + ": " + std::string(info.help);
    if (!info.needs.empty()) out += "; needs " + std::string(info.needs);
    if (!info.cannot.empty()) out += "; not with " + std::string(info.cannot);
  }
  return out;
}

// An engine by its name: --engine's value, a report manifest's engine.
inline Engine parse_engine(std::string_view text) {
  for (const auto& info : kEngines) {
    if (text == info.name) return info.engine;
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
