// Rush Hour as Michael Fogleman's database writes it ("Solving Rush Hour, the
// puzzle", 2018): a row per configuration, `MOVES BOARD CLUSTER`, the 6x6 board in 36
// characters read row by row ('o' or '.' empty, 'x' a wall, 'A' the red car, every
// other letter a car or truck, its orientation from its shape), MOVES the fewest
// slides that drive A out to the right, CLUSTER how many positions its moves reach.
// A file of such rows is known by its content: each row becomes a sliding-block
// puzzle (puzzles/blocks.hpp) with A's exit as its goal, written as the blocks file
// `statespace convert` prints.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "puzzles/blocks.hpp"

namespace statespace {

struct RushRow {
  int number = 0;  // from 1, in file order
  int line = 0;
  std::uint64_t moves = 0, cluster = 0;  // as the row gives them
  std::string board;                     // 36 characters, '.' for 'o'
  std::string error;                     // "FILE:LINE:COLUMN: row N: ..." when refused
};

// Whether `text` reads as rows: its first line that is not blank or a '#' comment is one.
bool looks_like_rush_rows(std::string_view text);

// The rows of `text`, read as if from `file`; each checked on its own (a board of
// another length or character, a piece that is not a straight car of two or three
// cells, no red car, or one off the exit row). Throws ParseError when there is none.
std::vector<RushRow> read_rush_rows(const std::filesystem::path& file, std::string_view text);

// A row as a kind = "blocks" file: its start, the slide metric, A at the exit as
// the goal and every car's axis.
std::string rush_row_toml(const RushRow& row, const std::string& name);
// A blocks file's start as a row's board, when it is a 6x6 Rush Hour board (pieces
// of two or three cells in a line, 'A' on the third row); throws ParseError naming
// what is not.
std::string rush_board_of(const Blocks& puzzle);

// Row `which` ("" for a file of one row, or a number from 1) of `text`; throws
// ParseError for a refused row, a missing one, or several without a number.
RushRow rush_row(const std::filesystem::path& file, std::string_view text, std::string_view which);
// The name a row's model and report folder take: the file's stem and the row's number.
std::string rush_row_name(const std::filesystem::path& file, const RushRow& row);

// The model of a row read without error (`file` names it in messages).
Blocks rush_row_model(const std::filesystem::path& file, const RushRow& row);

// The model of row `which` ("" for a file of one row, or a number from 1) of `file`;
// throws ParseError for a refused row, a missing one, or several without a number.
Blocks load_rush_row(const std::filesystem::path& file, std::string_view text, std::string_view which);

}  // namespace statespace
