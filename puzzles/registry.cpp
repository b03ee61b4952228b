#include "puzzles/registry.hpp"

#include "core/errors.hpp"
#include "core/parse.hpp"
#include "puzzles/puzzle_file.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace {

namespace {

template <class Model>
std::optional<AnyPuzzle> exactly(std::string_view name, std::string_view wanted) {
  if (name != wanted) return std::nullopt;
  return Model{};
}

std::optional<AnyPuzzle> make_oshidori(std::string_view name) {
  if (name == "oshidori") return Oshidori{3};
  if (!name.starts_with("oshidori:")) return std::nullopt;
  const auto n = parse_int(name.substr(9));
  if (!n || *n < 1 || *n > Oshidori::kMaxPairs) {
    throw ParseError("bad puzzle '" + std::string(name) + "' (expected oshidori:N with 1 <= N <= 7)");
  }
  return Oshidori{*n};
}

std::optional<AnyPuzzle> make_tiles(std::string_view name) {
  if (!name.starts_with("tiles:")) return std::nullopt;
  const TilesShape shape = parse_tiles_shape(name);
  return Tiles{shape.rows, shape.cols};
}

}  // namespace

const std::vector<ModelEntry>& models() {
  static const std::vector<ModelEntry> table = {
      {"nooff",
       "001",
       "NO-OFF: 2x4 board, a 2-cell bulb that moves only sideways, N, O, O, F, F",
       {"nooff"},
       {"nooff"},
       [](std::string_view name) { return exactly<NoOff>(name, "nooff"); }},
      {"hex6",
       "003",
       "the 6-puzzle: 6 tiles and a blank on a hexagon with a centre",
       {"hex6"},
       {"hex6"},
       [](std::string_view name) { return exactly<Hex6>(name, "hex6"); }},
      {"oshidori:N",
       "003",
       "mandarin ducks: N black, N white stones, two blanks; moves take two stones (N = 3 by default, 1..7)",
       {"oshidori"},
       {"oshidori"},
       make_oshidori},
      {"tiles:RxC",
       "002/004",
       "the R x C sliding-tile puzzle, 2 <= R, C and R*C <= 16 (3x3: the 8-puzzle, 4x4: the 15-puzzle)",
       {"tiles:2x2", "tiles:2x3", "tiles:3x3", "tiles:2x5", "tiles:3x4", "tiles:4x4"},
       {"tiles:3x3"},
       make_tiles},
      // Files: make_file_puzzle reads every kind of puzzle_kinds(), by extension; a
      // row per extension so that help texts name each form.
      {"FILE.toml", "", "a puzzle described in a TOML file (see docs/puzzle-files.md)", {}, {}, make_file_puzzle},
      {"FILE.tws",
       "",
       "a twisty puzzle in twsearch's .tws format (see docs/puzzle-files.md)",
       {},
       {},
       make_file_puzzle},
      {"FILE.xsb[:N]",
       "",
       "Sokoban levels in XSB (.xsb, .sok, .txt), FILE:N or FILE:TITLE for one of many (see docs/puzzle-files.md)",
       {},
       {},
       make_file_puzzle},
  };
  return table;
}

std::string puzzle_forms() {
  std::string forms;
  for (const auto& m : models()) forms += (forms.empty() ? "" : ", ") + std::string(m.form);
  return forms;
}

AnyPuzzle make_puzzle(std::string_view name) {
  for (const auto& m : models()) {
    if (auto p = m.make(name)) return std::move(*p);
  }
  throw ParseError("unknown puzzle '" + std::string(name) + "' (expected one of: " + puzzle_forms() + ")");
}

std::vector<std::string> listed_puzzles() {
  std::vector<std::string> out;
  for (const auto& m : models()) out.insert(out.end(), m.listed.begin(), m.listed.end());
  return out;
}

std::vector<std::string> seed_puzzles() {
  std::vector<std::string> out;
  for (const auto& m : models()) out.insert(out.end(), m.seeds.begin(), m.seeds.end());
  return out;
}

}  // namespace statespace
