// Sokoban collections in XSB, the community's plain format (files ending in .xsb,
// .sok or .txt): '#' wall, '@' keeper, '+' keeper on a goal, '$' box, '*' box on a
// goal, '.' goal, ' ', '-' or '_' floor. A level is a run of lines made of these
// characters (each with a '#'); the other lines are titles and comments. A level's
// title is a "Title: ..." line after it, else the last text line before it (a
// leading ';' taken off), else "level N".
//
// Each level is checked on its own: one that is not closed by walls, has no keeper or
// two, has a box or a goal the keeper cannot reach, boxes and goals in different
// numbers, or too many floor cells is refused with FILE:LINE:COLUMN and its number,
// and the others still load. `FILE:N` or `FILE:TITLE` names one level wherever a
// puzzle is taken.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "puzzles/sokoban.hpp"

namespace statespace {

struct XsbEntry {
  int number = 0;  // from 1, in file order
  int line = 0;    // the level's first line
  std::string title;
  std::optional<SokobanLevel> level;  // nothing when refused
  std::string error;                  // "FILE:LINE:COLUMN: level N: ..." when refused
};

// Collections are small; a larger file is refused unread.
inline constexpr std::uintmax_t kMaxXsbBytes = 4 << 20;

// The levels of `text`, read as if from `file`; throws ParseError when it holds none.
std::vector<XsbEntry> read_xsb(const std::filesystem::path& file, std::string_view text);
// A collection file's text, at most kMaxXsbBytes; throws ParseError (FILE:1:1:) when
// it cannot be read or is larger.
std::string read_collection_text(const std::filesystem::path& file);
// The levels of the file; throws ParseError (FILE:LINE:COLUMN:) when it cannot be read
// or holds no level.
std::vector<XsbEntry> read_xsb_file(const std::filesystem::path& file);

// The level `which` names ("" for a file of one level, a number from 1, or a title)
// as a model under the pushes metric; throws ParseError for a refused level, one
// not found, or a file of several levels named without one.
Sokoban load_xsb_level(const std::filesystem::path& file, std::string_view which);

// Whether `name` is a collection file (.xsb, .sok, .txt), with or without ":LEVEL".
bool is_xsb_name(std::string_view name);

}  // namespace statespace
