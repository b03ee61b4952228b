// Positions drawn as boards, for every model through the same code: the model's
// notation gives each cell its label, its geometry (core/board_geometry.hpp) where
// the cell lies, and its capabilities the rest: which cells are one piece
// (HasPieces, PiecesByLabel), the static marks (HasCellMarks), the set names and
// orientation rows of per-set notations (HasCellRoles), the edges of a graph. The
// drawing knows no model. A position of more cells than read at a glance is shown
// as its notation instead.
#pragma once

#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/notation.hpp"
#include "core/puzzle.hpp"

namespace statespace::reports {

// Larger positions are written, not drawn.
inline constexpr std::size_t kMaxDrawnCells = 64;

struct DrawnCell {
  double x = 0, y = 0;  // centre, in cell widths
  std::string label;    // "" for an empty cell
  int piece = -1;       // equal ids are one piece; -1: no piece
  bool wall = false;    // '#': no cell of the board
  std::string mark;     // the static layer's mark, "" for none
  CellRole role = CellRole::kPlace;
};

struct Drawing {
  CellShape shape = CellShape::kSquare;
  std::vector<DrawnCell> cells;  // in the notation's cell order
  std::vector<std::pair<int, int>> edges;
  std::string notation;  // the position as the model writes it
  bool as_text = false;  // too large to draw: the notation is shown
};

// The notation's cells: words, the row separator "/" left out.
std::vector<std::string> notation_cells(const std::string& notation);

// Rows that start with a set's name: the name at the left, the places after it, an
// orientation row under the places it belongs to.
void lay_out_roles(Drawing& d, const std::vector<int>& row_lengths);

template <Puzzle P>
Drawing draw_position(const P& p, const typename P::State& s) {
  Drawing d;
  d.notation = p.format(s);
  const auto labels = notation_cells(d.notation);
  const BoardGeometry geometry = board_geometry(p);
  if (labels.size() > kMaxDrawnCells || labels.size() != geometry.cells.size()) {
    d.as_text = true;
    return d;
  }
  d.shape = geometry.shape;
  d.edges = geometry.edges;
  std::vector<int> pieces;
  if constexpr (HasPieces<P>) pieces = p.piece_ids(s);
  std::vector<std::string> marks;
  if constexpr (HasCellMarks<P>) marks = p.cell_marks();
  std::vector<CellRole> roles;
  if constexpr (HasCellRoles<P>) roles = p.cell_roles();
  std::map<std::string, int> by_label;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    DrawnCell c;
    c.x = geometry.cells[i].x;
    c.y = geometry.cells[i].y;
    c.role = i < roles.size() ? roles[i] : CellRole::kPlace;
    c.wall = labels[i] == "#";
    const bool empty = labels[i] == kBlank || labels[i] == "." || c.wall;
    c.label = empty ? "" : labels[i];
    if (i < marks.size()) c.mark = marks[i];
    if (c.role == CellRole::kPlace && !empty) {
      if constexpr (HasPieces<P>) {
        c.piece = i < pieces.size() ? pieces[i] : -1;
      } else if constexpr (PiecesByLabel<P>) {
        c.piece = by_label.emplace(c.label, int(i)).first->second;
      } else {
        c.piece = int(i);
      }
    }
    d.cells.push_back(std::move(c));
  }
  if constexpr (HasCellRoles<P>) lay_out_roles(d, p.row_lengths());
  return d;
}

template <Puzzle P>
Drawing draw_position(const P& p, std::string_view position) {
  return draw_position(p, p.parse(position));
}

// One board as an SVG element `cell` pixels to a cell wide; each drawn cell carries
// data-cell (its index) and data-label, the piece data-piece, so that pages can
// click them and tests read them. A board drawn as text is a <pre> of the notation.
std::string drawing_svg(const Drawing& d, double cell = 34);

// The board's size in pixels at `cell` pixels a cell.
std::pair<double, double> drawing_size(const Drawing& d, double cell = 34);

}  // namespace statespace::reports
