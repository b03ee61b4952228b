// Labels on numbered cells, shared by the graph and permutation puzzle files: a
// position is up to 32 one-byte codes (ByteCells<32>), one per cell, each code
// standing for a label of the file ("1", "U", "_"). Cells with equal labels are
// indistinguishable, so a position is an arrangement of the start's multiset of
// labels. Codes follow the labels' order (shorter first, then by text: 2 before 10),
// so code order, the canonical order of reports, reads naturally; in graph files the
// empty vertex "_" is code 0.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/byte_cells.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

using CellState = ByteCells<32>;
static_assert(sizeof(CellState) == 32);

class CellLabels {
 public:
  static constexpr int kMaxCells = 32;

  CellLabels() = default;
  // Labels and row shape from the file: `start` (already read from key "start") and
  // the optional key `rows`, an array of row lengths summing to the cell count.
  // `blank_code_zero`: "_" is the empty vertex, code 0 (graph files).
  CellLabels(const TomlInput& file, const toml::node& start_node, const std::string& start, bool blank_code_zero);

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] int cells() const { return cells_; }
  [[nodiscard]] int codes() const { return int(labels_.size()); }
  [[nodiscard]] const std::vector<int>& rows() const { return rows_; }
  [[nodiscard]] const std::string& label(int code) const { return labels_[std::size_t(code)]; }
  // How many cells of the start carry each code.
  [[nodiscard]] const std::vector<int>& counts() const { return counts_; }
  [[nodiscard]] const CellState& start() const { return start_; }

  [[nodiscard]] std::string format(const CellState& s) const;
  // A position of this puzzle: the start's labels in any order; throws ParseError.
  [[nodiscard]] CellState parse(std::string_view text) const;
  // parse() for a position in the file (the key `goal`): errors at FILE:LINE:COLUMN.
  [[nodiscard]] CellState parse_at(const TomlInput& file, const toml::node& at, std::string_view text) const;

 private:
  std::string name_;
  int cells_ = 0;
  std::vector<std::string> labels_;
  std::vector<int> rows_;
  std::vector<int> counts_;
  CellState start_;
};

// Fails at the character `offset` of the string at `at` when the string is on one
// line (a basic string: one quote before the text), else at the string's start.
[[noreturn]] void fail_in_string(const TomlInput& file, const toml::node& at, std::size_t offset,
                                 std::string_view message);

// Tokens separated by spaces, commas or newlines, each with its offset in `text`.
struct Token {
  std::string text;
  std::size_t offset = 0;
};
// At most `most` of them: a reader that knows how many it can use stops there.
[[nodiscard]] std::vector<Token> words(std::string_view text, std::size_t most = std::size_t(-1));

// The number of arrangements of `counts`, saturated at `cap`.
[[nodiscard]] std::uint64_t arrangements(const std::vector<int>& counts, std::uint64_t cap);

}  // namespace statespace
