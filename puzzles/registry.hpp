// The puzzle registry: every model the CLI, the tests and the benchmarks know, in one
// table. A row names the model's form ("tiles:RxC"), its seed document, a one-line
// description, the names `statespace list` shows, and the factory that turns a name
// of that form into a model. Engines stay templates; std::visit over AnyPuzzle picks
// the instantiation. Adding a model: its files, its row in puzzles/models.def, and a
// row here when it is built in (a model read from files gets its row in
// puzzles/puzzle_file.cpp's kinds instead).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// The models' headers, then (inside the namespace) their types.
#include "puzzles/models.def"

namespace statespace {

namespace detail {
template <class Ignored, class... Models>
struct ModelVariant {
  using type = std::variant<Models...>;
};
}  // namespace detail

// Every model of puzzles/models.def, in its order.
#define STATESPACE_MODEL(family, Type, ...) , Type
using AnyPuzzle = detail::ModelVariant<void
#include "puzzles/models.def"
                                       >::type;
#undef STATESPACE_MODEL

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
