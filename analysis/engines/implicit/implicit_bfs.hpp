// The implicit BFS engine for R x C sliding-tile puzzles: breadth-first search over
// the rank space without storing a single edge, for boards far beyond what an
// explicit graph can hold (tiles:3x4 and 2x6 at 2.4e8 positions in 45 MB, tiles:2x7
// at 4.4e10 in 8.2 GB).
//
// States are their locality indices (analysis/engines/implicit/tile_index.hpp) within the start's
// reachability class. The grid graph is bipartite, so a position's depth parity is
// the colour of its blank cell relative to the start's, and every neighbour of a
// position at depth d is at depth d-1 or d+1. So a level needs no visited set, only
// the layer before (frontier search, Korf et al. 2005), and the layers of one
// colour are one bit per position of that colour. Three such bitsets hold the last
// layer of each colour and the next layer: 1.5 bits per position against the two
// of a two-bit BFS (Korf 2008). While expanding level d:
//   - the frontier is the last layer of d's colour;
//   - every neighbour is marked in the next bitset, without reading anything;
//   - finishing the level drops the marks of layer d-1 (the last layer of the other
//     colour), which leaves layer d+1 exactly; it replaces layer d-1, whose bitset,
//     cleared, takes the marks of the level after.
// The moves between layers d and d+1 are layer d's degrees (a blank's moves, summed
// as the scan meets them) less the moves between d-1 and d. After the last level
// its bitset still holds every farthest position. Each level runs over slices of the
// bitsets owned by oneTBB tasks (analysis/engines/implicit/implicit_engine.hpp, analysis/engines/common/slices.hpp):
// a task marks its left/right neighbours itself and queues its up/down ones for the
// owner of their slice, so every mark is a plain OR of one bit.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/engines/result.hpp"
#include "analysis/runtime/checkpoint.hpp"
#include "analysis/runtime/goal_table.hpp"
#include "analysis/runtime/memory.hpp"
#include "core/board.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

struct ImplicitOptions {
  MemoryBudget memory;
  bool progress = true;
  std::filesystem::path checkpoint;  // write the state here after each level (empty: never)
  double checkpoint_every = 0;       // ...but only once this many seconds passed since the last
  std::filesystem::path resume;      // continue from the checkpoint here (empty: fresh start)
  // The analysis pipeline (analysis/analyze.hpp) checks before any work what the
  // engine would check again: the memory need, and the resumed checkpoint's header.
  bool memory_checked = false;
  std::optional<CheckpointState> resumed;  // the header of `resume`, already read and checked
  // Called once checkpoint `level` is on disk (tests stop the process there).
  std::function<void(std::uint32_t level)> on_checkpoint;
  // analyze --table from the goal: every layer's distance goes into this table
  // (indexed by TileIndex::class_rank), as the layer is found. Over MPI, the
  // process's part of it: the indices of its own sequences (mpi_table_entries).
  GoalTable* table = nullptr;
};

struct ImplicitResult {
  std::vector<std::uint64_t> layers;    // layers[d] = positions at distance d
  std::vector<LayerEdges> layer_edges;  // moves between layers d and d+1 (the graph is bipartite)
  std::vector<Board> farthest;          // the last layer, ascending permutation_rank
  [[nodiscard]] std::uint64_t states() const;
  [[nodiscard]] std::uint64_t edges() const;
};

// Bytes the engine allocates for `p`: three bitsets of the larger colour's positions.
std::uint64_t implicit_bytes(const Tiles& p);

// Breadth-first search from `start` (blank anywhere). Checks the memory budget
// before allocating; with o.resume, the checkpoint must be of this puzzle and start.
ImplicitResult implicit_bfs(const Tiles& p, Board start, const ImplicitOptions& o);

}  // namespace statespace
