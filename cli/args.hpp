// Argument helpers shared by the commands. Whole-number options are read strictly:
// Boost.Program_options converts with lexical_cast, which takes "-1" for an unsigned
// type and wraps it to 2^64 - 1; counts, limits, seeds and caps are therefore read as
// text and checked here, so a sign, a fraction or an out-of-range value is one clear
// error naming the option.
#pragma once

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "analysis/engines/explicit/explicit_space.hpp"
#include "analysis/engines/options.hpp"
#include "analysis/runtime/memory.hpp"
#include "core/errors.hpp"
#include "core/lookup.hpp"
#include "core/parse.hpp"
#include "core/text.hpp"
#include "puzzles/registry.hpp"
#include "puzzles/tiles_parity.hpp"

namespace statespace::cli {

inline std::uint64_t parse_whole(std::string_view option, std::string_view text, std::uint64_t min, std::uint64_t max) {
  const auto value = parse_number<std::uint64_t>(text);
  if (!value || *value < min || *value > max) {
    throw ParseError("bad " + std::string(option) + " " + quote_input(text) + " (expected a whole number from " +
                     with_commas(min) + " to " + with_commas(max) + ")");
  }
  return *value;
}

// A non-negative duration in seconds, e.g. "30" or "0.5".
inline double parse_seconds(std::string_view option, std::string_view text) {
  double value = -1;
  const bool digit_first = !text.empty() && text.front() >= '0' && text.front() <= '9';
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!digit_first || ec != std::errc{} || end != text.data() + text.size() || !(value <= 1e9)) {
    throw ParseError("bad " + std::string(option) + " " + quote_input(text) +
                     " (expected seconds, a number from 0 to 1000000000, e.g. 30 or 0.5)");
  }
  return value;
}

// A path option given as "" would name the current folder or the root by accident.
inline void require_nonempty(std::string_view option, const std::string& text, std::string_view expected) {
  if (text.empty()) throw ParseError("empty " + std::string(option) + " '' (expected " + std::string(expected) + ")");
}

// The --memory option of every command that allocates big tables, and its budget.
struct MemoryOption {
  std::string text;
  void add_to(boost::program_options::options_description& options) {
    options.add_options()("memory", boost::program_options::value(&text)->value_name("BYTES"),
                          "memory budget in bytes, e.g. 8G (default: 75% of RAM)");
  }
  [[nodiscard]] MemoryBudget budget() const { return text.empty() ? MemoryBudget() : MemoryBudget(parse_bytes(text)); }
};

// The --comparisons-limit option: a linear lookup's comparisons grow with the square
// of the states stored, so a large puzzle would scan for hours without a word.
inline constexpr std::string_view kComparisonsLimitDefault = "100000000000";

// The tiles:RxC model named `name`; other puzzles are refused naming `command`.
inline Tiles tiles_named(const std::string& name, std::string_view command) {
  if (!name.starts_with("tiles:")) {
    (void)make_puzzle(name);  // an unknown name gets the registry's message
    throw UsageError(std::string(command) + ": " + quote_input(name) +
                     " is not a sliding-tile board (expected tiles:RxC, e.g. tiles:4x4)");
  }
  const TilesShape shape = parse_tiles_shape(name);
  return Tiles{shape.rows, shape.cols};
}

// analyze --from on a puzzle counted up to symmetry: the group becomes the one that
// fixes that position (StartMovablePuzzle).
inline void apply_start_option(AnyPuzzle& puzzle, const std::string& from) {
  if (from.empty()) return;
  std::visit(
      [&](auto& p) {
        if constexpr (StartMovablePuzzle<std::decay_t<decltype(p)>>) p.start_at(from);
      },
      puzzle);
}

// analyze --symmetry: `rotations` counts a .tws file's positions up to the rotations
// of the whole puzzle it gives (Pieces::use_rotations), `none` (the default) one by
// one. Rules files declare theirs in the file (symmetry = "board"). A template over
// the model, for the models AnyPuzzle does not hold (HugePieces) as for those it does.
template <class P>
void apply_symmetry_to(P& p, const std::string& symmetry) {
  if (symmetry.empty() || symmetry == "none") return;
  if (symmetry != "rotations") {
    throw ParseError("bad --symmetry " + quote_input(symmetry) + " (expected rotations or none)");
  }
  if constexpr (requires { p.use_rotations(); }) {
    (void)p.use_rotations();
  } else if constexpr (requires { p.definition().rotations; }) {
    // The classes stand as their least rank: positions past 2^64 have none.
    throw UsageError("--symmetry rotations needs positions that rank below 2^64, and " + p.name() +
                     "'s do not (expected --symmetry none, the positions counted one by one)");
  } else {
    throw UsageError("--symmetry rotations applies to .tws piece puzzles, not to " + p.name() +
                     " (rules files declare symmetry = \"board\" in the file)");
  }
}
inline void apply_symmetry_option(AnyPuzzle& puzzle, const std::string& symmetry) {
  std::visit([&](auto& p) { apply_symmetry_to(p, symmetry); }, puzzle);
}

// The moves options of analyze and solve. On piece puzzles (.tws files) --moves
// picks moves by name ("U,F,R") and --metric how they become moves; on Sokoban
// levels --metric is pushes or moves; on sliding-block
// files --moves is the move rule (step, slide or path). Any other puzzle refuses both.
// A piece model (AnyPuzzle's or HugePieces) is made again from its definition.
template <class P>
void apply_piece_move_options(P& p, const std::string& moves, const std::string& metric) {
  if (moves.empty() && metric.empty()) return;
  PieceMetric m = p.metric();
  if (!metric.empty()) {
    std::string names;
    const PieceMetricInfo* found = nullptr;
    for (const auto& info : kPieceMetrics) {
      names += (names.empty() ? "" : ", ") + std::string(info.name);
      if (info.name == metric) found = &info;
    }
    if (!found) throw ParseError("bad --metric " + quote_input(metric) + " (expected one of: " + names + ")");
    m = found->metric;
  }
  std::vector<std::string> chosen = p.chosen_moves();
  if (!moves.empty()) {
    chosen.clear();
    std::size_t at = 0;
    while (at <= moves.size()) {
      const std::size_t comma = std::min(moves.find(',', at), moves.size());
      const std::string name = moves.substr(at, comma - at);
      if (name.empty()) {
        throw ParseError("bad --moves " + quote_input(moves) +
                         " (expected move names separated by commas, e.g. U,F,R)");
      }
      chosen.push_back(name);
      at = comma + 1;
    }
  }
  try {
    p = std::decay_t<decltype(p)>(p.definition(), m, chosen);
  } catch (const ParseError& e) {
    throw ParseError("--moves " + quote_input(moves) + ": " + p.name() + ": " + e.what());
  }
}

inline void apply_move_options(AnyPuzzle& puzzle, const std::string& moves, const std::string& metric) {
  if (moves.empty() && metric.empty()) return;
  std::visit(
      [&](auto& p) {
        if constexpr (requires { p.chosen_moves(); }) {
          apply_piece_move_options(p, moves, metric);
        } else if constexpr (requires { p.choose_metric(std::string_view()); }) {
          if (!moves.empty())
            throw UsageError("--moves does not apply to " + p.name() + " (use --metric pushes or moves)");
          p.choose_metric(metric);
        } else {
          if (!metric.empty()) {
            throw UsageError("--metric applies to .tws piece puzzles and Sokoban levels, not to " + p.name() +
                             " (sliding-block files choose their moves with --moves step, slide or path)");
          }
          override_moves(p, moves);
        }
      },
      puzzle);
}

}  // namespace statespace::cli
