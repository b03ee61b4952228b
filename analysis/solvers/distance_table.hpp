// Exact distance to the goal of every position of a small tiles board, one byte per
// rank: what exact difficulty (generate's csv distances, --distance, --compare) reads.
// Two engines fill it:
//   explicit:   enumerate_explicit + parallel_bfs on the CSR graph, then
//               distance(rank) = distance[vertex_of(rank)]; quick up to 10 cells (2x5);
//   rank-space: level-synchronous BFS over the byte table itself, no graph: each level
//               scans the table for the frontier depth, unranks, and claims successors
//               with one compare-and-swap per byte. 12 cells (3x4, 2x6) need 12! bytes
//               = 457 MiB where the explicit graph would need ~30 GB.
// Positions of the other parity class keep kUnreached.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analysis/runtime/memory.hpp"
#include "analysis/runtime/progress.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

// The engine that fills a table; plan_generate() (analysis/generate_plan.hpp) chooses it.
enum class TableEngine { kExplicit, kRankSpace };

class DistanceTable {
 public:
  static constexpr std::uint8_t kUnreached = 0xFF;
  // Boards up to 12 cells; 14! bytes (2x7) would be 81 GiB and 4x4 far more.
  static constexpr int kMaxCells = 12;
  // Boards up to which the explicit engine fills a table quickly (2x5).
  static constexpr int kExplicitMaxCells = 10;

  DistanceTable(std::vector<std::uint8_t> distance, std::string engine);

  [[nodiscard]] std::uint8_t distance(std::uint64_t rank) const { return distance_[rank]; }
  [[nodiscard]] std::uint64_t rank_space() const { return distance_.size(); }
  // layers()[d] = positions at distance d from the goal.
  [[nodiscard]] const std::vector<std::uint64_t>& layers() const { return layers_; }
  [[nodiscard]] int max_distance() const { return int(layers_.size()) - 1; }
  [[nodiscard]] std::uint64_t reachable() const;
  [[nodiscard]] std::uint64_t count_between(int lo, int hi) const;
  [[nodiscard]] const std::string& engine() const { return engine_; }

  // Ranks of the positions at distance lo..hi with the given ordinals: ordinal k
  // names the k-th such position in rank order, k < count_between(lo, hi). The
  // result follows the order of `ordinals` (which need not be sorted).
  [[nodiscard]] std::vector<std::uint64_t> select(int lo, int hi, std::span<const std::uint64_t> ordinals) const;

 private:
  std::vector<std::uint8_t> distance_;
  std::vector<std::uint64_t> layers_;
  std::string engine_;
};

// Whether a table for this board may be built at all (cells <= kMaxCells).
[[nodiscard]] bool distance_table_supported(const Tiles& t);
// Bytes the engine needs.
[[nodiscard]] std::uint64_t distance_table_bytes(const Tiles& t, TableEngine engine);

// Builds the table by BFS from the goal; checks the memory budget first (UsageError
// with the bytes needed), and refuses boards over kMaxCells.
DistanceTable build_distance_table(const Tiles& t, const MemoryBudget& budget, TableEngine engine,
                                   Progress* progress = nullptr);

}  // namespace statespace
