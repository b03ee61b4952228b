// The analysis pipeline: one decision and one run per puzzle. choose_engine() takes
// every decision a request needs before any work (the engine, the start, the word
// packing, the memory need, a resumed checkpoint's header) and refuses a request no
// engine can serve; run_analysis() runs the plan. `statespace analyze`, report
// manifests and the MPI processes all go through these two, so an engine is chosen
// in one place and the table of engines (analysis/engines/options.hpp) is the one
// list of what each can do.
//
// The MPI engine lives in distributed/, above this layer: callers that may run it
// (the analyze command) pass its entry point in, the others cannot plan it.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "analysis/engines/directed.hpp"
#include "analysis/engines/explicit/analyze_explicit.hpp"
#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/implicit/analyze_implicit.hpp"
#include "analysis/engines/implicit/implicit_bfs.hpp"
#include "analysis/engines/levels/analyze_chains.hpp"
#include "analysis/engines/levels/analyze_levels.hpp"
#include "analysis/engines/levels/sorted_levels.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/engines/ranked/analyze_ranked.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "analysis/tables/explicit_table.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

namespace detail {
// P's word codec (P::Packing) or 128-bit one (P::WidePacking), when P has it.
template <class P, bool kWide>
struct PackingOf {
  using type = std::monostate;
};
template <WordPackedPuzzle P>
struct PackingOf<P, false> {
  using type = typename P::Packing;
};
template <WidePackedPuzzle P>
struct PackingOf<P, true> {
  using type = typename P::WidePacking;
};
}  // namespace detail

// What choose_engine() decided for one puzzle, and what it computed on the way.
template <Puzzle P>
struct AnalysisPlan {
  Engine engine = Engine::explicit_graph;  // never Engine::automatic
  Engine asked = Engine::automatic;        // the request's engine
  typename P::State start{};
  std::optional<typename detail::PackingOf<P, false>::type> packing;  // levels: the codec of start's positions
  std::optional<typename detail::PackingOf<P, true>::type>
      wide_packing;                        // levels, 128-bit words: when packing has none
  std::optional<CheckpointState> resumed;  // implicit, ranked --resume: the header, checked
  // Auto on a space whose size the run finds out (levels, chains, ranked): when the run
  // finds at most this many positions, the explicit engine analyzes the space as auto
  // would have from the start (the picture fits graph.dot), and its result, with its
  // own engine name, is the report. None: engine's result is the report.
  std::optional<std::uint64_t> explicit_within;
};

// One plan per model of the registry, as AnyPuzzle holds one model.
template <class Models>
struct PlanOf;
template <class... P>
struct PlanOf<std::variant<P...>> {
  using type = std::variant<AnalysisPlan<P>...>;
};
using AnyPlan = PlanOf<AnyPuzzle>::type;

// Whether p counts its positions up to symmetry, each state standing for its class.
template <Puzzle P>
[[nodiscard]] bool up_to_symmetry(const P& p) {
  if constexpr (OrbitCountingPuzzle<P>) {
    return p.symmetries() > 1;
  } else {
    return false;
  }
}

// How far over the memory budget the ranked engine may need for auto to refuse
// rather than try the sorted levels (choose_engine).
inline constexpr std::uint64_t kRankedOverBudget = 4;

// The engine o.engine means on p and everything it needs. Automatic takes the
// implicit engine for tiles:RxC, the ranked one for other ranked models whose two
// rank bitsets fit o.memory (refusing, before any work, one whose need is within
// kRankedOverBudget times the budget), and the sorted-levels one for models whose positions
// pack into a word (the graded-chain one when those are chain moves made of graded
// single applications), unless something asked for needs the explicit graph (graph.dot
// within o.dot_limit, --all-pairs, --components, a --lookup); checkpoints take the
// implicit one on tiles:RxC and the ranked one elsewhere. A space known in advance (BoundedPuzzle, ranked models) to
// fit o.dot_limit takes the explicit engine at once; one found small only by the run is analyzed again by the explicit
// engine (AnalysisPlan::explicit_within). Throws UsageError for an engine the puzzle or the request does not suit
// (engine_info's needs and cannot) and for a run over the memory budget (an explicit tiles run names the implicit
// engine's need), so that every refusal comes before any work.
template <Puzzle P>
AnalysisPlan<P> choose_engine(const P& p, const AnalyzeOptions& o) {
  constexpr bool kTiles = TileGridPuzzle<P>;
  refuse_undirected_only(p, o);
  AnalysisPlan<P> plan;
  plan.asked = o.engine;
  plan.start = resolve_start(p, o);
  const bool checkpoints = !o.checkpoint.empty() || !o.resume.empty();
  const bool wants_graph = o.all_pairs || o.components || o.lookup.has_value();
  const auto packs = [&] {
    if constexpr (WordPackedPuzzle<P>) {
      if (!plan.packing) plan.packing = p.packing(plan.start);
    }
    if constexpr (WidePackedPuzzle<P>) {
      if (!plan.packing && !plan.wide_packing) plan.wide_packing = p.wide_packing(plan.start);
    }
    return plan.packing.has_value() || plan.wide_packing.has_value();
  };
  // Chain moves that are runs of graded single applications (peg solitaire's).
  const auto chain_graded = [&] {
    if constexpr (WordPackedPuzzle<P>) {
      if constexpr (GradedChainPacking<typename P::Packing>)
        return packs() && plan.packing && plan.packing->chain_graded();
    }
    return false;
  };
  Engine engine = o.engine;
  // The first levels of a space: only the sorted-levels engine stops at a depth.
  const bool stops_short = o.max_depth.has_value() || o.partial;
  if (stops_short) {
    if (engine != Engine::automatic && engine != Engine::levels) {
      throw UsageError(p.name() + ": --max-depth and --partial run on the sorted-levels engine, not --engine " +
                       std::string(engine_name(engine)) + " (use --engine levels or auto)");
    }
    if (!packs()) {
      throw UsageError(p.name() + ": --max-depth and --partial run on the sorted-levels engine, which needs " +
                       std::string(engine_info(Engine::levels).needs) + "; this puzzle's positions do not");
    }
    engine = Engine::levels;
  }
  if (engine == Engine::automatic) {
    const std::uint64_t bound = reachable_bound(p);
    // A table (--table) needs an engine that writes one, even for a space graph.dot could draw.
    const bool implicit = checkpoints || o.table || (!wants_graph && bound > o.dot_limit);
    engine = kTiles && implicit ? Engine::implicit : Engine::explicit_graph;
    const bool levels = !kTiles && !checkpoints && !wants_graph;
    const bool fits_picture = bound != 0 && bound <= o.dot_limit;
    bool ranked = false;
    if constexpr (RankedPuzzle<P>) {
      // Checkpoints outweigh the picture: a small space found so gets its graph afterwards.
      if (!kTiles && !wants_graph && (checkpoints || o.table || !fits_picture) && ranked_engine_fits(p) &&
          !up_to_symmetry(p)) {
        const std::uint64_t need = ranked_bytes(p, o);
        ranked = need <= o.memory.bytes();
        // Within kRankedOverBudget times the budget the sorted levels could fit only
        // if their three levels held under 1/128 of the rank space (8 bytes a
        // position against 2 bits a rank), which a dense rank never gives: the
        // refusal comes now, with the budget that runs the ranked engine, rather
        // than from the levels engine once its levels outgrow the budget.
        if (!ranked && need / kRankedOverBudget <= o.memory.bytes()) {
          o.memory.require(need, p.name() + ": ranked BFS", "--engine levels to try the sorted levels anyway");
        }
      }
    }
    if (ranked) {
      engine = Engine::ranked;
    } else if (levels && (o.table || !fits_picture) && packs()) {
      engine = chain_graded() ? Engine::chains : Engine::levels;
    }
    // A table (--table) is the first run's: no explicit run replaces it.
    if (!o.table && (engine == Engine::ranked || engine == Engine::levels || engine == Engine::chains)) {
      plan.explicit_within = o.dot_limit;
    }
  }
  plan.engine = engine;
  const EngineInfo& info = engine_info(engine);
  const std::string named = p.name() + ": --engine " + std::string(info.name);
  const std::string checkpoint_engines =
      ": --checkpoint and --resume need the implicit engine (tiles:RxC) or the ranked one (--engine ranked)";
  // The engines without a graph: levels, chains, and ranked (also over MPI).
  const auto refuse_graph = [&] {
    if (wants_graph) {
      throw UsageError(p.name() +
                       ": --all-pairs, --components and --lookup need the explicit graph (--engine explicit)");
    }
  };
  if (engine == Engine::levels || engine == Engine::chains) {
    const bool chains = engine == Engine::chains;
    if (chains ? !chain_graded() : !packs()) {
      throw UsageError(named + " needs " + std::string(info.needs) +
                       (chains ? ", which this puzzle is not (use --engine levels or explicit)"
                               : ", which this puzzle's do not (use --engine explicit)"));
    }
    if (checkpoints) throw UsageError(p.name() + checkpoint_engines);
    refuse_graph();
    return plan;
  }
  // On a ranked model other than tiles:RxC the MPI engine is the ranked one over
  // processes, which checks each process's share of the memory itself.
  if (engine == Engine::ranked || (engine == Engine::mpi && !kTiles)) {
    if constexpr (RankedPuzzle<P>) {
      // The ranked engine walks positions by their ranks, never classes.
      if (up_to_symmetry(p)) {
        throw UsageError(named +
                         " counts positions one by one, not up to symmetry (use --engine levels or "
                         "explicit, or leave out --symmetry)");
      }
      if (!ranked_engine_fits(p)) {
        throw UsageError(named + " needs at most " + std::to_string(ranked_detail::kMostMoves) +
                         " moves from a position (use --engine explicit)");
      }
      // The MPI processes keep no checkpoints of the ranked search.
      if (checkpoints && engine == Engine::mpi) {
        throw UsageError(p.name() +
                         ": --checkpoint and --resume under --engine mpi need tiles:RxC (use --engine "
                         "ranked for checkpoints on one machine)");
      }
      refuse_graph();
      if (engine == Engine::ranked) o.memory.require(ranked_bytes(p, o), p.name() + ": ranked BFS");
      if (engine == Engine::ranked && !o.resume.empty()) plan.resumed = ranked_resumed_header(p, o, plan.start);
      return plan;
    } else if (engine == Engine::ranked) {
      throw UsageError(named + " needs " + std::string(info.needs) +
                       ", which this puzzle is not (use --engine explicit)");
    }
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
  // The MPI engine is the implicit one over processes: same rules.
  const bool implicit_family = engine == Engine::implicit || engine == Engine::mpi;
  if (implicit_family && !kTiles) {
    throw UsageError(named + " handles " + std::string(info.needs) + " only (use --engine explicit)");
  }
  if (checkpoints && !implicit_family) throw UsageError(p.name() + checkpoint_engines);
  if (implicit_family && (o.all_pairs || o.components)) {
    throw UsageError(p.name() + ": --all-pairs and --components need the explicit graph (--engine explicit)");
  }
  if (implicit_family && o.lookup) {
    throw UsageError(p.name() +
                     ": --lookup chooses the explicit engine's visited set; the implicit engine has its own");
  }
  // The MPI engine keeps one checkpoint per process and checks them itself.
  if (engine == Engine::implicit && !o.resume.empty()) {
    plan.resumed = read_checkpoint_header(o.resume);
    require_checkpoint_of(*plan.resumed, o.resume, p.name(), p.format(plan.start));
  }
  return plan;
}

// An MPI run's result; only rank 0 holds the farthest positions and writes reports.
struct MpiAnalysis {
  AnalysisResult result;
  bool writes_reports = false;
};

// The MPI engine's entry point (distributed/analyze_mpi.hpp): the analysis of p from
// `start` over every process.
using MpiEngine = MpiAnalysis (*)(const Tiles& p, Board start, const AnalyzeOptions& o);

// The MPI engine of the other ranked models (distributed/ranked_mpi.hpp), a callable
// taking (p, start, o) for any RankedPuzzle; NoRankedMpi where the caller has none.
struct NoRankedMpi {};

namespace detail {

// The explicit engine's analysis of a space plan's first run found within
// plan.explicit_within positions (see AnalysisPlan), or `run` as it is.
template <Puzzle P>
AnalysisRun<P> small_space_explicit(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan,
                                    AnalysisRun<P> run) {
  if (!plan.explicit_within || run.result.states > *plan.explicit_within || !run.result.complete) return run;
  return analyze_explicit(p, o, plan.start, false);
}

}  // namespace detail

// Runs `plan` (choose_engine(p, o)): everything but the run facts (threads, seconds,
// peak bytes). The explicit engine keeps its graph only when an output needs it.
// When the plan names a size below which the explicit engine analyzes the space
// (AnalysisPlan::explicit_within), a run that finds so few positions is followed by
// the explicit engine's, whose result is returned.
template <Puzzle P, class RankedMpi = NoRankedMpi>
AnalysisRun<P> run_analysis(const P& p, const AnalyzeOptions& o, const AnalysisPlan<P>& plan, MpiEngine mpi = nullptr,
                            const RankedMpi& ranked_mpi = {}) {
  AnalysisRun<P> run;
  switch (plan.engine) {
    case Engine::mpi:
      if constexpr (RankedPuzzle<P> && !TileGridPuzzle<P>) {
        if constexpr (std::is_same_v<RankedMpi, NoRankedMpi>) {
          throw UsageError(p.name() + ": --engine mpi runs from the analyze command only (" +
                           std::string(engine_info(Engine::mpi).help) + ")");
        } else {
          MpiAnalysis m = ranked_mpi(p, plan.start, o);
          run.result = std::move(m.result);
          run.writes_reports = m.writes_reports;
          return run;
        }
      }
      if constexpr (TileGridPuzzle<P>) {
        if (!mpi) {
          throw UsageError(p.name() + ": --engine mpi runs from the analyze command only (" +
                           std::string(engine_info(Engine::mpi).help) + ")");
        }
        MpiAnalysis m = mpi(Tiles(p.rows(), p.cols()), plan.start, o);
        run.result = std::move(m.result);
        run.writes_reports = m.writes_reports;
        return run;
      }
      break;
    case Engine::implicit:
      if constexpr (TileGridPuzzle<P>) {
        const Tiles tiles(p.rows(), p.cols());
        ImplicitOptions io = implicit_options(o);
        io.memory_checked = true;
        io.resumed = plan.resumed;
        run.result = implicit_run(tiles, plan.start, o, std::move(io));
        return run;
      }
      break;
    case Engine::levels:
      if constexpr (WordPackedPuzzle<P> || WidePackedPuzzle<P>) {
        if constexpr (WordPackedPuzzle<P>) {
          if (plan.packing) run.result = analyze_levels(p, o, plan.start, *plan.packing);
        }
        if constexpr (WidePackedPuzzle<P>) {
          if (plan.wide_packing) run.result = analyze_levels(p, o, plan.start, *plan.wide_packing);
        }
        return detail::small_space_explicit(p, o, plan, std::move(run));
      }
      break;
    case Engine::chains:
      if constexpr (WordPackedPuzzle<P>) {
        if constexpr (GradedChainPacking<typename P::Packing>) {
          run.result = analyze_graded_chains(p, o, plan.start, *plan.packing);
          return detail::small_space_explicit(p, o, plan, std::move(run));
        }
      }
      break;
    case Engine::ranked:
      if constexpr (RankedPuzzle<P>) {
        run.result = analyze_ranked(p, o, plan.start, true, plan.resumed);
        return detail::small_space_explicit(p, o, plan, std::move(run));
      }
      break;
    case Engine::explicit_graph: {
      AnalysisRun<P> enumerated = analyze_explicit(p, o, plan.start, false);
      if (o.table && explicit_table_indexable(p, plan.start)) {
        enumerated.result.table = explicit_run_table(p, enumerated, plan.start, o.progress);
      }
      return enumerated;
    }
    case Engine::automatic:
    case Engine::bfs:
    case Engine::bidirectional:
    case Engine::ida:
    case Engine::rank_space:
      break;
  }
  throw std::logic_error(p.name() + ": no engine runs the plan for --engine " + std::string(engine_name(plan.engine)));
}

}  // namespace statespace
