// The engines' entry points over every model of puzzles/models.def, compiled once.
// The analyze_<family>.cpp files that analysis/pipeline/CMakeLists.txt writes from
// that list instantiate them for their models (plan_puzzle.cpp choose_engine() for
// all); a file that includes this header before it calls them links those copies
// instead of instantiating the engines again. The engines are nearly all of the code
// a model brings: the test files that call them would otherwise each compile them
// again at -O3 (and again under the sanitizers), 30 to 70 s of compiler time a file.
//
// A model's row in puzzles/models.def says which engines it gets; nothing here names
// a model. The lists are macros so that a declaration and its definition are one
// text: an `extern template` that does not match its definition letter for letter
// would declare a function nothing defines.
#pragma once

#include "analysis/analyze.hpp"
#include "analysis/solve_plan.hpp"
#include "analysis/tables/table_probe.hpp"

// Every model: the explicit engine, the pipeline without the MPI engines (as the
// tests call it), the explicit enumeration alone, `solve`'s plan and search (the
// CLI and the Python module call them; the search is compiled with every visited set),
// and the distance table's probe (query, serve, solve --table and the Python module).
#define STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, P)                                                               \
  EXTERN template SolvePlan<P> plan_solve(const P&, const SolveRequest&);                                         \
  EXTERN template SolveRun<P> run_solve(const P&, const SolveRequest&, const SolvePlan<P>&);                      \
  EXTERN template AnalysisRun<P> analyze_explicit(const P&, const AnalyzeOptions&, const P::State&, bool);        \
  EXTERN template AnalysisRun<P> analyze_explicit(const P&, const AnalyzeOptions&);                               \
  EXTERN template ExplicitSpace<P> enumerate_explicit(const P&, const P::State&, const MemoryBudget&, Progress*,  \
                                                      LookupKind, LookupStats*, BfsResult*);                      \
  EXTERN template AnalysisRun<P> run_analysis(const P&, const AnalyzeOptions&, const AnalysisPlan<P>&, MpiEngine, \
                                              const NoRankedMpi&);                                                \
  EXTERN template class TableProbe<P>

// RankedPuzzle models: the ranked engine.
#define STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, P)                                                    \
  EXTERN template AnalysisResult analyze_ranked(const P&, const AnalyzeOptions&, const P::State&, bool, \
                                                std::optional<CheckpointState>);                        \
  EXTERN template AnalysisResult analyze_ranked(const P&, const AnalyzeOptions&)

// WordPackedPuzzle or WidePackedPuzzle models: the sorted-levels engine, from o's start
// and with each packing the model has.
#define STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, P) \
  EXTERN template AnalysisResult analyze_levels(const P&, const AnalyzeOptions&)
#define STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, P, Packing) \
  EXTERN template AnalysisResult analyze_levels(const P&, const AnalyzeOptions&, const P::State&, const Packing&)

// choose_engine(), defined in plan_puzzle.cpp, which the report-manifest reader links alone.
#define STATESPACE_PLAN_INSTANCES(EXTERN, P) \
  EXTERN template AnalysisPlan<P> choose_engine(const P&, const AnalyzeOptions&)

// The engines a row of puzzles/models.def, STATESPACE_MODEL(family, P, RANKED or
// UNRANKED, packings...), compiles for its model P.
#define STATESPACE_MODEL_INSTANCES(EXTERN, P, ranked, ...) \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, P);             \
  STATESPACE_##ranked##_INSTANCES(EXTERN, P)               \
      __VA_OPT__(STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, P); STATESPACE_PACKINGS_INSTANCES(EXTERN, P, __VA_ARGS__))
#define STATESPACE_RANKED_INSTANCES(EXTERN, P) STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, P);
#define STATESPACE_UNRANKED_INSTANCES(EXTERN, P)
// One packing or two (a third is a preprocessor error: add a step here).
#define STATESPACE_PACKINGS_INSTANCES(EXTERN, P, Packing, ...) \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, P, Packing);     \
  __VA_OPT__(STATESPACE_LAST_PACKING_INSTANCES(EXTERN, P, __VA_ARGS__))
#define STATESPACE_LAST_PACKING_INSTANCES(EXTERN, P, Packing) STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, P, Packing);

namespace statespace {

#define STATESPACE_MODEL(family, P, ...) \
  STATESPACE_PLAN_INSTANCES(extern, P);  \
  STATESPACE_MODEL_INSTANCES(extern, P, __VA_ARGS__)
#include "puzzles/models.def"
#undef STATESPACE_MODEL

}  // namespace statespace
