// Where a puzzle's cells lie in the plane and which cells hold one piece: what a
// picture of a position needs beyond its notation. Most boards are rows of square
// cells (row_lengths(), shorter rows centred); a model with another shape says so
// through the HasCellGeometry capability, and a model whose pieces span several
// cells through HasPieces. Drawing code never asks which model it has.
#pragma once

#include <algorithm>
#include <concepts>
#include <string>
#include <utility>
#include <vector>

#include "core/puzzle.hpp"

namespace statespace {

enum class CellShape { kSquare, kHexagon };

// Cell centres in units of one cell's width, in the cells' notation order.
struct BoardGeometry {
  CellShape shape = CellShape::kSquare;
  struct Place {
    double x = 0;
    double y = 0;
  };
  std::vector<Place> cells;
  // Lines drawn between cells (the vertices of a graph puzzle); none on a grid.
  std::vector<std::pair<int, int>> edges;
};

template <class P>
concept HasCellGeometry = requires(const P& p) {
  { p.cell_geometry() } -> std::same_as<BoardGeometry>;
};

// piece_ids(s)[cell]: equal ids are one piece (drawn as one shape), -1 an empty cell.
template <class P>
concept HasPieces = requires(const P& p, const typename P::State& s) {
  { p.piece_ids(s) } -> std::same_as<std::vector<int>>;
};

// Cells with equal labels in one position are one piece (sliding-block files,
// whose notation gives every cell of a piece its letter).
template <class P>
concept PiecesByLabel = requires {
  requires P::kPiecesByLabel;
};

// A static layer under the pieces: cell_marks()[cell] is the mark drawn there ("" for
// none), the targets of a Sokoban level.
template <class P>
concept HasCellMarks = requires(const P& p) {
  { p.cell_marks() } -> std::same_as<std::vector<std::string>>;
};

// What each notation cell is when not a place of the board: the set names and the
// orientation rows of per-set notations.
enum class CellRole { kPlace, kCaption, kOrientation };
template <class P>
concept HasCellRoles = requires(const P& p) {
  { p.cell_roles() } -> std::same_as<std::vector<CellRole>>;
};

// Rows of unit squares, each row centred on the widest one.
inline BoardGeometry row_geometry(const std::vector<int>& row_lengths) {
  int widest = 0;
  for (int n : row_lengths) widest = std::max(widest, n);
  BoardGeometry g;
  for (std::size_t r = 0; r < row_lengths.size(); ++r) {
    for (int c = 0; c < row_lengths[r]; ++c) {
      g.cells.push_back({c + (widest - row_lengths[r]) / 2.0, double(r)});
    }
  }
  return g;
}

template <Puzzle P>
BoardGeometry board_geometry(const P& p) {
  if constexpr (HasCellGeometry<P>) {
    return p.cell_geometry();
  } else {
    return row_geometry(p.row_lengths());
  }
}

}  // namespace statespace
