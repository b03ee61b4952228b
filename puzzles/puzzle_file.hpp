// Puzzle files (`statespace analyze my-puzzle.toml`, `cube2.tws`): one table of
// kinds, each read by one entry point of its own file, load_<kind>. A .toml file's
// `kind` picks the row that reads the rest; every TOML kind shares the keys `name`,
// `title` and `kind`, and the error form of puzzles/toml_input.hpp. A file of another
// format (twsearch's .tws) is a row known by its extension alone.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "puzzles/registry.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

// A TOML kind's loader reads the parsed file; another format's reads the file itself.
using TomlKindLoader = AnyPuzzle (*)(const TomlInput& file);
using FileKindLoader = AnyPuzzle (*)(const std::filesystem::path& file);

struct PuzzleKind {
  std::string_view extension;    // ".toml" or ".tws": the files of this kind
  std::string_view name;         // a .toml file's `kind`; for another format, its name
  std::string_view description;  // one line, for help texts
  std::variant<TomlKindLoader, FileKindLoader> load;
};

// Every kind of puzzle file, in the order help texts list them.
const std::vector<PuzzleKind>& puzzle_kinds();

// The puzzle in file `name` when its extension is a kind's, else nothing; throws
// ParseError (FILE:LINE:COLUMN:) for a file that cannot be read or is not a valid
// puzzle.
std::optional<AnyPuzzle> make_file_puzzle(std::string_view name);

// Whether `name` names a puzzle file (.toml or .tws) rather than a built-in model.
bool is_puzzle_file_name(std::string_view name);

// The puzzle a parsed .toml file describes, by its `kind`; throws ParseError as above.
AnyPuzzle load_puzzle_file(const TomlInput& file);

}  // namespace statespace
