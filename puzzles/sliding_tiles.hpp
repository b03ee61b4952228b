// Numbered tiles 1..n-1 and one blank on a graph of n cells: a move slides a tile
// from a cell adjacent to the blank into it. The 6-puzzle (seed 003) is this on the
// hexagon graph; the R x C sliding-tile puzzles (seeds 002/004) on the grid graph.
// States are permutations, ranked lexicographically onto [0, n!).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"
#include "core/board_geometry.hpp"
#include "core/puzzle.hpp"
#include "core/ranking.hpp"

namespace statespace {

class PermutationPuzzle {
 public:
  using State = Board;
  static constexpr int kMaxDegree = 6;
  static constexpr int kMaxMoves = kMaxDegree;
  static constexpr bool kPermutationRanked = true;
  [[nodiscard]] static constexpr int max_moves() { return kMaxMoves; }

  [[nodiscard]] std::string name() const { return name_; }
  [[nodiscard]] int cells() const { return n_; }
  [[nodiscard]] std::vector<int> row_lengths() const { return row_lengths_; }
  // Tiles 1..n-1 in cell order, blank in the last cell.
  [[nodiscard]] State goal() const;
  [[nodiscard]] std::uint64_t rank_space() const { return kFactorial[n_]; }
  [[nodiscard]] std::uint64_t rank(State s) const { return permutation_rank(s, n_); }
  [[nodiscard]] State unrank(std::uint64_t r) const { return permutation_unrank(r, n_); }

  // Successors in the order of the blank cell's adjacency list (ascending cells).
  template <class F>
  void for_each_successor(State s, F&& f) const {
    const int b = find_blank(s, n_);
    for (int k = 0; k < degree_[b]; ++k) f(s.slid(adjacency_[b][k], b));
  }
  [[nodiscard]] int degree(int cell) const { return degree_[cell]; }
  [[nodiscard]] int neighbour(int cell, int k) const { return adjacency_[cell][k]; }

  [[nodiscard]] std::string format(State s) const;
  [[nodiscard]] State parse(std::string_view text) const;

 protected:
  PermutationPuzzle(std::string name, std::vector<int> row_lengths, const std::vector<std::vector<int>>& adjacency);

 private:
  std::string name_;
  std::vector<int> row_lengths_;
  int n_ = 0;
  std::array<std::array<std::int8_t, kMaxDegree>, Board::kMaxCells> adjacency_{};
  std::array<std::uint8_t, Board::kMaxCells> degree_{};
};

// The 6-puzzle of seed 003: 7 cells on a hexagon with a centre, numbered
//   0 1 / 2 3 4 / 5 6   (3 is the centre); goal "1 2 / 3 4 5 / 6 _".
class Hex6 : public PermutationPuzzle {
 public:
  Hex6();
  // Hexagonal cells, rows half a cell apart as the centre's six neighbours lie.
  [[nodiscard]] BoardGeometry cell_geometry() const;
};

// The R x C sliding-tile puzzle, 2 <= R, C and R*C <= 16; tiles:4x4 is the 15-puzzle.
class Tiles : public PermutationPuzzle {
 public:
  static constexpr int kMaxMoves = 4;
  [[nodiscard]] static constexpr int max_moves() { return kMaxMoves; }
  Tiles(int rows, int cols);
  [[nodiscard]] int rows() const { return rows_; }
  [[nodiscard]] int cols() const { return cols_; }
  // Exactly half the arrangements are reachable from any position.
  [[nodiscard]] std::uint64_t reachable_bound() const { return rank_space() / 2; }
  // Whether b is reachable from a. A move is a transposition of the blank with a
  // tile, so it flips the parity of the arrangement and of the blank's cell colour
  // on the chessboard; reachability preserves their sum, and on grids with both
  // sides >= 2 that invariant is complete (Johnson & Story 1879).
  [[nodiscard]] bool same_class(State a, State b) const;
  // Relabelling tiles preserves distances, so a position's eccentricity depends
  // only on its blank cell: one representative per blank cell, in each of the two
  // parity classes (tiles in reading order, and the same with tiles 1 and 2 swapped).
  [[nodiscard]] std::vector<State> symmetry_representatives() const;

 private:
  int rows_;
  int cols_;
};

static_assert(PermutationRanked<Hex6>);
static_assert(TileGridPuzzle<Tiles>);

}  // namespace statespace
