// The implicit engine in the analyze pipeline: which engine a request gets
// (--engine explicit|implicit|auto) and the AnalysisResult of an implicit run, equal
// field for field to the explicit engine's (engine name and run facts aside), so the
// same report writers give the same files.
#pragma once

#include <concepts>
#include <optional>
#include <string>

#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// The engine o.engine means on p (never Engine::automatic). automatic takes the
// implicit engine for tiles:RxC, and the sorted-levels one (analysis/engines/levels/sorted_levels.hpp)
// for models whose positions pack into a word, unless something asked for needs the
// explicit graph (graph.dot within o.dot_limit, --all-pairs, --components, a
// --lookup); checkpoints always take the implicit one.
// Throws UsageError for implicit on a model other than
// tiles:RxC, for checkpoints without it, for the explicit graph's extras with it, and
// for a run over the memory budget (an explicit tiles run names the implicit
// engine's need), so that every refusal comes before any work.
template <Puzzle P>
Engine resolve_engine(const P& p, const AnalyzeOptions& o) {
  constexpr bool kTiles = TileGridPuzzle<P>;
  const bool checkpoints = !o.checkpoint.empty() || !o.resume.empty();
  const bool wants_graph = o.all_pairs || o.components || o.lookup.has_value();
  Engine engine = o.engine;
  if (engine == Engine::automatic) {
    const bool implicit = checkpoints || (!wants_graph && reachable_bound(p) > o.dot_limit);
    engine = kTiles && implicit ? Engine::implicit : Engine::explicit_graph;
    const bool levels = !kTiles && !checkpoints && !wants_graph;
    if (levels && packs_into_word(p, resolve_start(p, o))) engine = Engine::levels;
  }
  if (engine == Engine::levels) {
    if (!packs_into_word(p, resolve_start(p, o))) {
      throw UsageError(
          p.name() +
          ": --engine levels needs positions that pack into one 64-bit word, which this puzzle's "
          "do not (permutation files whose moving cells fit, blocks files whose pieces' places fit; use --engine "
          "explicit)");
    }
    if (checkpoints) throw UsageError(p.name() + ": --checkpoint and --resume need the implicit engine (tiles:RxC)");
    if (wants_graph) {
      throw UsageError(p.name() +
                       ": --all-pairs, --components and --lookup need the explicit graph (--engine explicit)");
    }
    return engine;
  }
  const std::uint64_t explicit_need = enumerate_explicit_bytes(p, o.lookup.value_or(default_lookup<P>()));
  if constexpr (kTiles) {
    // Each engine's own refusal, ahead of it; the explicit one names the engine that
    // may fit when nothing asked for the explicit graph's extras.
    if (engine == Engine::implicit && !wants_graph) o.memory.require(implicit_bytes(p), p.name() + ": implicit BFS");
    if (engine == Engine::explicit_graph && !wants_graph && !checkpoints) {
      o.memory.require(explicit_need, p.name() + ": explicit graph",
                       "use --engine implicit, which needs " + with_commas(implicit_bytes(p)) + " bytes");
    }
  }
  if (engine == Engine::explicit_graph) o.memory.require(explicit_need, p.name() + ": explicit graph");
  // The MPI engine (distributed/) is the implicit one over processes: same rules.
  const bool implicit_family = engine == Engine::implicit || engine == Engine::mpi;
  if (implicit_family && !kTiles) {
    throw UsageError(p.name() + ": --engine " + std::string(engine_name(engine)) +
                     " handles the tiles:RxC puzzles only (use --engine explicit)");
  }
  if (checkpoints && !implicit_family) {
    throw UsageError(p.name() + ": --checkpoint and --resume need the implicit engine (--engine implicit, tiles:RxC)");
  }
  if (implicit_family && (o.all_pairs || o.components)) {
    throw UsageError(p.name() + ": --all-pairs and --components need the explicit graph (--engine explicit)");
  }
  if (implicit_family && o.lookup) {
    throw UsageError(p.name() +
                     ": --lookup chooses the explicit engine's visited set; the implicit engine has its own");
  }
  return engine;
}

// Fills everything but the run facts (threads, seconds, peak bytes). With o.resume
// and no o.checkpoint, keeps checkpointing into the resumed folder.
AnalysisResult analyze_implicit(const Tiles& p, const AnalyzeOptions& o);

// The engine options from the analyze ones (with o.resume and no o.checkpoint,
// checkpointing continues into the resumed folder), and the AnalysisResult of an
// implicit run from `start` (for the MPI engine too), run facts aside.
ImplicitOptions implicit_options(const AnalyzeOptions& o);
AnalysisResult implicit_analysis(const Tiles& p, Board start, const ImplicitResult& im, Engine engine);

// The implicit analysis when o's engine resolves to it for p, else nothing.
template <Puzzle P>
std::optional<AnalysisResult> analyze_if_implicit(const P& p, const AnalyzeOptions& o) {
  if constexpr (TileGridPuzzle<P>) {
    if (resolve_engine(p, o) == Engine::implicit) return analyze_implicit(Tiles(p.rows(), p.cols()), o);
  } else {
    (void)resolve_engine(p, o);  // rejects implicit-only options
  }
  return std::nullopt;
}

}  // namespace statespace
