// An exhaustive proof, for one small board, that the parity test of
// puzzles/tiles_parity.hpp is exactly reachability: every one of the (RC)! arrangements
// becomes a vertex (build_explicit over the full rank space), Boost's
// connected_components labels the components (the CSR graph is directed but
// symmetric, so its DFS trees are the undirected components), and every arrangement's
// verdict is compared with whether it shares the goal's component. The classical
// theorem predicts exactly two components of (RC)!/2 positions each.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/runtime/memory.hpp"
#include "core/board.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

struct ParityVerification {
  std::uint64_t arrangements = 0;              // (RC)!
  std::vector<std::uint64_t> component_sizes;  // the goal's component first, then by first vertex
  std::uint64_t agree = 0;                     // verdict == (in the goal's component)
  std::uint64_t disagree = 0;
  std::optional<Board> first_disagreement;  // lowest rank where they differ
  [[nodiscard]] bool proved() const { return disagree == 0 && component_sizes.size() == 2; }
};

ParityVerification verify_parity(const Tiles& t, const MemoryBudget& budget);

}  // namespace statespace
