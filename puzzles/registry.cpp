#include "puzzles/registry.hpp"

#include <charconv>

#include "core/errors.hpp"

namespace statespace {

namespace {

constexpr const char* kForms = "nooff, hex6, oshidori, oshidori:N (1..7), tiles:RxC (2 <= R, C, R*C <= 16)";

bool parse_int(std::string_view text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc{} && end == text.data() + text.size() && !text.empty();
}

[[noreturn]] void unknown(std::string_view name) {
  throw ParseError("unknown puzzle '" + std::string(name) + "' (expected one of: " + kForms + ")");
}

}  // namespace

AnyPuzzle make_puzzle(std::string_view name) {
  if (name == "nooff") return NoOff{};
  if (name == "hex6") return Hex6{};
  if (name == "oshidori") return Oshidori{3};
  if (name.starts_with("oshidori:")) {
    int n = 0;
    if (!parse_int(name.substr(9), n)) unknown(name);
    return Oshidori{n};
  }
  if (name.starts_with("tiles:")) {
    const auto dims = name.substr(6);
    const auto x = dims.find('x');
    int rows = 0, cols = 0;
    if (x == std::string_view::npos || !parse_int(dims.substr(0, x), rows) || !parse_int(dims.substr(x + 1), cols)) {
      unknown(name);
    }
    return Tiles{rows, cols};
  }
  unknown(name);
}

std::vector<CatalogEntry> catalog() {
  return {
      {"nooff", "001", "NO-OFF: 2x4 board, a 2-cell bulb that moves only sideways, N, O, O, F, F"},
      {"hex6", "003", "the 6-puzzle: 6 tiles and a blank on a hexagon with a centre"},
      {"oshidori", "003", "mandarin ducks: 3 black, 3 white stones, two blanks; moves take two stones"},
      {"oshidori:N", "003", "the same with N black and N white stones, 1 <= N <= 7"},
      {"tiles:RxC", "002/004", "the R x C sliding-tile puzzle (tiles:3x3 is the 8-puzzle, tiles:4x4 the 15-puzzle)"},
  };
}

std::vector<std::string> seed_puzzles() { return {"nooff", "hex6", "oshidori", "tiles:3x3"}; }

}  // namespace statespace
