// Argument helpers shared by generate, solvable, verify-parity and loop-sort.
// Whole-number options are read strictly: Boost.Program_options converts with
// lexical_cast, which takes "-1" for an unsigned type and wraps it to 2^64 - 1; counts,
// seeds and caps are therefore read as text and checked here, so a sign, a fraction or
// an out-of-range value is one clear error naming the option.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace::cli {

inline std::uint64_t parse_whole(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || text.empty() || value < min || value > max) {
    throw ParseError("bad " + std::string(option) + " '" + std::string(text) + "' (expected a whole number from " +
                     std::to_string(min) + " to " + std::to_string(max) + ")");
  }
  return value;
}

// The tiles:RxC model named `name`; other puzzles are refused naming `command`.
inline Tiles tiles_named(const std::string& name, std::string_view command) {
  if (!name.starts_with("tiles:")) {
    (void)make_puzzle(name);  // an unknown name gets the registry's message
    throw UsageError(std::string(command) + ": '" + name +
                     "' is not a sliding-tile board (expected tiles:RxC, e.g. tiles:4x4)");
  }
  const TilesShape shape = parse_tiles_shape(name);
  return Tiles{shape.rows, shape.cols};
}

}  // namespace statespace::cli
