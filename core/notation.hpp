// The position notation shared by the CLI, tests and reports: cells separated by
// spaces (or commas), rows by " / " (or newlines), the blank as "_" ("0", "*" and
// "--" are accepted too). Models supply their row shape and piece symbols.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace statespace {

inline constexpr std::string_view kBlank = "_";

// Splits `text` into cell tokens and checks them against `row_lengths`. Written
// without row separators, any layout with the right cell count is accepted; with
// them, every row must have its length. Blank synonyms come back as "_".
// `what` (e.g. "tiles:3x3") and `example` (a valid position) go into error messages.
std::vector<std::string> split_cells(std::string_view text, const std::vector<int>& row_lengths, std::string_view what,
                                     std::string_view example);

// Joins cell symbols row by row: "1 2 3 / 4 5 6 / 7 8 _".
std::string join_cells(const std::vector<std::string>& cells, const std::vector<int>& row_lengths);

// A written position with its " / " row separators replaced by `separator`:
// "L L N O / O F F _" -> "L L N O\nO F F _" for a terminal board.
std::string with_row_separator(std::string_view position, std::string_view separator);

}  // namespace statespace
