// Optimal sliding-tile solutions by IDA* (Korf 1985) over an additive pattern-database
// heuristic (analysis/solvers/pdb.hpp): the sum of a partition's databases, and on square
// boards the larger of that sum and the same sum taken on the position reflected
// about the main diagonal (Culberson & Schaeffer's mirror; Korf & Felner 2002). The
// goal maps onto itself under that reflection when tile v's goal cell (v - 1)
// reflects to tile v''s goal cell, so distances are preserved.
//
// Parallel and deterministic: each iteration expands the tree breadth-first (keeping
// depth-first order) until there are at least kWorkItems subtrees, then searches
// them on all workers. The solution kept is the first in depth-first order (moves
// tried in ascending blank-target cell order, no immediate reversal): the
// lexicographically least optimal move sequence, whatever the thread count. Subtrees
// after the one holding it are abandoned; the node count includes only the subtrees
// up to it, so it is deterministic too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <vector>

#include "analysis/solvers/pdb.hpp"
#include "puzzles/sliding_tiles.hpp"

namespace statespace {

class AdditiveHeuristic {
 public:
  static constexpr std::size_t kMaxGroups = 15;

  // `databases` must cover every tile exactly once and outlive the heuristic.
  AdditiveHeuristic(const Tiles& t, std::vector<const PatternDatabase*> databases, bool reflect);

  [[nodiscard]] int operator()(Board b) const;
  [[nodiscard]] const Tiles& tiles() const { return t_; }
  [[nodiscard]] bool reflects() const { return reflect_; }
  [[nodiscard]] std::size_t groups() const { return databases_.size(); }

  // For the search: the group of tile v, its slot in the group, and one group's
  // value for the tile positions pos[] (pos[v] = cell of tile v).
  [[nodiscard]] int group_of(int tile) const { return group_[std::size_t(tile)]; }
  [[nodiscard]] int value(std::size_t group, const std::uint8_t* pos) const {
    std::array<std::uint8_t, Board::kMaxCells> cells{};
    const auto& members = databases_[group]->tiles();
    for (std::size_t i = 0; i < members.size(); ++i) cells[i] = pos[members[i]];
    return databases_[group]->value(cells.data());
  }
  // The reflection: tile v -> mirror_tile(v), cell c -> mirror_cell(c).
  [[nodiscard]] int mirror_tile(int tile) const { return mirror_tile_[std::size_t(tile)]; }
  [[nodiscard]] int mirror_cell(int cell) const { return mirror_cell_[std::size_t(cell)]; }

  static constexpr int kInfinity = 1 << 20;

 private:
  Tiles t_;
  std::vector<const PatternDatabase*> databases_;
  bool reflect_;
  std::array<std::int8_t, Board::kMaxCells> group_{};
  std::array<std::uint8_t, Board::kMaxCells> mirror_tile_{};
  std::array<std::uint8_t, Board::kMaxCells> mirror_cell_{};
};

struct IdaResult {
  std::vector<Board> path;  // start .. goal
  std::uint64_t nodes = 0;  // nodes generated, all iterations
  int iterations = 0;
  int initial_bound = 0;  // the heuristic at the start
  [[nodiscard]] int length() const { return int(path.size()) - 1; }
};

// An optimal solution from `start` (which must be in the goal's class; the caller
// checks) to the goal.
[[nodiscard]] IdaResult solve_ida(const AdditiveHeuristic& h, Board start);

// A partition's databases, each from the cache or built (and cached), and the
// heuristic over them. Checking the memory budget is the caller's part.
struct PdbHeuristic {
  Partition partition;
  std::vector<PatternDatabase> databases;
  double seconds = 0;  // loading and building, all databases
  bool built = false;  // whether any database had to be built
  std::unique_ptr<AdditiveHeuristic> heuristic;
};
[[nodiscard]] PdbHeuristic load_heuristic(const Tiles& t, const Partition& partition, const std::filesystem::path& dir,
                                          std::ostream& log, bool reflect = true, bool show_progress = true);

}  // namespace statespace
