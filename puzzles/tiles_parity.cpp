#include "puzzles/tiles_parity.hpp"

#include <algorithm>
#include <bit>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "core/parse.hpp"

namespace statespace {

namespace {

std::vector<int> row_lengths(const TilesShape& shape) { return std::vector<int>(std::size_t(shape.rows), shape.cols); }

std::vector<int> goal_cells(const TilesShape& shape) {
  std::vector<int> cells(std::size_t(shape.cells()));
  for (int i = 0; i + 1 < shape.cells(); ++i) cells[std::size_t(i)] = i + 1;
  return cells;
}

ParityReport finish(const TilesShape& shape, std::uint64_t inversions, int blank) {
  ParityReport r;
  r.shape = shape;
  r.inversions = inversions;
  r.blank_row = blank / shape.cols + 1;
  r.sum = r.even_width() ? inversions + std::uint64_t(r.blank_row) : inversions;
  r.goal_parity = r.even_width() ? shape.rows % 2 : 0;
  r.solvable = int(r.sum % 2) == r.goal_parity;
  return r;
}

}  // namespace

std::string TilesShape::name() const { return "tiles:" + std::to_string(rows) + "x" + std::to_string(cols); }

TilesShape parse_tiles_shape(std::string_view name) {
  const auto fail = [&] {
    throw ParseError("unknown board '" + std::string(name) + "' (expected tiles:RxC with 2 <= R, C <= " +
                     std::to_string(TilesShape::kMaxSide) + ", e.g. tiles:4x4)");
  };
  if (!name.starts_with("tiles:")) fail();
  const auto dims = name.substr(6);
  const auto x = dims.find('x');
  const auto rows = x == std::string_view::npos ? std::nullopt : parse_int(dims.substr(0, x));
  const auto cols = x == std::string_view::npos ? std::nullopt : parse_int(dims.substr(x + 1));
  if (!rows || !cols) fail();
  const TilesShape s{*rows, *cols};
  if (s.rows < 2 || s.cols < 2 || s.rows > TilesShape::kMaxSide || s.cols > TilesShape::kMaxSide) fail();
  return s;
}

std::vector<int> parse_tiles_cells(const TilesShape& shape, std::string_view text) {
  const std::string example = format_tiles_cells(shape, goal_cells(shape));
  const auto tokens = split_cells(text, row_lengths(shape), shape.name(), example);
  const int n = shape.cells();
  std::vector<int> cells(static_cast<std::size_t>(n));
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  const std::string pieces = "tiles 1.." + std::to_string(n - 1) + " and _ for the blank";
  for (int i = 0; i < n; ++i) {
    const std::string& t = tokens[std::size_t(i)];
    const int v = t == kBlank ? 0 : parse_int(t).value_or(-1);
    if (t != kBlank && (v < 1 || v >= n)) {
      throw ParseError(shape.name() + ": unknown piece '" + t + "' in cell " + std::to_string(i + 1) + " (expected " +
                       pieces + ", e.g. \"" + example + "\")");
    }
    if (seen[std::size_t(v)]) {
      throw ParseError(shape.name() + ": piece '" + t + "' appears twice (expected each of " + pieces +
                       " exactly once, e.g. \"" + example + "\")");
    }
    seen[std::size_t(v)] = true;
    cells[std::size_t(i)] = v;
  }
  return cells;
}

std::string format_tiles_cells(const TilesShape& shape, std::span<const int> cells) {
  std::vector<std::string> symbols;
  symbols.reserve(cells.size());
  for (int v : cells) symbols.push_back(v ? std::to_string(v) : std::string(kBlank));
  return join_cells(symbols, row_lengths(shape));
}

ParityReport tiles_parity(const TilesShape& shape, std::span<const int> cells) {
  // O(n^2) pair count: boards of up to 32 x 32 cells take well under a millisecond.
  std::uint64_t inversions = 0;
  int blank = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == 0) {
      blank = int(i);
      continue;
    }
    for (std::size_t j = i + 1; j < cells.size(); ++j) inversions += cells[j] != 0 && cells[j] < cells[i];
  }
  return finish(shape, inversions, blank);
}

ParityReport tiles_parity(int rows, int cols, Board b) {
  std::vector<int> cells(std::size_t(rows * cols));
  for (int i = 0; i < rows * cols; ++i) cells[std::size_t(i)] = int(b.at(i));
  return tiles_parity(TilesShape{rows, cols}, cells);
}

bool tiles_solvable(int rows, int cols, Board b) {
  const int n = rows * cols;
  std::uint32_t seen = 0;
  unsigned inversions = 0;
  int blank = 0;
  for (int i = 0; i < n; ++i) {
    const unsigned v = b.at(i);
    if (v == 0) {
      blank = i;
      continue;
    }
    inversions += unsigned(std::popcount(seen >> v));  // earlier tiles larger than v
    seen |= 1u << v;
  }
  const unsigned blank_term = cols % 2 == 0 ? unsigned(blank / cols + 1) : 0u;
  const unsigned goal = cols % 2 == 0 ? unsigned(rows % 2) : 0u;
  return ((inversions + blank_term) & 1u) == goal;
}

namespace {

// Greedy word wrap at `width` columns.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out, line, word;
  const auto flush_word = [&] {
    if (word.empty()) return;
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush_word();
    } else {
      word += c;
    }
  }
  flush_word();
  return out + line + "\n";
}

std::string row(const std::string& label, const std::string& value, const std::string& note) {
  std::string out = label;
  out.resize(12, ' ');
  out += value;
  if (note.empty()) return out + "\n";
  out.resize(std::max<std::size_t>(out.size() + 2, 22), ' ');
  return out + note + "\n";
}

}  // namespace

std::string explain_parity(const ParityReport& r) {
  const auto& s = r.shape;
  const std::string rows = std::to_string(s.rows), width = std::to_string(s.cols);
  const auto parity = [](std::uint64_t v) { return std::string(v % 2 ? "odd" : "even"); };
  const std::string goal_parity = parity(std::uint64_t(r.goal_parity));
  std::string out;
  out += row("inversions", std::to_string(r.inversions), "pairs of tiles out of order, read row by row, blank ignored");
  out += row("blank row", std::to_string(r.blank_row), "counted 1.." + rows + " from the top");
  if (r.even_width()) {
    out += row("sum", std::to_string(r.sum), "inversions + blank row");
    out += row("parity", parity(r.sum), "the goal has 0 + " + rows + " = " + rows + ", " + goal_parity);
  } else {
    out += row("sum", std::to_string(r.sum), "inversions alone: the width is odd, the blank row does not count");
    out += row("parity", parity(r.sum), "the goal has 0 inversions, even");
  }
  out += row("verdict", r.solvable ? "solvable" : "unsolvable", "");
  std::string why = "why: the width " + width + " is " + (r.even_width() ? "even" : "odd") +
                    ". A horizontal move keeps the order of the tiles; a vertical move lifts one tile over " +
                    std::to_string(s.cols - 1) + " others";
  why += r.even_width() ? " (odd: the inversions change parity) and moves the blank one row, so inversions + blank "
                          "row never changes parity."
                        : " (even), so the inversions never change parity and the blank's row plays no part.";
  why += r.solvable ? " Same parity as the goal, and that is enough to reach it (Johnson & Story 1879)."
                    : " The goal's parity differs: no sequence of moves reaches it.";
  return out + wrap(why, 88);
}

}  // namespace statespace
