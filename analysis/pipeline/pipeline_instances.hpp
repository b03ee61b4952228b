// The engines' entry points over every model of the registry, compiled once.
// analyze_<family>.cpp instantiates them for its models (plan_puzzle.cpp
// choose_engine() for all); a file that includes this header before it calls them
// links those copies instead of instantiating the engines again. The engines are
// nearly all of the code a model brings: the test files that call them would
// otherwise each compile them again at -O3 (and again under the sanitizers), 30 to
// 70 s of compiler time a file.
//
// A model added to AnyPuzzle gets the lines that fit it in its family's list below,
// which its analyze_<family>.cpp expands without `extern`; a missing definition fails
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

// choose_engine() for every model (plan_puzzle.cpp).
#define STATESPACE_PLAN_LIST(EXTERN)                  \
  STATESPACE_PLAN_INSTANCES(EXTERN, NoOff);           \
  STATESPACE_PLAN_INSTANCES(EXTERN, Hex6);            \
  STATESPACE_PLAN_INSTANCES(EXTERN, Oshidori);        \
  STATESPACE_PLAN_INSTANCES(EXTERN, Tiles);           \
  STATESPACE_PLAN_INSTANCES(EXTERN, Blocks);          \
  STATESPACE_PLAN_INSTANCES(EXTERN, GraphTokens);     \
  STATESPACE_PLAN_INSTANCES(EXTERN, CellPermutation); \
  STATESPACE_PLAN_INSTANCES(EXTERN, Pieces);          \
  STATESPACE_PLAN_INSTANCES(EXTERN, GroupedStickers); \
  STATESPACE_PLAN_INSTANCES(EXTERN, Rules);           \
  STATESPACE_PLAN_INSTANCES(EXTERN, WidePieces);

// analyze_seeds.cpp
#define STATESPACE_SEEDS_LIST(EXTERN)                 \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, NoOff);    \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, NoOff);   \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Hex6);     \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, Hex6);    \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Oshidori); \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, Oshidori);

// analyze_tiles.cpp
#define STATESPACE_TILES_LIST(EXTERN)              \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Tiles); \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, Tiles);

// analyze_blocks.cpp
#define STATESPACE_BLOCKS_LIST(EXTERN)               \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Blocks);  \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, Blocks); \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, Blocks, BlocksPacking);

// analyze_graphs.cpp
#define STATESPACE_GRAPHS_LIST(EXTERN)                                       \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, GraphTokens);                     \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, GraphTokens);                    \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, CellPermutation);                 \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, CellPermutation);                \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, CellPermutation, CellPacking); \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, CellPermutation, WideCellPacking);

// analyze_pieces.cpp
#define STATESPACE_PIECES_LIST(EXTERN)                                            \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Pieces);                               \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, Pieces);                              \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, Pieces);                              \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, Pieces, PieceRankPacking);          \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, GroupedStickers);                      \
  STATESPACE_RANKED_MODEL_INSTANCES(EXTERN, GroupedStickers);                     \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, GroupedStickers);                     \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, GroupedStickers, PieceRankPacking); \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, WidePieces);                           \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, WidePieces);                          \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, WidePieces, WidePieceWords);

// analyze_rules.cpp
#define STATESPACE_RULES_LIST(EXTERN)               \
  STATESPACE_EVERY_MODEL_INSTANCES(EXTERN, Rules);  \
  STATESPACE_LEVELS_MODEL_INSTANCES(EXTERN, Rules); \
  STATESPACE_LEVELS_PACKING_INSTANCES(EXTERN, Rules, RulesPacking);

namespace statespace {

STATESPACE_PLAN_LIST(extern)
STATESPACE_SEEDS_LIST(extern)
STATESPACE_TILES_LIST(extern)
STATESPACE_BLOCKS_LIST(extern)
STATESPACE_GRAPHS_LIST(extern)
STATESPACE_PIECES_LIST(extern)
STATESPACE_RULES_LIST(extern)

}  // namespace statespace
