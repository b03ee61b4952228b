// Figures for articles, written directly as SVG: positions per depth (one curve
// per analysis) and positions drawn as boards. Written by our own code rather than
// through gnuplot so a report needs no program at run time and the bytes depend only
// on the data: every coordinate is printed with a fixed number of decimals, fonts are
// named generically and nothing carries a date.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "core/board_geometry.hpp"
#include "core/notation.hpp"
#include "core/puzzle.hpp"

namespace statespace::reports {

// A coordinate or size as SVG and HTML pages write it: one decimal, none when it is
// whole, fixed so that the same numbers always print the same characters.
std::string svg_number(double v);

struct Curve {
  std::string name;
  std::vector<std::uint64_t> counts;  // counts[d] = positions at depth d
};

// Depth on x, positions on y (log10 or linear), labelled axes, a legend.
std::string distribution_svg(const std::string& title, const std::vector<Curve>& curves, bool log_scale);

// One position as drawn: a label per cell ("" for an empty cell) and a piece id
// per cell (equal ids are one piece; -1 empty), in the geometry's cell order.
struct BoardPicture {
  std::vector<std::string> labels;
  std::vector<int> pieces;
  std::string caption;
};

// `position` of p as drawn: its cells' symbols, the blank empty; pieces as the
// model groups them (HasPieces), else one piece per occupied cell.
template <Puzzle P>
BoardPicture board_picture(const P& p, const std::string& position, std::string caption) {
  const auto state = p.parse(position);
  BoardPicture b;
  b.caption = std::move(caption);
  std::istringstream cells(p.format(state));
  for (std::string cell; cells >> cell;) {
    if (cell != "/") b.labels.push_back(cell == kBlank ? "" : cell);
  }
  if constexpr (HasPieces<P>) {
    b.pieces = p.piece_ids(state);
  } else {
    for (std::size_t i = 0; i < b.labels.size(); ++i) b.pieces.push_back(b.labels[i].empty() ? -1 : int(i));
  }
  return b;
}

// The boards in rows under a title, sized to read at an article's column width.
std::string boards_svg(const std::string& title, const BoardGeometry& geometry,
                       const std::vector<BoardPicture>& boards);

}  // namespace statespace::reports
