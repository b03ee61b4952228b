#include "puzzles/xsb_file.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

namespace {

constexpr std::string_view kBoardCharacters = "#@+$*. -_";

bool is_board_line(std::string_view line) {
  return line.find('#') != std::string_view::npos && line.find_first_not_of(kBoardCharacters) == std::string_view::npos;
}

// A line inside a level that starts like a board line but holds another character.
bool is_broken_board_line(std::string_view line) {
  const std::size_t first = line.find_first_not_of(' ');
  return first != std::string_view::npos && kBoardCharacters.find(line[first]) != std::string_view::npos &&
         line.find('#') != std::string_view::npos;
}

std::string trimmed(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string_view::npos ? std::string() : std::string(s.substr(a, b - a + 1));
}

// "Title: x" -> "x", case aside.
std::optional<std::string> title_line(std::string_view line) {
  const std::string t = trimmed(line);
  if (t.size() < 6) return std::nullopt;
  std::string head = t.substr(0, 6);
  std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (head != "title:") return std::nullopt;
  return trimmed(std::string_view(t).substr(6));
}

// A report folder's name from the title: its letters, digits, '-', '_' and '.', the
// rest as '-'; the file's stem and the level's number when that leaves no name.
std::string level_name(const std::filesystem::path& file, const std::string& title, int number) {
  std::string name;
  for (const char c : title) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    if (keep) {
      name += c;
    } else if (!name.empty() && name.back() != '-') {
      name += '-';
    }
  }
  while (!name.empty() && (name.back() == '-' || name.back() == '.')) name.pop_back();
  while (!name.empty() && name.front() == '.') name.erase(name.begin());
  if (name.size() > 48) name.resize(48);
  std::string fallback = file.stem().string() + "-" + std::to_string(number);
  if (!name_problem(fallback).empty()) fallback = "level-" + std::to_string(number);
  const bool digits = name.find_first_not_of("0123456789") == std::string::npos;
  if (name.empty() || digits || !name_problem(name).empty()) return fallback;
  return name;
}

struct Block {
  int first = 0;                   // 0-based line of the first board line
  std::vector<std::string> lines;  // the board lines
  std::string title;
};

// Checks one level and builds it; returns the refusal ("LINE:COLUMN: ...") or "".
std::string build(const Block& b, SokobanLevel& level) {
  const auto at = [&](int r, int c, const std::string& what) {
    return std::to_string(b.first + r + 1) + ":" + std::to_string(c + 1) + ": " + what;
  };
  level.rows = int(b.lines.size());
  level.cols = 0;
  for (const auto& l : b.lines) level.cols = std::max(level.cols, int(l.size()));
  if (level.rows * level.cols > 4096) return at(0, 0, "larger than 4,096 cells (expected a level of at most 64x64)");
  const int cells = level.rows * level.cols;
  std::string grid(std::size_t(cells), ' ');
  for (int r = 0; r < level.rows; ++r) {
    for (std::size_t c = 0; c < b.lines[std::size_t(r)].size(); ++c) {
      grid[std::size_t(r * level.cols) + c] = b.lines[std::size_t(r)][c];
    }
  }
  int keeper = -1;
  for (int c = 0; c < cells; ++c) {
    const char ch = grid[std::size_t(c)];
    if (ch != '@' && ch != '+') continue;
    if (keeper >= 0) return at(c / level.cols, c % level.cols, "a second keeper (expected one '@' or '+')");
    keeper = c;
  }
  if (keeper < 0) return at(0, 0, "no keeper (expected one '@' or '+')");
  // The keeper's area, boxes ignored: it must stay inside the walls.
  std::vector<char> reached(std::size_t(cells), 0);
  std::vector<int> stack{keeper};
  reached[std::size_t(keeper)] = 1;
  while (!stack.empty()) {
    const int c = stack.back();
    stack.pop_back();
    const int r = c / level.cols, col = c % level.cols;
    const int dr[4] = {0, -1, 0, 1}, dc[4] = {-1, 0, 1, 0};
    for (int d = 0; d < 4; ++d) {
      const int nr = r + dr[d], nc = col + dc[d];
      if (nr < 0 || nr >= level.rows || nc < 0 || nc >= level.cols || nc >= int(b.lines[std::size_t(nr)].size())) {
        return at(r, col,
                  "not closed by walls: the keeper can walk off the level from here (expected walls '#' "
                  "around the keeper's area)");
      }
      const int t = nr * level.cols + nc;
      if (grid[std::size_t(t)] == '#' || reached[std::size_t(t)]) continue;
      reached[std::size_t(t)] = 1;
      stack.push_back(t);
    }
  }
  level.walls.assign(std::size_t(cells), ' ');
  int floor = 0;
  for (int c = 0; c < cells; ++c) {
    const char ch = grid[std::size_t(c)];
    if (ch == '#') level.walls[std::size_t(c)] = '#';
    if (reached[std::size_t(c)]) {
      level.walls[std::size_t(c)] = '-';
      ++floor;
    }
    const bool box = ch == '$' || ch == '*', goal = ch == '.' || ch == '*' || ch == '+';
    if ((box || goal) && !reached[std::size_t(c)]) {
      return at(c / level.cols, c % level.cols,
                std::string(box ? "a box" : "a goal") +
                    " the keeper cannot reach (expected every box and goal "
                    "inside the keeper's area)");
    }
    if (box) level.boxes.push_back(c);
    if (goal) level.goals.push_back(c);
  }
  if (level.boxes.empty()) return at(0, 0, "no box (expected at least one '$' or '*')");
  if (level.boxes.size() != level.goals.size()) {
    return at(0, 0,
              std::to_string(level.boxes.size()) + " boxes and " + std::to_string(level.goals.size()) +
                  " goals (expected as many goals '.', '*' or '+' as boxes '$' or '*')");
  }
  if (floor > Sokoban::kMaxFloor) {
    return at(0, 0,
              std::to_string(floor) + " floor cells (expected at most " + std::to_string(Sokoban::kMaxFloor) + ")");
  }
  level.keeper = keeper;
  return "";
}

}  // namespace

std::vector<XsbEntry> read_xsb(const std::filesystem::path& file, std::string_view text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line(text.substr(at, end - at));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Tabs in a board line stand for nothing the format defines: refused below.
    lines.push_back(std::move(line));
    at = end + 1;
  }
  std::vector<XsbEntry> out;
  std::vector<Block> blocks;
  std::vector<std::string> errors;  // per block: a refusal of its lines, or ""
  std::vector<std::size_t> ends;    // per block: the line after it
  for (std::size_t i = 0; i < lines.size();) {
    if (!is_board_line(lines[i])) {
      ++i;
      continue;
    }
    Block b;
    b.first = int(i);
    std::string error;
    while (i < lines.size()) {
      if (is_board_line(lines[i])) {
        b.lines.push_back(lines[i++]);
        continue;
      }
      if (is_broken_board_line(lines[i])) {
        const std::size_t bad = lines[i].find_first_not_of(kBoardCharacters);
        if (error.empty()) {
          error = std::to_string(i + 1) + ":" + std::to_string(bad + 1) + ": unexpected " +
                  quote_input(lines[i].substr(bad, 1)) + " in a level (expected # @ + $ * . space - _)";
        }
        b.lines.push_back(lines[i++]);
        continue;
      }
      break;
    }
    blocks.push_back(std::move(b));
    errors.push_back(error);
    ends.push_back(i);
  }
  // Titles: from "Title:" lines when the file has any (after its level; the first
  // level's may also stand before it), else the last text line before the level.
  const bool titled = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return title_line(l); });
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const std::size_t before = k == 0 ? 0 : ends[k - 1];
    const std::size_t after = k + 1 < blocks.size() ? std::size_t(blocks[k + 1].first) : lines.size();
    if (titled) {
      for (std::size_t j = ends[k]; j < after && blocks[k].title.empty(); ++j) {
        if (const auto t = title_line(lines[j])) blocks[k].title = *t;
      }
      for (std::size_t j = before; k == 0 && j < std::size_t(blocks[k].first) && blocks[k].title.empty(); ++j) {
        if (const auto t = title_line(lines[j])) blocks[k].title = *t;
      }
      continue;
    }
    for (std::size_t j = before; j < std::size_t(blocks[k].first); ++j) {
      const std::string t = trimmed(lines[j]);
      if (!t.empty()) blocks[k].title = t.front() == ';' ? trimmed(std::string_view(t).substr(1)) : t;
    }
  }
  if (blocks.empty()) {
    throw ParseError(file.string() + ":1:1: no Sokoban level (expected XSB lines of # @ + $ * . and floor)");
  }
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    XsbEntry e;
    e.number = int(k) + 1;
    e.line = blocks[k].first + 1;
    e.title = escape_controls(blocks[k].title);
    if (e.title.empty()) e.title = "level " + std::to_string(e.number);
    SokobanLevel level;
    std::string error = errors[k].empty() ? build(blocks[k], level) : errors[k];
    if (!error.empty()) {
      const std::size_t colon = error.find(':', error.find(':') + 1);
      e.error = file.string() + ":" + error.substr(0, colon) + ": level " + std::to_string(e.number) + ":" +
                error.substr(colon + 1);
    } else {
      level.title = e.title;
      level.name = level_name(file, blocks[k].title, e.number);
      e.level = std::move(level);
    }
    out.push_back(std::move(e));
  }
  // Two levels of one title would write one report folder: the later ones get numbers.
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (!out[k].level) continue;
    for (std::size_t j = 0; j < k; ++j) {
      if (out[j].level && out[j].level->name == out[k].level->name) {
        out[k].level->name = level_name(file, "", out[k].number);
        break;
      }
    }
  }
  return out;
}

std::vector<XsbEntry> read_xsb_file(const std::filesystem::path& file) {
  return read_xsb(file, read_collection_text(file));
}

std::string read_collection_text(const std::filesystem::path& file) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw ParseError(file.string() + ":1:1: cannot read the file (expected a readable XSB collection)");
  if (size > kMaxXsbBytes) {
    throw ParseError(file.string() + ":1:1: " + with_commas(size) + " bytes (expected at most " +
                     with_commas(kMaxXsbBytes) + ")");
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw ParseError(file.string() + ":1:1: cannot read the file (expected a readable XSB collection)");
  return text.str();
}

Sokoban load_xsb_level(const std::filesystem::path& file, std::string_view which) {
  const std::vector<XsbEntry> levels = read_xsb_file(file);
  const XsbEntry* chosen = nullptr;
  if (which.empty()) {
    if (levels.size() != 1) {
      throw ParseError(file.string() + ": " + std::to_string(levels.size()) + " levels (name one: " + file.string() +
                       ":N for the N-th, or " + file.string() + ":TITLE)");
    }
    chosen = &levels.front();
  } else if (which.find_first_not_of("0123456789") == std::string_view::npos && which.size() < 9) {
    const int n = std::stoi(std::string(which));
    if (n < 1 || n > int(levels.size())) {
      throw ParseError(file.string() + ": no level " + std::string(which) + " (expected 1 to " +
                       std::to_string(levels.size()) + ")");
    }
    chosen = &levels[std::size_t(n - 1)];
  } else {
    for (const auto& e : levels) {
      if (e.title == which || (e.level && e.level->name == which)) {
        chosen = &e;
        break;
      }
    }
    if (!chosen) {
      throw ParseError(file.string() + ": no level titled " + quote_input(which) + " (expected a number from 1 to " +
                       std::to_string(levels.size()) + " or a level's title)");
    }
  }
  if (!chosen->level) throw ParseError(chosen->error);
  return Sokoban(*chosen->level, SokobanMetric::kPushes);
}

bool is_xsb_name(std::string_view name) {
  const std::size_t colon = name.rfind(':');
  for (const std::string_view ext : {".xsb", ".sok", ".txt"}) {
    if (name.ends_with(ext)) return true;
    if (colon != std::string_view::npos && name.substr(0, colon).ends_with(ext)) return true;
  }
  return false;
}

}  // namespace statespace
