// Puzzles described in TOML files (`statespace analyze my-puzzle.toml`). The file's
// `kind` picks the model that reads the rest; every kind shares the keys `name`,
// `title` and `kind`, and the error form of puzzles/toml_input.hpp.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "puzzles/registry.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

struct PuzzleKind {
  std::string_view name;         // the value of `kind`
  std::string_view description;  // one line, for help texts
  AnyPuzzle (*load)(const TomlInput& file);
};

// The kinds a file may name, in the order help texts list them.
const std::vector<PuzzleKind>& puzzle_kinds();

// The puzzle in file `name` when it ends in ".toml", else nothing; throws ParseError
// (FILE:LINE:COLUMN:) for a file that cannot be read or is not a valid puzzle.
std::optional<AnyPuzzle> make_file_puzzle(std::string_view name);

// The puzzle in file `name` when it ends in ".tws" (puzzles/tws_file.hpp), else
// nothing; throws ParseError as above.
std::optional<AnyPuzzle> make_tws_puzzle(std::string_view name);

// Whether `name` names a puzzle file (.toml or .tws) rather than a built-in model.
bool is_puzzle_file_name(std::string_view name);

// The puzzle a parsed file describes, by its `kind`; throws ParseError as above.
AnyPuzzle load_puzzle_file(const TomlInput& file);

}  // namespace statespace
