// The puzzle registry: every model the CLI, the tests and the benchmarks know, in one
// table. A row names the model's form ("tiles:RxC"), its seed document, a one-line
// description, the names `statespace list` shows, and the factory that turns a name
// of that form into a model. Engines stay templates; std::visit over AnyPuzzle picks
// the instantiation. Adding a model: its file, its alternative in AnyPuzzle, its row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "puzzles/blocks.hpp"
#include "puzzles/cell_permutation.hpp"
#include "puzzles/graph_tokens.hpp"
#include "puzzles/nooff.hpp"
#include "puzzles/oshidori.hpp"
#include "puzzles/pieces.hpp"
#include "puzzles/rules.hpp"
#include "puzzles/sliding_tiles.hpp"
#include "puzzles/sticker_pieces.hpp"
#include "puzzles/wide_pieces.hpp"

namespace statespace {

using AnyPuzzle = std::variant<NoOff, Hex6, Oshidori, Tiles, Blocks, GraphTokens, CellPermutation, Pieces,
                               GroupedStickers, Rules, WidePieces>;

struct ModelEntry {
  std::string_view form;                 // "nooff", "oshidori:N", "tiles:RxC"
  std::string_view seed;                 // the seed document it comes from, or "" for none
  std::string_view description;          // one line
  std::vector<std::string_view> listed;  // names `statespace list`, tests and benchmarks use
  std::vector<std::string_view> seeds;   // names `analyze --all` analyses
  // The model a name denotes, or nothing when the name is not of this form; throws
  // ParseError when it is of this form but malformed or out of range.
  std::optional<AnyPuzzle> (*make)(std::string_view name);
};

// The table, in the order `statespace list` prints it.
const std::vector<ModelEntry>& models();

// The model `name` denotes; throws ParseError naming the accepted forms.
AnyPuzzle make_puzzle(std::string_view name);

// "nooff, hex6, ...", every form, for help texts and errors.
std::string puzzle_forms();

// The names of every row's `listed`, and of every row's `seeds`, in table order.
std::vector<std::string> listed_puzzles();
std::vector<std::string> seed_puzzles();

}  // namespace statespace
