// Puzzles in twsearch's (and ksolve's) `.tws` format, the form the cubing world
// writes its puzzles in, read into a PieceDefinition (puzzles/piece_definition.hpp):
//
//   Name cube2                 # optional; else the file's stem names the puzzle
//   Set CORNERS 7 3            # a set: its places (and pieces) and orientations
//   Solved                     # or StartState, whose piece numbers count from 0
//   CORNERS
//   1 2 3 4 5 6 7              # the piece at each place; repeats: identical pieces
//   0 0 0 0 0 0 0              # its orientation (optional: all 0)
//   End
//   Move R                     # or MoveTransformation, numbers from 0
//   CORNERS
//   1 5 2 3 4 6 7              # place i receives the piece from place perm[i]
//   0 1 2 0 0 0 0              # Move: the twist of the piece by where it came from;
//   End                        # MoveTransformation: by where it goes
//
// A Move block whose name reads as a rotation (is_rotation_name) turns the whole
// puzzle: twsearch keeps such blocks apart from the moves as symmetries, and so do
// the definition's `rotations`. Sets a block leaves out stay as solved (positions)
// or still (moves). Lines whose first character past blanks is '#' are comments.
// `MoveSequence NAME M1 M2 ...` defines a move (or rotation) as the moves, rotations
// and sequences it lists, each with an optional power (R2, R'), defined before or
// after it; `MoveAlias NAME MOVE` is another name for a move, which twsearch reads but
// never searches with: checked, then left out. `Illegal SET PLACE PIECE ...` (after
// the solved state) leaves out the positions with one of those pieces at that place
// (the definition's `illegal`); a '?' twist in the solved state marks a piece whose
// orientation is not counted (its `wild`). Every error is one line
// `FILE:LINE:COLUMN: problem; expected form`, thrown as ParseError.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "puzzles/huge_pieces.hpp"
#include "puzzles/piece_definition.hpp"
#include "puzzles/pieces.hpp"
#include "puzzles/wide_pieces.hpp"

namespace statespace {

// A set's name is the first word of its rows in the per-set notation of positions,
// which splits on blanks, '/' and ',': a name holds none of them, and no keyword of
// the format (a set called End would end its block).
inline constexpr std::string_view kSetNameForm =
    "a letter or '_', then letters, digits, '_' or '-', at most 64 in all, not a keyword of the format, e.g. CORNERS";
// Empty when `name` is a set name; else what is wrong with it.
std::string set_name_problem(std::string_view name);
// The same for a move's name, which may also start with digits (twsearch's 2F).
std::string move_name_problem(std::string_view name);

// twsearch's rule for a rotation of the whole puzzle: x, y or z, alone or followed
// by 2 or ', or capitals and '_' followed by one v (Fv, DFRv, but not F, Rv2 or fv).
bool is_rotation_name(std::string_view name);

// Sets a file may declare: twsearch's 20x20x20 has 91. Whether a puzzle runs is the
// models' and the memory budget's decision, not this limit's.
inline constexpr std::size_t kMaxTwsSets = 255;

// Puzzles of the format have tens of moves; more than this many is refused before
// any table is built (each move's powers and tables cost time and memory).
inline constexpr std::size_t kMaxTwsMoves = 256;

// Files are a few kilobytes; a larger one is refused unread.
inline constexpr std::uintmax_t kMaxTwsBytes = 1 << 20;

// The definition in `file`; throws ParseError (FILE:LINE:COLUMN:).
PieceDefinition read_tws(const std::filesystem::path& file);
// The definition in `text`, errors naming `file` (tests feed texts without writing them).
PieceDefinition parse_tws(const std::filesystem::path& file, const std::string& text);

// The model of a file with every move in the default metric (all-powers): parse_tws,
// then Pieces, whose refusals (ranks past 2^64) are reported at the first Set line.
Pieces load_tws(const std::filesystem::path& file);
Pieces load_tws(const std::filesystem::path& file, const std::string& text);
// The model `analyze` runs: Pieces where the positions rank below 2^64, else the
// narrowest BasicWidePieces (words of 128, 256 or 512 bits for the sorted-levels
// engine) whose word holds the places; refusals reported as load_tws reports them.
// A file whose places pass 512 bits is refused, saying that analyze alone runs it.
using TwsModel = std::variant<Pieces, WidePieces, WidePieces256, WidePieces512>;
TwsModel load_tws_model(const std::filesystem::path& file);
TwsModel load_tws_model(const std::filesystem::path& file, const std::string& text);
// The model of a file whose positions do not rank below 2^64 and whose places pass
// 512 bits, which analyze runs apart from the other models (only its first levels
// are asked for); nothing for any other file, which load_tws_model reads.
std::optional<HugePieces> load_huge_tws(const std::filesystem::path& file);

// The .tws text of `d` (statespace convert): each line of `comment` as a comment,
// then Name, one Set line a set, Solved and one Move block a move or rotation, every set written
// in every block and twists listed as ksolve's Move lists them (by the place a piece
// leaves), so that twsearch reads the file as parse_tws does: parse_tws gives `d` back.
std::string format_tws(const PieceDefinition& d, const std::vector<std::string>& comment);

}  // namespace statespace
