#include "puzzles/blocks.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <map>
#include <utility>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

namespace {

constexpr std::string_view kCellForm =
    "a letter or digit for a piece cell, '.' or '_' for an empty cell, '#' for a wall";

// A picture as one character per cell, with each cell's place in the picture's text.
struct Picture {
  int rows = 0, cols = 0;
  std::vector<char> cells;
  std::vector<std::pair<int, int>> where;  // (line, column) in the text
};

Picture read_picture(std::string_view text) {
  // Every cell becomes a string and a position below, so a picture past the
  // encoding's limit is refused at its first surplus cell, before any of that.
  std::size_t cells = 0, line_start = 0;
  int line = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c != '/' && c != ' ' && c != '\t' && c != ',' && c != '\r' && ++cells > Blocks::kMaxCells) {
      throw PictureError{line, int(i - line_start),
                         "the picture has more than " + std::to_string(Blocks::kMaxCells) +
                             " cells, too large for the state encoding (at most " + std::to_string(Blocks::kMaxCells) +
                             " cells)"};
    }
  }
  std::vector<std::vector<std::pair<int, int>>> where;
  const auto rows = Blocks::picture_rows(text, &where);
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

bool is_piece_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_empty_char(char c) { return c == '.' || c == '_'; }

// The cells of each piece letter, in reading order.
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

}  // namespace

std::string_view block_moves_name(BlockMoves m) {
  switch (m) {
    case BlockMoves::kStep:
      return "step";
    case BlockMoves::kSlide:
      return "slide";
    case BlockMoves::kPath:
      return "path";
  }
  return "step";
}

bool parse_block_moves(std::string_view text, BlockMoves& out) {
  for (const auto m : {BlockMoves::kStep, BlockMoves::kSlide, BlockMoves::kPath}) {
    if (text == block_moves_name(m)) {
      out = m;
      return true;
    }
  }
  return false;
}

void throw_bad_moves(std::string_view moves) {
  throw ParseError("unknown --moves '" + std::string(moves) + "' (expected step, slide or path)");
}

void throw_moves_not_applicable(const std::string& name) {
  throw UsageError(name + ": --moves applies to sliding-block puzzle files (kind = \"blocks\")");
}

std::vector<std::vector<std::string>> Blocks::picture_rows(std::string_view text,
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

Blocks::Blocks(std::string name, int rows, int cols, std::vector<PieceClass> classes, Mask walls, State start,
               Goal goal, BlockMoves moves)
    : name_(std::move(name)),
      rows_(rows),
      cols_(cols),
      cells_(rows * cols),
      classes_(std::move(classes)),
      walls_(walls),
      start_(start),
      goal_(std::move(goal)) {
  placements_.assign(classes_.size() * std::size_t(cells_), 0);
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    for (int a = 0; a < cells_; ++a) {
      Mask m = 0;
      bool fits = true;
      for (const auto& [dr, dc] : classes_[k].shape) {
        const int r = a / cols_ + dr, c = a % cols_ + dc;
        if (r < 0 || r >= rows_ || c < 0 || c >= cols_ || (walls_ >> (r * cols_ + c) & 1)) {
          fits = false;
          break;
        }
        m |= Mask(1) << (r * cols_ + c);
      }
      placements_[k * std::size_t(cells_) + std::size_t(a)] = fits ? m : 0;
    }
  }
  std::vector<int> neighbour(std::size_t(cells_) * 4, -1);  // [cell][direction], -1 off the board
  for (int a = 0; a < cells_; ++a) {
    const int r = a / cols_, c = a % cols_;
    if (r > 0) neighbour[a * 4 + 0] = a - cols_;
    if (c > 0) neighbour[a * 4 + 1] = a - 1;
    if (c + 1 < cols_) neighbour[a * 4 + 2] = a + 1;
    if (r + 1 < rows_) neighbour[a * 4 + 3] = a + cols_;
  }
  counts_.assign(classes_.size(), 0);
  std::array<Piece, kMaxCells> pieces;
  const int n = decompose(start_, pieces.data());
  for (int i = 0; i < n; ++i) ++counts_[pieces[i].first - 1];
  // A piece held to an axis never leaves the row (column) it starts on: its class's
  // other places are no places, for the moves, the placements (--components) and the
  // packed words alike.
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    if (classes_[k].axis == Axis::kBoth) continue;
    const bool rows = classes_[k].axis == Axis::kHorizontal;
    for (int a = 0; a < cells_; ++a) {
      bool on_line = false;
      for (int i = 0; i < n; ++i) {
        const int from = pieces[std::size_t(i)].second;
        on_line |=
            pieces[std::size_t(i)].first == k + 1 && (rows ? from / cols_ == a / cols_ : from % cols_ == a % cols_);
      }
      if (!on_line) placements_[k * std::size_t(cells_) + std::size_t(a)] = 0;
    }
  }
  step_ = {-cols_, -1, 1, cols_};
  entered_.assign(placements_.size() * 4, kBlocked);
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    const auto code = std::uint8_t(k + 1);
    for (int a = 0; a < cells_; ++a) {
      for (int d = 0; d < 4; ++d) {
        const int next = neighbour[std::size_t(a * 4 + d)];
        if (!placement(code, a) || next < 0 || !placement(code, next) || !allowed(classes_[k].axis, d)) continue;
        entered_[(k * std::size_t(cells_) + std::size_t(a)) * 4 + std::size_t(d)] =
            placement(code, next) & ~placement(code, a);
      }
    }
  }
  set_moves(moves);
}

void Blocks::set_moves(BlockMoves m) {
  moves_ = m;
  int pieces = 0;
  for (const int c : counts_) pieces += c;
  const int per_piece = m == BlockMoves::kStep    ? 4
                        : m == BlockMoves::kSlide ? 2 * (rows_ - 1) + 2 * (cols_ - 1)
                                                  : cells_ - 1;
  // A move enters at least one empty cell e. In the step and slide metrics, the cell
  // and the direction name the move (the piece and the distance: a farther piece
  // would pass through a nearer one), so there are at most 4 per empty cell. In the
  // path metric a piece P's anchor goes to a cell of P or of the empty ones, itself
  // excepted.
  int covered = 0;
  for (std::size_t k = 0; k < classes_.size(); ++k) covered += counts_[k] * int(classes_[k].shape.size());
  const int empty = cells_ - std::popcount(walls_) - covered;
  const int bound = m == BlockMoves::kPath ? covered + pieces * (empty - 1) : 4 * empty;
  max_moves_ = std::max(1, std::min(pieces * per_piece, bound));
}

std::optional<BlocksPacking> Blocks::packing(const State&) const { return BlocksPacking::make(*this); }

Blocks::State Blocks::empty_board() const {
  State s;
  for (int c = 0; c < cells_; ++c) s.cell[c] = (walls_ >> c & 1) ? kWall : kEmpty;
  return s;
}

namespace {

// Counts the placements of the pieces left (class by class, a class's pieces at
// ascending anchors) up to `limit`.
struct PlacementCounter {
  const std::vector<Blocks::Mask>& placements;
  const std::vector<int>& counts;
  int cells;
  std::uint64_t limit;
  std::uint64_t found = 0;

  void place(std::size_t cls, int left, int from, Blocks::Mask occupied) {
    if (found >= limit) return;
    if (cls == counts.size()) {
      ++found;
      return;
    }
    if (left == 0) {
      if (cls + 1 < counts.size()) {
        place(cls + 1, counts[cls + 1], 0, occupied);
      } else {
        place(cls + 1, 0, 0, occupied);
      }
      return;
    }
    for (int a = from; a < cells && found < limit; ++a) {
      const Blocks::Mask m = placements[cls * std::size_t(cells) + std::size_t(a)];
      if (m && !(m & occupied)) place(cls, left - 1, a + 1, occupied | m);
    }
  }
};

}  // namespace

std::uint64_t Blocks::count_placements(std::uint64_t limit) const {
  PlacementCounter counter{placements_, counts_, cells_, limit};
  if (!counts_.empty()) counter.place(0, counts_[0], 0, walls_);
  return counter.found;
}

bool Blocks::is_goal(const State& s) const {
  for (Mask m = goal_.empty; m; m &= m - 1) {
    if (s.cell[__builtin_ctzll(m)] != kEmpty) return false;
  }
  if (goal_.pieces.empty()) return true;
  std::array<Piece, kMaxCells> pieces;
  const int n = decompose(s, pieces.data());
  for (const auto& [code, anchor] : goal_.pieces) {
    bool found = false;
    for (int i = 0; i < n && !found; ++i) found = pieces[i].first == code && pieces[i].second == anchor;
    if (!found) return false;
  }
  return true;
}

std::string Blocks::format(const State& s) const {
  std::vector<std::string> cells(static_cast<std::size_t>(cells_), std::string(kBlank));
  std::array<Piece, kMaxCells> pieces;
  const int n = decompose(s, pieces.data());
  std::vector<std::size_t> used(classes_.size(), 0);
  for (int c = 0; c < cells_; ++c) {
    if (s.cell[c] == kWall) cells[c] = "#";
  }
  for (int i = 0; i < n; ++i) {
    const auto [code, anchor] = pieces[i];
    const auto& letters = classes_[code - 1].letters;
    const char letter = letters[std::min(used[code - 1]++, letters.size() - 1)];
    for (Mask m = placement(code, anchor); m; m &= m - 1) cells[__builtin_ctzll(m)] = std::string(1, letter);
  }
  return join_cells(cells, row_lengths());
}

Blocks::State Blocks::parse(std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw ParseError(name_ + ": " + why + " (expected a picture like \"" + format(start_) + "\")");
  };
  Picture pic;
  try {
    pic = read_picture(text);
  } catch (const PictureError& e) {
    fail(e.message);
  }
  if (pic.rows != rows_ || pic.cols != cols_) {
    fail("position is " + std::to_string(pic.rows) + "x" + std::to_string(pic.cols) + ", expected " +
         std::to_string(rows_) + "x" + std::to_string(cols_));
  }
  State s = empty_board();
  for (int c = 0; c < cells_; ++c) {
    const char ch = pic.cells[c];
    const bool wall = walls_ >> c & 1;
    if ((ch == '#') != wall) fail(std::string("cell ") + std::to_string(c + 1) + (wall ? " is a wall" : " is no wall"));
    if (!is_piece_char(ch) && !is_empty_char(ch) && ch != '0' && ch != '#') {
      fail(std::string("unknown character '") + ch + "'");
    }
  }
  std::vector<int> count(classes_.size(), 0);
  for (const auto& [letter, cells] : piece_cells(pic)) {
    if (letter == '0') continue;
    std::size_t k = 0;
    while (k < classes_.size() && classes_[k].letters.find(letter) == std::string::npos) ++k;
    if (k == classes_.size()) fail(std::string("unknown piece '") + letter + "'");
    // One letter may stand for several interchangeable pieces ("O F F _"): its cells
    // are read greedily into copies of the shape, first cells in reading order.
    std::vector<int> left = cells;
    while (!left.empty()) {
      const int anchor = left.front();
      const Mask m = placement(std::uint8_t(k + 1), anchor);
      bool whole = m != 0;
      for (Mask b = m; b && whole; b &= b - 1) {
        whole = std::find(left.begin(), left.end(), __builtin_ctzll(b)) != left.end();
      }
      if (!whole) {
        fail(std::string("piece '") + letter + "' is not its shape " + shape_name(classes_[k].shape) +
             (classes_[k].axis == Axis::kBoth ? "" : " on the line it moves along"));
      }
      std::erase_if(left, [&](int c) { return (m >> c & 1) != 0; });
      for (Mask b = m; b; b &= b - 1) s.cell[__builtin_ctzll(b)] = std::uint8_t(k + 1);
      ++count[k];
    }
  }
  for (std::size_t k = 0; k < classes_.size(); ++k) {
    if (count[k] != counts_[k]) {
      fail("'" + classes_[k].letters + "' has " + std::to_string(count[k]) + " pieces, expected " +
           std::to_string(counts_[k]));
    }
  }
  return s;
}

namespace {

// Where a picture string's text starts in the file: line and column of its first
// character (after the opening quotes and the newline a multi-line string drops).
std::pair<int, int> picture_origin(const TomlInput& file, const toml::node& node) {
  const auto& b = node.source().begin;
  const std::string& text = file.text();
  std::size_t offset = 0;
  for (unsigned line = 1; line < b.line && offset != std::string::npos; ++line) {
    offset = text.find('\n', offset);
    if (offset != std::string::npos) ++offset;
  }
  if (offset == std::string::npos) return {int(b.line), int(b.column)};
  offset += b.column - 1;
  const bool triple = text.compare(offset, 3, "\"\"\"") == 0 || text.compare(offset, 3, "'''") == 0;
  if (triple) {
    std::size_t after = offset + 3;
    if (after < text.size() && text[after] == '\r') ++after;
    if (after < text.size() && text[after] == '\n') return {int(b.line) + 1, 1};
    return {int(b.line), int(b.column) + 3};
  }
  return {int(b.line), int(b.column) + 1};
}

struct PictureNode {
  const toml::node* node = nullptr;
  std::string text;
};

PictureNode picture_node(const TomlInput& file, std::string_view key, bool required) {
  const auto text = file.string(file.root(), key, required,
                                "a picture string: rows on lines or separated by /, e.g. \"A A . / B . C\"");
  if (!text) return {};
  return {file.root().get(key), *text};
}

class BlocksLoader {
 public:
  explicit BlocksLoader(const TomlInput& file) : file_(file) {}

  Blocks load() {
    const auto& root = file_.root();
    file_.check_keys(root, {"name", "title", "kind", "start", "same", "moves", "goal", "axis"});
    const auto name = file_.string(root, "name", true, "name = \"my-puzzle\"");
    (void)file_.string(root, "title", false, "title = \"a line of text\"");
    start_ = picture_node(file_, "start", true);
    start_pic_ = picture(start_);
    const int cells = start_pic_.rows * start_pic_.cols;
    if (cells > Blocks::kMaxCells) {
      file_.fail(*start_.node, "board of " + std::to_string(start_pic_.rows) + "x" + std::to_string(start_pic_.cols) +
                                   " = " + std::to_string(cells) +
                                   " cells is too large for the state encoding (at most " +
                                   std::to_string(Blocks::kMaxCells) + " cells)");
    }
    Blocks::Mask walls = 0;
    for (int c = 0; c < cells; ++c) {
      const char ch = start_pic_.cells[c];
      if (ch == '#') walls |= Blocks::Mask(1) << c;
      if (!is_piece_char(ch) && !is_empty_char(ch) && ch != '#') {
        fail_at(start_, start_pic_.where[c],
                std::string("unknown character '") + ch + "' (expected " + std::string(kCellForm) + ")");
      }
    }
    pieces_ = piece_cells(start_pic_);
    if (pieces_.empty()) file_.fail(*start_.node, "the start has no piece (expected " + std::string(kCellForm) + ")");
    for (const auto& [letter, cells_of] : pieces_) {
      if (!connected(cells_of, start_pic_.cols)) {
        fail_at(start_, start_pic_.where[cells_of[0]],
                std::string("piece '") + letter + "' is not connected (expected its cells side by side, 4-connected)");
      }
    }
    read_same();
    make_classes();
    read_axis(walls);
    Blocks::State start{};
    for (int c = 0; c < cells; ++c) {
      const char ch = start_pic_.cells[c];
      start.cell[c] = ch == '#' ? Blocks::kWall : is_piece_char(ch) ? code_of(ch) : Blocks::kEmpty;
    }
    BlockMoves moves = BlockMoves::kStep;
    if (const auto m = file_.string(root, "moves", false, "moves = \"step\", \"slide\" or \"path\"")) {
      if (!parse_block_moves(*m, moves)) {
        file_.fail(*root.get("moves"), "unknown moves '" + *m + "' (expected \"step\", \"slide\" or \"path\")");
      }
    }
    Blocks::Goal goal = read_goal(walls);
    return Blocks(*name, start_pic_.rows, start_pic_.cols, classes_, walls, start, std::move(goal), moves);
  }

 private:
  [[noreturn]] void fail_at(const PictureNode& p, std::pair<int, int> where, const std::string& message) const {
    const auto [line, column] = picture_origin(file_, *p.node);
    toml::source_region at;
    at.begin.line = toml::source_index(line + where.first);
    at.begin.column = toml::source_index(where.first == 0 ? column + where.second : 1 + where.second);
    file_.fail(at, message);
  }

  Picture picture(const PictureNode& p) const {
    try {
      return read_picture(p.text);
    } catch (const PictureError& e) {
      fail_at(p, {e.line, e.column}, e.message);
    }
  }

  void read_same() {
    const toml::node* node = file_.root().get("same");
    if (!node) return;
    const auto* groups = node->as_array();
    if (!groups) file_.fail(*node, "'same' must be an array of strings (expected same = [\"BCDE\", \"GHIJ\"])");
    for (const auto& g : *groups) {
      const auto* s = g.as_string();
      if (!s) file_.fail(g, "a 'same' group must be a string of piece letters (expected e.g. \"BCDE\")");
      std::string letters;
      for (const char ch : s->get()) {
        if (ch == ' ' || ch == ',') continue;
        if (!pieces_.contains(ch)) {
          file_.fail(g, std::string("'same' names '") + ch + "', which is not a piece of the start picture");
        }
        if (group_of_.contains(ch)) file_.fail(g, std::string("'same' names piece '") + ch + "' twice");
        const auto shape = shape_of(pieces_[ch], start_pic_.cols);
        if (!letters.empty()) {
          const auto first = shape_of(pieces_[letters[0]], start_pic_.cols);
          if (shape != first) {
            file_.fail(g, std::string("'same' group mixes shapes: '") + letters[0] + "' is " + shape_name(first) +
                              ", '" + ch + "' is " + shape_name(shape) + " (expected pieces of one shape)");
          }
        }
        group_of_[ch] = groups_.size();
        letters += ch;
      }
      groups_.push_back(letters);
    }
  }

  // One class per `same` group and per other piece, in reading order of first cells.
  void make_classes() {
    std::vector<std::pair<int, char>> firsts;
    for (const auto& [letter, cells] : pieces_) firsts.emplace_back(cells[0], letter);
    std::sort(firsts.begin(), firsts.end());
    std::vector<bool> group_done(groups_.size(), false);
    for (const auto& [cell, letter] : firsts) {
      Blocks::PieceClass k;
      if (const auto g = group_of_.find(letter); g != group_of_.end()) {
        if (group_done[g->second]) continue;
        group_done[g->second] = true;
        k.letters = groups_[g->second];
      } else {
        k.letters = std::string(1, letter);
      }
      k.shape = shape_of(pieces_[letter], start_pic_.cols);
      classes_.push_back(std::move(k));
    }
  }

  std::uint8_t code_of(char letter) const {
    for (std::size_t k = 0; k < classes_.size(); ++k) {
      if (classes_[k].letters.find(letter) != std::string::npos) return std::uint8_t(k + 1);
    }
    return 0;
  }

  void read_axis(Blocks::Mask walls) {
    const toml::node* node = file_.root().get("axis");
    if (!node) return;
    const auto* table = node->as_table();
    if (!table) file_.fail(*node, "'axis' must be a table (expected axis = { A = \"horizontal\" })");
    std::vector<bool> set(classes_.size(), false);
    for (const auto& [key, value] : *table) {
      const std::string letter(key.str());
      if (letter.size() != 1 || !pieces_.contains(letter[0])) {
        file_.fail(key.source(), "'axis' names '" + letter + "', which is not a piece of the start picture");
      }
      const auto* v = value.as_string();
      const std::string text = v ? v->get() : "";
      if (text != "horizontal" && text != "vertical") {
        file_.fail(value, "axis of '" + letter + "' must be \"horizontal\" or \"vertical\"");
      }
      const Axis axis = text == "horizontal" ? Axis::kHorizontal : Axis::kVertical;
      const std::size_t k = code_of(letter[0]) - 1;
      if (set[k] && classes_[k].axis != axis) {
        file_.fail(value, "interchangeable pieces '" + classes_[k].letters + "' need one axis");
      }
      set[k] = true;
      classes_[k].axis = axis;
      // It must have somewhere to go along the axis on the empty board.
      const int cols = start_pic_.cols, rows = start_pic_.rows;
      const auto& cells = pieces_[letter[0]];
      bool can_move = false;
      for (const int shift : {-1, 1}) {
        bool ok = true;
        for (const int c : cells) {
          const int r = c / cols + (axis == Axis::kVertical ? shift : 0);
          const int col = c % cols + (axis == Axis::kHorizontal ? shift : 0);
          ok = ok && r >= 0 && r < rows && col >= 0 && col < cols && !(walls >> (r * cols + col) & 1);
        }
        can_move = can_move || ok;
      }
      if (!can_move) {
        file_.fail(value, "piece '" + letter + "' cannot move " + text +
                              "ly on this board (expected an axis along which it has room)");
      }
    }
  }

  Blocks::Goal read_goal(Blocks::Mask walls) {
    Blocks::Goal goal;
    const PictureNode node = picture_node(file_, "goal", false);
    if (!node.node) return goal;
    const Picture pic = picture(node);
    if (pic.rows != start_pic_.rows || pic.cols != start_pic_.cols) {
      file_.fail(*node.node, "goal picture is " + std::to_string(pic.rows) + "x" + std::to_string(pic.cols) +
                                 ", expected " + std::to_string(start_pic_.rows) + "x" +
                                 std::to_string(start_pic_.cols) + " like the start");
    }
    std::vector<std::string> shown;
    for (int c = 0; c < int(pic.cells.size()); ++c) {
      const char ch = pic.cells[c];
      const bool wall = walls >> c & 1;
      if (ch == '#' && !wall) fail_at(node, pic.where[c], "goal has a wall where the start has none");
      if (ch != '*' && ch != '#' && wall) fail_at(node, pic.where[c], "goal puts a piece or space on a wall");
      if (is_empty_char(ch)) goal.empty |= Blocks::Mask(1) << c;
      if (!is_piece_char(ch) && !is_empty_char(ch) && ch != '*' && ch != '#') {
        fail_at(node, pic.where[c],
                std::string("unknown character '") + ch + "' in the goal (expected '*' for any content, or " +
                    std::string(kCellForm) + ")");
      }
      shown.emplace_back(is_empty_char(ch) ? std::string(kBlank) : std::string(1, ch));
    }
    for (const auto& [letter, cells] : piece_cells(pic)) {
      if (!pieces_.contains(letter)) {
        fail_at(node, pic.where[cells[0]],
                std::string("goal names '") + letter + "', which is not a piece of the start picture");
      }
      const auto want = shape_of(pieces_[letter], start_pic_.cols);
      if (shape_of(cells, pic.cols) != want) {
        fail_at(node, pic.where[cells[0]],
                std::string("goal's '") + letter + "' is not the piece's shape " + shape_name(want));
      }
      goal.pieces.emplace_back(code_of(letter), cells[0]);
    }
    goal.text = join_cells(shown, std::vector<int>(pic.rows, pic.cols));
    if (goal.pieces.empty() && goal.empty == 0)
      file_.fail(*node.node, "goal requires nothing (expected a piece or '.')");
    return goal;
  }

  const TomlInput& file_;
  PictureNode start_;
  Picture start_pic_;
  std::map<char, std::vector<int>> pieces_;
  std::vector<std::string> groups_;
  std::map<char, std::size_t> group_of_;
  std::vector<Blocks::PieceClass> classes_;
};

}  // namespace

Blocks load_blocks(const TomlInput& file) { return BlocksLoader(file).load(); }

}  // namespace statespace
