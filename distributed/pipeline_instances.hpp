// The engines' entry points over every model of the registry, compiled once.
// analyze_<family>.cpp instantiates them for its models (plan_puzzle.cpp
// choose_engine() for all); a file that includes this header before it calls them
// links those copies instead of instantiating the engines again. The engines are
// nearly all of the code a model brings: the test files that call them would
// otherwise each compile them again at -O3 (and again under the sanitizers), 30 to
// 70 s of compiler time a file.
//
// A model added to AnyPuzzle gets a line in each list below that fits it and the same
// lines, without `extern`, in its analyze_<family>.cpp; a missing definition fails
// the link. The lists are macros so that a declaration and its definition are one
// text: an `extern template` that does not match its definition letter for letter
// would declare a function nothing defines.
#pragma once

#include "analysis/analyze.hpp"

// Every model: the explicit engine, the pipeline without the MPI engines (as the
// tests call it), and the explicit enumeration alone.
#define STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, P)                                                               \
  EXTERN template AnalysisRun<P> analyze_explicit(const P&, const AnalyzeOptions&, const P::State&, bool);        \
  EXTERN template AnalysisRun<P> analyze_explicit(const P&, const AnalyzeOptions&);                               \
  EXTERN template ExplicitSpace<P> enumerate_explicit(const P&, const P::State&, const MemoryBudget&, Progress*,  \
                                                      LookupKind, LookupStats*, BfsResult*);                      \
  EXTERN template AnalysisRun<P> run_analysis(const P&, const AnalyzeOptions&, const AnalysisPlan<P>&, MpiEngine, \
                                              const NoRankedMpi&)

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

namespace statespace {

STATESPACE_PLAN_INSTANCES(extern, NoOff);
STATESPACE_PLAN_INSTANCES(extern, Hex6);
STATESPACE_PLAN_INSTANCES(extern, Oshidori);
STATESPACE_PLAN_INSTANCES(extern, Tiles);
STATESPACE_PLAN_INSTANCES(extern, Blocks);
STATESPACE_PLAN_INSTANCES(extern, GraphTokens);
STATESPACE_PLAN_INSTANCES(extern, CellPermutation);
STATESPACE_PLAN_INSTANCES(extern, Pieces);
STATESPACE_PLAN_INSTANCES(extern, GroupedStickers);
STATESPACE_PLAN_INSTANCES(extern, Rules);

// analyze_seeds.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, NoOff);
STATESPACE_RANKED_MODEL_INSTANCES(extern, NoOff);
STATESPACE_EVERY_MODEL_INSTANCES(extern, Hex6);
STATESPACE_RANKED_MODEL_INSTANCES(extern, Hex6);
STATESPACE_EVERY_MODEL_INSTANCES(extern, Oshidori);
STATESPACE_RANKED_MODEL_INSTANCES(extern, Oshidori);
// analyze_tiles.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, Tiles);
STATESPACE_RANKED_MODEL_INSTANCES(extern, Tiles);
// analyze_blocks.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, Blocks);
STATESPACE_LEVELS_MODEL_INSTANCES(extern, Blocks);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, Blocks, BlocksPacking);
// analyze_graphs.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, GraphTokens);
STATESPACE_RANKED_MODEL_INSTANCES(extern, GraphTokens);
STATESPACE_EVERY_MODEL_INSTANCES(extern, CellPermutation);
STATESPACE_LEVELS_MODEL_INSTANCES(extern, CellPermutation);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, CellPermutation, CellPacking);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, CellPermutation, WideCellPacking);
// analyze_pieces.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, Pieces);
STATESPACE_RANKED_MODEL_INSTANCES(extern, Pieces);
STATESPACE_LEVELS_MODEL_INSTANCES(extern, Pieces);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, Pieces, PieceRankPacking);
STATESPACE_EVERY_MODEL_INSTANCES(extern, GroupedStickers);
STATESPACE_RANKED_MODEL_INSTANCES(extern, GroupedStickers);
STATESPACE_LEVELS_MODEL_INSTANCES(extern, GroupedStickers);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, GroupedStickers, PieceRankPacking);
// analyze_rules.cpp
STATESPACE_EVERY_MODEL_INSTANCES(extern, Rules);
STATESPACE_LEVELS_MODEL_INSTANCES(extern, Rules);
STATESPACE_LEVELS_PACKING_INSTANCES(extern, Rules, RulesPacking);

}  // namespace statespace
