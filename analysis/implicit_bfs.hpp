// The implicit BFS engine for R x C sliding-tile puzzles: breadth-first search over
// the rank space without storing a single edge, for boards far beyond what an
// explicit graph can hold (tiles:3x4 and 2x6 at 2.4e8 positions in ~60 MB, tiles:2x7
// at 4.4e10 in ~11 GB).
//
// States are their locality indices (core/tile_index.hpp) within the start's
// reachability class; each has two bits (two-bit breadth-first search, Korf 2008).
// The grid graph is bipartite, so a position's depth parity is the colour of its
// blank cell relative to the start's. Positions are therefore kept in two tables by
// blank colour: a level reads one table and writes only the other. Within a table
// the two bits are 0 = unseen, 3 = old and 1/2 = "depth d", alternating every
// second level (code(d) = 1 + ((d >> 1) & 1)). While expanding level d:
//   - the frontier is exactly the entries of code(d) in table d, because the
//     entries of depth d-2 (the other code) are turned old in the same pass;
//   - a neighbour (table d+1) reads code(d-1) or code(d+1) or unseen, which tells
//     its layer exactly: depth d-1, or depth d+1 (already claimed or to claim), so
//     the edges between layers d and d+1 are counted once, from the shallow end.
// No extra pass; after the last level its positions still carry code(d), which gives
// every farthest position. Each level runs over slices of the table owned by oneTBB
// tasks (analysis/implicit_engine.hpp, analysis/slices.hpp): a task claims its
// left/right neighbours itself and queues its up/down ones for the owner of their
// slice, so every claim is a plain, branch-free read-modify-write.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

#include "analysis/memory.hpp"
#include "analysis/result.hpp"
#include "core/board.hpp"
#include "puzzles/permutation_puzzle.hpp"

namespace statespace {

struct ImplicitOptions {
  MemoryBudget memory;
  bool progress = true;
  std::filesystem::path checkpoint;  // write the state here after each level (empty: never)
  double checkpoint_every = 0;       // ...but only once this many seconds passed since the last
  std::filesystem::path resume;      // continue from the checkpoint here (empty: fresh start)
  // Called once checkpoint `level` is on disk (tests stop the process there).
  std::function<void(std::uint32_t level)> on_checkpoint;
};

struct ImplicitResult {
  std::vector<std::uint64_t> layers;    // layers[d] = positions at distance d
  std::vector<LayerEdges> layer_edges;  // moves between layers d and d+1 (the graph is bipartite)
  std::vector<Board> farthest;          // the last layer, ascending permutation_rank
  [[nodiscard]] std::uint64_t states() const;
  [[nodiscard]] std::uint64_t edges() const;
};

// Bytes the engine allocates for `p`: its two tables, n!/2 entries of two bits.
std::uint64_t implicit_bytes(const Tiles& p);

// Breadth-first search from `start` (blank anywhere). Checks the memory budget
// before allocating; with o.resume, the checkpoint must be of this puzzle and start.
ImplicitResult implicit_bfs(const Tiles& p, Board start, const ImplicitOptions& o);

}  // namespace statespace
