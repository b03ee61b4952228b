#include "puzzles/sliding_tiles.hpp"

#include <charconv>

#include "core/errors.hpp"
#include "core/notation.hpp"

namespace statespace {

PermutationPuzzle::PermutationPuzzle(std::string name, std::vector<int> row_lengths,
                                     const std::vector<std::vector<int>>& adjacency)
    : name_(std::move(name)), row_lengths_(std::move(row_lengths)), n_(int(adjacency.size())) {
  for (int c = 0; c < n_; ++c) {
    degree_[c] = std::uint8_t(adjacency[c].size());
    for (std::size_t k = 0; k < adjacency[c].size(); ++k) adjacency_[c][k] = std::int8_t(adjacency[c][k]);
  }
}

Board PermutationPuzzle::goal() const {
  Board b;
  for (int i = 0; i + 1 < n_; ++i) b.set(i, unsigned(i + 1));
  return b;
}

std::string PermutationPuzzle::format(State s) const {
  std::vector<std::string> cells(n_);
  for (int i = 0; i < n_; ++i) cells[i] = s.at(i) ? std::to_string(s.at(i)) : std::string(kBlank);
  return join_cells(cells, row_lengths_);
}

Board PermutationPuzzle::parse(std::string_view text) const {
  const std::string example = format(goal());
  const auto cells = split_cells(text, row_lengths_, name_, example);
  const std::string pieces = "tiles 1.." + std::to_string(n_ - 1) + " and _ for the blank";
  Board b;
  std::uint32_t seen = 0;
  for (int i = 0; i < n_; ++i) {
    const std::string& t = cells[i];
    int v = 0;
    if (t != kBlank) {
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      if (ec != std::errc{} || end != t.data() + t.size() || v < 1 || v >= n_) {
        throw ParseError(name_ + ": unknown piece '" + t + "' in cell " + std::to_string(i + 1) + " (expected " +
                         pieces + ", e.g. \"" + example + "\")");
      }
    }
    if (seen & (1u << v)) {
      throw ParseError(name_ + ": piece '" + t + "' appears twice (expected each of " + pieces +
                       " exactly once, e.g. \"" + example + "\")");
    }
    seen |= 1u << v;
    b.set(i, unsigned(v));
  }
  return b;  // n distinct codes in [0, n) cover every piece, so none can be missing
}

namespace {

// Clamped so that a bad size reaches grid_adjacency's error, not a huge allocation.
std::vector<int> repeat(int count, int value) { return std::vector<int>(std::size_t(count > 0 ? count : 0), value); }

std::vector<std::vector<int>> grid_adjacency(int rows, int cols) {
  if (rows < 2 || cols < 2 || rows * cols > Board::kMaxCells) {
    throw ParseError("tiles:" + std::to_string(rows) + "x" + std::to_string(cols) +
                     ": unsupported board (expected tiles:RxC with 2 <= R, C and R*C <= 16)");
  }
  std::vector<std::vector<int>> adj(std::size_t(rows * cols));
  for (int c = 0; c < rows * cols; ++c) {
    const int r = c / cols, k = c % cols;
    if (r > 0) adj[c].push_back(c - cols);
    if (k > 0) adj[c].push_back(c - 1);
    if (k + 1 < cols) adj[c].push_back(c + 1);
    if (r + 1 < rows) adj[c].push_back(c + cols);
  }
  return adj;
}

}  // namespace

Hex6::Hex6()
    : PermutationPuzzle("hex6", {2, 3, 2},
                        {{1, 2, 3}, {0, 3, 4}, {0, 3, 5}, {0, 1, 2, 4, 5, 6}, {1, 3, 6}, {2, 3, 6}, {3, 4, 5}}) {}

BoardGeometry Hex6::cell_geometry() const {
  BoardGeometry g = row_geometry(row_lengths());
  g.shape = CellShape::kHexagon;
  for (auto& cell : g.cells) cell.y *= 0.8660254037844386;  // sqrt(3) / 2: neighbours one cell apart
  return g;
}

Tiles::Tiles(int rows, int cols)
    : PermutationPuzzle("tiles:" + std::to_string(rows) + "x" + std::to_string(cols), repeat(rows, cols),
                        grid_adjacency(rows, cols)),
      rows_(rows),
      cols_(cols) {}

namespace {

// Parity of the permutation held in cells [0, n): n minus its number of cycles.
int permutation_parity(Board b, int n) {
  std::uint32_t seen = 0;
  int cycles = 0;
  for (int i = 0; i < n; ++i) {
    if (seen & (1u << i)) continue;
    ++cycles;
    for (int j = i; !(seen & (1u << j)); j = int(b.at(j))) seen |= 1u << j;
  }
  return (n - cycles) & 1;
}

}  // namespace

bool Tiles::same_class(State a, State b) const {
  const auto colour = [&](State s) {
    const int blank = find_blank(s, cells());
    return (blank / cols_ + blank % cols_) & 1;
  };
  return ((permutation_parity(a, cells()) + colour(a)) & 1) == ((permutation_parity(b, cells()) + colour(b)) & 1);
}

std::vector<Board> Tiles::symmetry_representatives() const {
  std::vector<Board> out;
  for (int blank = 0; blank < cells(); ++blank) {
    Board s;
    for (int c = 0, tile = 1; c < cells(); ++c) s.set(c, c == blank ? 0u : unsigned(tile++));
    Board swapped = s;
    const int one = s.at(0) == 1 ? 0 : 1;
    const int two = s.at(one + 1) == 2 ? one + 1 : one + 2;
    swapped.set(one, 2);
    swapped.set(two, 1);
    out.push_back(s);
    out.push_back(swapped);
  }
  return out;
}

}  // namespace statespace
