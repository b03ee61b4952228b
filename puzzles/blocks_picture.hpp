// Block pictures: a sliding-block position drawn as text ("A A . / B . C"), read
// into one character per cell with each cell's place in the text, and the shapes of
// the pieces it draws. The model's parse() and the file loader both read pictures
// and report errors at a cell, so the reading lives here, apart from either.
#pragma once

#include <cctype>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "puzzles/blocks.hpp"

namespace statespace::blocks_picture {

inline constexpr std::string_view kCellForm =
    "a letter or digit for a piece cell, '.' or '_' for an empty cell, '#' for a wall";

// A picture as one character per cell, with each cell's place in the picture's text.
struct Picture {
  int rows = 0, cols = 0;
  std::vector<char> cells;
  std::vector<std::pair<int, int>> where;  // (line, column) in the text
};

// Throws PictureError for an empty picture, a ragged row, a cell of more than one
// character or more than max_cells cells (the state encoding's limit).
Picture read_picture(std::string_view text, int max_cells = Blocks::kMaxCells);

inline bool is_piece_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
inline bool is_empty_char(char c) { return c == '.' || c == '_'; }

// The cells of each piece letter, in reading order.
std::map<char, std::vector<int>> piece_cells(const Picture& p);

// Whether the cells (of a board `cols` wide) form one 4-connected piece.
bool connected(const std::vector<int>& cells, int cols);

// The cells as (row, column) offsets from the first.
std::vector<std::pair<int, int>> shape_of(const std::vector<int>& cells, int cols);

// "2x1", or "3x3 (5 cells)" for a shape that does not fill its bounding box.
std::string shape_name(const std::vector<std::pair<int, int>>& shape);

}  // namespace statespace::blocks_picture
