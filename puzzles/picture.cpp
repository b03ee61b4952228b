#include "puzzles/picture.hpp"

namespace statespace {

std::vector<std::vector<std::string>> picture_rows(std::string_view text,
                                                   std::vector<std::vector<std::pair<int, int>>>* where) {
  const auto separator = [](char c) { return c == ' ' || c == '\t' || c == ',' || c == '\r'; };
  std::vector<std::vector<std::string>> rows;
  if (where) where->clear();
  int line = 0;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i <= text.size();) {
    std::size_t end = i;
    while (end < text.size() && text[end] != '\n' && text[end] != '/') ++end;
    // Cells are side by side unless the row separates them: "AAB" or "A A B".
    std::size_t first = i, last = end;
    while (first < last && separator(text[first])) ++first;
    while (last > first && separator(text[last - 1])) --last;
    bool spaced = false;
    for (std::size_t k = first; k < last; ++k) spaced = spaced || separator(text[k]);
    std::vector<std::string> row;
    std::vector<std::pair<int, int>> at;
    for (std::size_t k = first; k < last; ++k) {
      if (separator(text[k])) continue;
      if (spaced && k > first && !separator(text[k - 1])) {
        row.back() += text[k];
        continue;
      }
      row.emplace_back(1, text[k]);
      at.emplace_back(line, int(k - line_start));
    }
    if (!row.empty()) {
      rows.push_back(std::move(row));
      if (where) where->push_back(std::move(at));
    }
    if (end < text.size() && text[end] == '\n') {
      ++line;
      line_start = end + 1;
    }
    i = end + 1;
  }
  return rows;
}

Picture read_picture(std::string_view text, int max_cells) {
  // Every cell becomes a string and a position below, so a picture past the
  // encoding's limit is refused at its first surplus cell, before any of that.
  std::size_t cells = 0, line_start = 0;
  int line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c != '/' && c != ' ' && c != '\t' && c != ',' && c != '\r' && ++cells > std::size_t(max_cells)) {
      throw PictureError{line, int(i - line_start),
                         "the picture has more than " + std::to_string(max_cells) +
                             " cells, too large for the state encoding (at most " + std::to_string(max_cells) +
                             " cells)"};
    }
  }
  std::vector<std::vector<std::pair<int, int>>> where;
  const auto rows = picture_rows(text, &where);
  Picture p;
  if (rows.empty()) throw PictureError{0, 0, "empty picture (expected rows of cells)"};
  p.rows = int(rows.size());
  p.cols = int(rows[0].size());
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (int(rows[r].size()) != p.cols) {
      throw PictureError{where[r][0].first, where[r][0].second,
                         "row " + std::to_string(r + 1) + " has " + std::to_string(rows[r].size()) +
                             " cells, expected " + std::to_string(p.cols) + " (every row as long as the first)"};
    }
    for (std::size_t c = 0; c < rows[r].size(); ++c) {
      if (rows[r][c].size() != 1) {
        throw PictureError{where[r][c].first, where[r][c].second,
                           "cell '" + rows[r][c] + "' is not one character (expected " + std::string(kCellForm) + ")"};
      }
      p.cells.push_back(rows[r][c][0]);
      p.where.push_back(where[r][c]);
    }
  }
  return p;
}

}  // namespace statespace
