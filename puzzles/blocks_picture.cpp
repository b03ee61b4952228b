#include "puzzles/blocks_picture.hpp"

#include <algorithm>

namespace statespace::blocks_picture {

std::map<char, std::vector<int>> piece_cells(const Picture& p) {
  std::map<char, std::vector<int>> out;
  for (int i = 0; i < int(p.cells.size()); ++i) {
    if (is_piece_char(p.cells[i])) out[p.cells[i]].push_back(i);
  }
  return out;
}

bool connected(const std::vector<int>& cells, int cols) {
  std::vector<int> seen{cells[0]}, todo{cells[0]};
  while (!todo.empty()) {
    const int at = todo.back();
    todo.pop_back();
    for (const int next : cells) {
      const bool adjacent = (next == at - cols || next == at + cols || (next == at - 1 && at % cols != 0) ||
                             (next == at + 1 && next % cols != 0));
      if (adjacent && std::find(seen.begin(), seen.end(), next) == seen.end()) {
        seen.push_back(next);
        todo.push_back(next);
      }
    }
  }
  return seen.size() == cells.size();
}

std::vector<std::pair<int, int>> shape_of(const std::vector<int>& cells, int cols) {
  std::vector<std::pair<int, int>> shape;
  for (const int c : cells) shape.emplace_back(c / cols - cells[0] / cols, c % cols - cells[0] % cols);
  return shape;
}

std::string shape_name(const std::vector<std::pair<int, int>>& shape) {
  int h = 0, w = 0, left = 0;
  for (const auto& [r, c] : shape) left = std::min(left, c);
  for (const auto& [r, c] : shape) h = std::max(h, r + 1), w = std::max(w, c - left + 1);
  const bool rect = int(shape.size()) == h * w;
  return std::to_string(h) + "x" + std::to_string(w) + (rect ? "" : " (" + std::to_string(shape.size()) + " cells)");
}

}  // namespace statespace::blocks_picture
