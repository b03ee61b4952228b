// Board pictures: a position drawn as text ("A A . / B . C"), read into one character
// per cell with each cell's place in the text, so that a loader can report an error at
// the cell. Sliding-block files and rules files both draw their boards this way; the
// reading lives here, apart from either model.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace statespace {

// A picture cell that a loader could not accept: where (0-based row and column in
// the picture's own text) and why.
struct PictureError {
  int line = 0;    // 0-based line of the picture text
  int column = 0;  // 0-based character in that line
  std::string message;
};

inline constexpr std::string_view kCellForm =
    "a letter or digit for a piece cell, '.' or '_' for an empty cell, '#' for a wall";

// A picture as one character per cell, with each cell's place in the picture's text.
struct Picture {
  int rows = 0, cols = 0;
  std::vector<char> cells;
  std::vector<std::pair<int, int>> where;  // (line, column) in the text
};

// Reads a picture (rows on lines or separated by '/', cells separated by spaces or
// side by side) into cell tokens; fills `where` with each token's (line, column).
std::vector<std::vector<std::string>> picture_rows(std::string_view text,
                                                   std::vector<std::vector<std::pair<int, int>>>* where);

// Throws PictureError for an empty picture, a ragged row, a cell of more than one
// character or more than max_cells cells (the model's state encoding's limit).
Picture read_picture(std::string_view text, int max_cells);

inline bool is_piece_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
inline bool is_empty_char(char c) { return c == '.' || c == '_'; }

}  // namespace statespace
