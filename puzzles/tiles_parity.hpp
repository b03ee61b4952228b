// Solvability of an R x C sliding-tile board by counting inversions (seed 004;
// Johnson & Story 1879; the blank-row form is MathWorld's "15 Puzzle"). The test
// works on a plain list of cells rather than on Board, so it covers boards of any
// size (`statespace solvable tiles:5x5 ...`), not only those the 16-nibble models hold.
//
// Read the tiles row by row, ignoring the blank, and count the pairs in the wrong
// order. A horizontal move keeps that order. A vertical move lifts one tile over the
// C - 1 tiles between its old and new place, changing the inversions by an amount of
// the parity of C - 1, and moves the blank one row:
//   odd width:  the inversion parity never changes, so solvable iff it is even;
//   even width: inversions + blank row keeps its parity, so solvable iff it has the
//               goal's (0 inversions + blank in row R), i.e. the parity of R.
// Completeness (every board passing the test reaches the goal) is the classical
// theorem; `statespace verify-parity` checks it exhaustively on small boards.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/board.hpp"

namespace statespace {

// A board shape tiles:RxC, as far as the parity test is concerned: any 2 <= R, C <= 32.
struct TilesShape {
  static constexpr int kMaxSide = 32;
  int rows = 0;
  int cols = 0;
  [[nodiscard]] int cells() const { return rows * cols; }
  [[nodiscard]] std::string name() const;
};

// "tiles:RxC" -> shape; throws ParseError naming the expected form.
TilesShape parse_tiles_shape(std::string_view name);

// A position of `shape` in the shared notation -> cells row by row, 0 for the blank
// (tiles 1..RC-1 each once); throws ParseError naming the bad token.
std::vector<int> parse_tiles_cells(const TilesShape& shape, std::string_view text);
std::string format_tiles_cells(const TilesShape& shape, std::span<const int> cells);

// The parity test with every number it uses, for explaining the verdict.
struct ParityReport {
  TilesShape shape;
  std::uint64_t inversions = 0;  // pairs of tiles in the wrong order, read row by row
  int blank_row = 0;             // 1..R from the top
  std::uint64_t sum = 0;         // even width: inversions + blank_row; odd width: inversions
  int goal_parity = 0;           // the goal's sum mod 2: R mod 2 (even width) or 0 (odd width)
  bool solvable = false;         // sum mod 2 == goal_parity
  [[nodiscard]] bool even_width() const { return shape.cols % 2 == 0; }
};

// Cells row by row, 0 for the blank; `cells` must hold each of 0..RC-1 once.
ParityReport tiles_parity(const TilesShape& shape, std::span<const int> cells);
ParityReport tiles_parity(int rows, int cols, Board b);

// The verdict alone, in O(cells) with bit tricks: the generators' hot path.
[[nodiscard]] bool tiles_solvable(int rows, int cols, Board b);

// The report as text: one "name  value  (meaning)" line per number, then the
// verdict and the reason (which differs for odd and even widths).
std::string explain_parity(const ParityReport& report);

}  // namespace statespace
