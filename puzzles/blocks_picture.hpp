// Block pictures: the shapes of the pieces a sliding-block picture (puzzles/picture.hpp)
// draws. The model's parse() and the file loader both need them, so they live here,
// apart from either.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "puzzles/picture.hpp"

namespace statespace::blocks_picture {

// The cells of each piece letter, in reading order.
std::map<char, std::vector<int>> piece_cells(const Picture& p);

// Whether the cells (of a board `cols` wide) form one 4-connected piece.
bool connected(const std::vector<int>& cells, int cols);

// The cells as (row, column) offsets from the first.
std::vector<std::pair<int, int>> shape_of(const std::vector<int>& cells, int cols);

// "2x1", or "3x3 (5 cells)" for a shape that does not fill its bounding box.
std::string shape_name(const std::vector<std::pair<int, int>>& shape);

}  // namespace statespace::blocks_picture
