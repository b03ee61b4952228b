// The puzzle catalog: every model by name, so the CLI, tests and benchmarks pick
// models the same way. Engines stay templates; std::visit picks the instantiation.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "puzzles/nooff.hpp"
#include "puzzles/oshidori.hpp"
#include "puzzles/permutation_puzzle.hpp"

namespace statespace {

using AnyPuzzle = std::variant<NoOff, Hex6, Oshidori, Tiles>;

// "nooff", "hex6", "oshidori", "oshidori:N", "tiles:RxC"; throws ParseError naming
// the accepted forms.
AnyPuzzle make_puzzle(std::string_view name);

struct CatalogEntry {
  std::string name;
  std::string seed;
  std::string description;
};

// The named models, with the forms that take a size.
std::vector<CatalogEntry> catalog();

// The puzzles `analyze --all` and scripts/run.sh analyse by default.
std::vector<std::string> seed_puzzles();

}  // namespace statespace
