#include "puzzles/rush_rows.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

namespace {

constexpr int kSide = 6;

struct Field {
  std::string text;
  std::size_t column = 0;  // 0-based
};

std::vector<Field> fields(std::string_view line) {
  std::vector<Field> out;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t end = std::min(line.find_first_of(" \t", i), line.size());
    out.push_back({std::string(line.substr(i, end - i)), i});
    i = end;
  }
  return out;
}

bool is_count(const std::string& s) {
  return !s.empty() && s.size() <= 12 && s.find_first_not_of("0123456789") == std::string::npos;
}

bool is_comment_or_blank(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first == std::string_view::npos || line[first] == '#';
}

// The board's problem, or "": cells of the alphabet, each letter a straight car of
// two or three cells, A on the exit row.
std::string board_problem(const std::string& board, std::size_t& at) {
  std::map<char, std::vector<int>> cells;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    at = i;
    if (c == '.' || c == 'x') continue;
    if (!std::isupper(static_cast<unsigned char>(c))) {
      return "unexpected " + quote_input(std::string(1, c)) +
             " in the board (expected 'o' or '.' empty, 'x' a wall, a capital letter a car)";
    }
    cells[c].push_back(int(i));
  }
  for (const auto& [letter, at_cells] : cells) {
    at = std::size_t(at_cells.front());
    const int n = int(at_cells.size());
    const int r0 = at_cells.front() / kSide, c0 = at_cells.front() % kSide;
    const bool row = std::all_of(at_cells.begin(), at_cells.end(), [&](int c) { return c / kSide == r0; });
    const bool col = std::all_of(at_cells.begin(), at_cells.end(), [&](int c) { return c % kSide == c0; });
    bool straight = (row || col) && n >= 2 && n <= 3;
    for (int k = 1; straight && k < n; ++k)
      straight = at_cells[std::size_t(k)] - at_cells[std::size_t(k - 1)] == (row ? 1 : kSide);
    if (!straight) {
      return "piece '" + std::string(1, letter) + "' is not a car: " + std::to_string(n) +
             " cells (expected two or three cells in one row or one column)";
    }
    // Room along its length: the blocks loader refuses a car that can never move.
    const int before = row ? (c0 > 0 ? at_cells.front() - 1 : -1) : at_cells.front() - kSide;
    const int after = row ? (at_cells.back() % kSide < kSide - 1 ? at_cells.back() + 1 : -1) : at_cells.back() + kSide;
    const auto open = [&](int c) { return c >= 0 && c < kSide * kSide && board[std::size_t(c)] != 'x'; };
    if (!open(before) && !open(after)) {
      return "piece '" + std::string(1, letter) + "' can never move (expected room along its length)";
    }
    if (letter == 'A' && (!row || r0 != 2 || n != 2)) {
      return "the red car A is not two cells across the third row, the exit's";
    }
  }
  for (int c = 2 * kSide + kSide - 2; c < 3 * kSide; ++c) {
    if (board[std::size_t(c)] == 'x') {
      at = std::size_t(c);
      return "a wall where the red car leaves (expected no 'x' in the last two cells of the third row)";
    }
  }
  if (!cells.count('A')) {
    at = 0;
    return "no red car A (expected two cells 'AA' on the third row)";
  }
  return "";
}

}  // namespace

bool looks_like_rush_rows(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (is_comment_or_blank(line)) continue;
    const auto f = fields(line);
    return f.size() == 3 && is_count(f[0].text) && is_count(f[2].text) && f[1].text.size() == 36;
  }
  return false;
}

std::vector<RushRow> read_rush_rows(const std::filesystem::path& file, std::string_view text) {
  std::vector<RushRow> out;
  int line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (is_comment_or_blank(line)) continue;
    RushRow row;
    row.number = int(out.size()) + 1;
    row.line = line_number;
    const auto refuse = [&](std::size_t column, const std::string& what) {
      row.error = file.string() + ":" + std::to_string(line_number) + ":" + std::to_string(column + 1) + ": row " +
                  std::to_string(row.number) + ": " + what;
    };
    const auto f = fields(line);
    if (f.size() != 3) {
      refuse(f.size() > 3 ? f[3].column : line.size(), std::to_string(f.size()) +
                                                           " fields (expected MOVES BOARD CLUSTER, e.g. 51 "
                                                           "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM 4780)");
    } else if (!is_count(f[0].text)) {
      refuse(f[0].column, "bad moves " + quote_input(f[0].text) + " (expected a whole number)");
    } else if (f[1].text.size() != 36) {
      refuse(f[1].column,
             "a board of " + std::to_string(f[1].text.size()) + " characters (expected 36: six rows of six)");
    } else if (!is_count(f[2].text)) {
      refuse(f[2].column, "bad cluster size " + quote_input(f[2].text) + " (expected a whole number)");
    } else {
      row.moves = std::stoull(f[0].text);
      row.cluster = std::stoull(f[2].text);
      row.board = f[1].text;
      std::replace(row.board.begin(), row.board.end(), 'o', '.');
      std::size_t bad = 0;
      if (const std::string problem = board_problem(row.board, bad); !problem.empty())
        refuse(f[1].column + bad, problem);
    }
    out.push_back(std::move(row));
  }
  if (out.empty()) throw ParseError(file.string() + ":1:1: no Rush Hour row (expected MOVES BOARD CLUSTER)");
  return out;
}

std::string rush_row_toml(const RushRow& row, const std::string& name) {
  std::string start, goal;
  std::map<char, bool> horizontal;
  for (int r = 0; r < kSide; ++r) {
    for (int c = 0; c < kSide; ++c) {
      const char ch = row.board[std::size_t(r * kSide + c)];
      start += ch == 'x' ? '#' : ch;
      goal += ch == 'x' ? '#' : (r == 2 && c >= kSide - 2) ? 'A' : '*';
      if (c < kSide - 1) {
        start += ' ';
        goal += ' ';
      }
      if (std::isupper(static_cast<unsigned char>(ch))) {
        const bool right = c + 1 < kSide && row.board[std::size_t(r * kSide + c + 1)] == ch;
        const bool left = c > 0 && row.board[std::size_t(r * kSide + c - 1)] == ch;
        horizontal[ch] = horizontal[ch] || right || left;
      }
    }
    start += '\n';
    goal += '\n';
  }
  std::string out = "name  = \"" + name + "\"\n";
  out += "title = \"Rush Hour: " + std::to_string(row.moves) + " " +
         [&] {
           std::string b = row.board;
           std::replace(b.begin(), b.end(), '.', 'o');
           return b;
         }() +
         " " + std::to_string(row.cluster) + "\"\n";
  out += "kind  = \"blocks\"\n";
  out += "# Michael Fogleman's database row: " + std::to_string(row.moves) + " moves (slide metric), a cluster of " +
         std::to_string(row.cluster) + " positions.\n";
  out += "start = \"\"\"\n" + start + "\"\"\"\n";
  out += "moves = \"slide\"\n";
  out += "goal  = \"\"\"\n" + goal + "\"\"\"\n\n[axis]\n";
  for (const auto& [letter, h] : horizontal)
    out += std::string(1, letter) + " = \"" + (h ? "horizontal" : "vertical") + "\"\n";
  return out;
}

std::string rush_board_of(const Blocks& puzzle) {
  const std::string written = puzzle.format(puzzle.goal());
  std::string board;
  for (std::size_t i = 0; i < written.size(); ++i) {
    const char c = written[i];
    if (c == ' ' || c == '/') continue;
    board += c == '#' ? 'x' : (c == '.' || c == '_') ? 'o' : c;
  }
  const auto rows = puzzle.row_lengths();
  if (rows.size() != std::size_t(kSide) || std::any_of(rows.begin(), rows.end(), [](int n) { return n != kSide; }) ||
      board.size() != 36) {
    throw ParseError(puzzle.name() + ": not a 6x6 board (expected a Rush Hour board for a database row)");
  }
  std::string dots = board;
  std::replace(dots.begin(), dots.end(), 'o', '.');
  std::size_t at = 0;
  if (const std::string problem = board_problem(dots, at); !problem.empty()) {
    throw ParseError(puzzle.name() + ": " + problem);
  }
  return board;
}

RushRow rush_row(const std::filesystem::path& file, std::string_view text, std::string_view which) {
  const std::vector<RushRow> rows = read_rush_rows(file, text);
  std::size_t index = 0;
  if (which.empty()) {
    if (rows.size() != 1) {
      throw ParseError(file.string() + ": " + std::to_string(rows.size()) + " rows (name one: " + file.string() +
                       ":N for the N-th)");
    }
  } else {
    const bool number = which.find_first_not_of("0123456789") == std::string_view::npos && which.size() < 9;
    const int n = number ? std::stoi(std::string(which)) : 0;
    if (n < 1 || n > int(rows.size())) {
      throw ParseError(file.string() + ": no row " + quote_input(which) + " (expected 1 to " +
                       std::to_string(rows.size()) + ")");
    }
    index = std::size_t(n - 1);
  }
  if (!rows[index].error.empty()) throw ParseError(rows[index].error);
  return rows[index];
}

std::string rush_row_name(const std::filesystem::path& file, const RushRow& row) {
  std::string name = file.stem().string() + "-" + std::to_string(row.number);
  if (!name_problem(name).empty()) name = "rush-" + std::to_string(row.number);
  return name;
}

Blocks rush_row_model(const std::filesystem::path& file, const RushRow& row) {
  return load_blocks(
      TomlInput(file.string() + ":" + std::to_string(row.number), rush_row_toml(row, rush_row_name(file, row))));
}

Blocks load_rush_row(const std::filesystem::path& file, std::string_view text, std::string_view which) {
  return rush_row_model(file, rush_row(file, text, which));
}

}  // namespace statespace
