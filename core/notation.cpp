#include "core/notation.hpp"

#include <numeric>

#include "core/errors.hpp"

namespace statespace {

namespace {

bool is_cell_separator(char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; }

std::string normalise(std::string token) {
  if (token == "0" || token == "*" || token == "--") return std::string(kBlank);
  return token;
}

}  // namespace

std::vector<std::string> split_cells(std::string_view text, const std::vector<int>& row_lengths, std::string_view what,
                                     std::string_view example) {
  const auto form = [&] { return " (expected form: \"" + std::string(example) + "\")"; };
  std::vector<std::vector<std::string>> rows(1);
  std::string token;
  const auto flush = [&] {
    if (!token.empty()) rows.back().push_back(normalise(std::move(token)));
    token.clear();
  };
  for (char c : text) {
    if (c == '/' || c == '\n') {
      flush();
      rows.emplace_back();
    } else if (is_cell_separator(c)) {
      flush();
    } else {
      token += c;
    }
  }
  flush();
  std::erase_if(rows, [](const auto& r) { return r.empty(); });

  const int expected = std::accumulate(row_lengths.begin(), row_lengths.end(), 0);
  std::vector<std::string> cells;
  for (const auto& r : rows) cells.insert(cells.end(), r.begin(), r.end());
  if (int(cells.size()) != expected) {
    throw ParseError(std::string(what) + ": position has " + std::to_string(cells.size()) + " cells, expected " +
                     std::to_string(expected) + form());
  }
  if (rows.size() > 1) {
    if (rows.size() != row_lengths.size()) {
      throw ParseError(std::string(what) + ": position has " + std::to_string(rows.size()) + " rows, expected " +
                       std::to_string(row_lengths.size()) + form());
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (int(rows[i].size()) != row_lengths[i]) {
        throw ParseError(std::string(what) + ": row " + std::to_string(i + 1) + " has " +
                         std::to_string(rows[i].size()) + " cells, expected " + std::to_string(row_lengths[i]) +
                         form());
      }
    }
  }
  return cells;
}

std::string join_cells(const std::vector<std::string>& cells, const std::vector<int>& row_lengths) {
  std::string out;
  std::size_t i = 0;
  for (std::size_t r = 0; r < row_lengths.size(); ++r) {
    if (r) out += " / ";
    for (int c = 0; c < row_lengths[r]; ++c, ++i) {
      if (c) out += ' ';
      out += cells[i];
    }
  }
  return out;
}

std::string with_row_separator(std::string_view position, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < position.size(); ++i) {
    if (position.substr(i, 3) == " / ") {
      out += separator;
      i += 2;
    } else {
      out += position[i];
    }
  }
  return out;
}

}  // namespace statespace
