// Rules files (kind = "rules"): the start picture, the static layer, the rules and
// the goal, with every error at its FILE:LINE:COLUMN. A rule's pattern and
// replacement are lines or small pictures of cells separated by spaces:
//   .      an empty cell                 *      anything, left as it is
//   O      a piece (a capital or digit)  x      a variable: any piece, the same one where
//                                               the replacement names it (lower case)
//   .|O    one of these; the replacement's .|O or O|. says what each becomes
//   #      off the board: a '#' of the start or beyond the edge ('#' in both)
//   ...    (lines only) any number of cells between two parts: the parts are placed
//          anywhere along the line
// Each rule is expanded here into its instances (Rules::Instance): every direction,
// every place on the board, every value of its variables and alternatives.
#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "core/text.hpp"
#include "puzzles/picture.hpp"
#include "puzzles/rules.hpp"
#include "puzzles/sokoban.hpp"
#include "puzzles/toml_input.hpp"
#include "puzzles/xsb_file.hpp"

namespace statespace {

namespace {

constexpr std::string_view kStartForm =
    "'#' off the board, '.' empty, a capital letter or a digit for a piece (equal characters are interchangeable)";
constexpr std::string_view kTokenForm =
    "'.' empty, '*' anything, '#' off the board, a capital letter or digit for a piece, a lower-case letter for "
    "a variable, '.|O' for alternatives, '...' between two parts of a line";
constexpr std::string_view kDirectionForm =
    "right, left, up, down, up-right, up-left, down-right, down-left, orthogonal, diagonal or all";
constexpr int kMaxVariants = 4096;      // value combinations of one rule
constexpr int kMaxInstances = 1 << 16;  // instances of all rules

bool is_piece(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_variable(char c) { return c >= 'a' && c <= 'z'; }

// One cell of a pattern or replacement as written.
struct Token {
  // kNone: a place of a lattice picture's grid that is no cell of the pattern.
  enum Kind { kEmpty, kAny, kPiece, kVariable, kAlternatives, kGap, kWall, kNone } kind = kAny;
  std::string values;  // kPiece, kVariable: one character; kAlternatives: '.' or a piece each
  std::pair<int, int> where;
};

struct Pattern {
  std::vector<std::vector<Token>> rows;
  const toml::node* node = nullptr;
  [[nodiscard]] bool line() const { return rows.size() == 1; }
};

// A direction: the picture's (row, column) offsets turned, or for lines a unit step.
struct Direction {
  std::string_view name;
  int dr, dc;  // where the pattern's "right" points
};
constexpr std::array<Direction, 8> kDirections = {{{"right", 0, 1},
                                                   {"left", 0, -1},
                                                   {"down", 1, 0},
                                                   {"up", -1, 0},
                                                   {"down-right", 1, 1},
                                                   {"down-left", 1, -1},
                                                   {"up-right", -1, 1},
                                                   {"up-left", -1, -1}}};
// The lattice's six: along the row, and half a cell left or right on the rows
// above and below (row, place along the row; see Lattice in rules.hpp).
constexpr std::array<Direction, 6> kLatticeDirections = {{{"right", 0, 1},
                                                          {"left", 0, -1},
                                                          {"down-right", 1, 1},
                                                          {"down-left", 1, 0},
                                                          {"up-right", -1, 0},
                                                          {"up-left", -1, -1}}};
constexpr std::string_view kLatticeDirectionForm = "right, left, up-right, up-left, down-right, down-left or all";

class RulesLoader {
 public:
  explicit RulesLoader(const TomlInput& file) : file_(file) {}

  Rules load() {
    const auto& root = file_.root();
    file_.check_keys(root, {"name", "title", "kind", "start", "marks", "moves", "symmetry", "goal", "rule", "wrap",
                            "lattice", "keeper", "metric"});
    const auto name = file_.string(root, "name", true, "name = \"my-puzzle\"");
    (void)file_.string(root, "title", false, "title = \"a line of text\"");
    read_lattice();
    read_start();
    read_wrap();
    read_marks();
    RuleMetric metric = RuleMetric::kStep;
    if (const auto m = file_.string(root, "moves", false, "moves = \"step\" or \"chain\"")) {
      if (*m == "chain") {
        metric = RuleMetric::kChain;
      } else if (*m != "step") {
        file_.fail(*root.get("moves"), "unknown moves '" + shown_text(*m) + "' (expected \"step\" or \"chain\")");
      }
    }
    bool symmetric = false;
    if (const auto s = file_.string(root, "symmetry", false, "symmetry = \"board\" or \"none\"")) {
      if (*s != "none" && *s != "board") {
        file_.fail(*root.get("symmetry"), "unknown symmetry '" + shown_text(*s) + "' (expected \"board\" or \"none\")");
      }
      symmetric = *s == "board";
    }
    read_rules();
    Rules::Goal goal = read_goal();
    Rules rules(*name, pic_.rows, pic_.cols, letters_, start_, marks_, std::move(instances_), std::move(rule_names_),
                std::move(goal), metric);
    if (lattice_) rules.set_lattice(drawn_, origin_);
    if (symmetric && rules.use_board_symmetry() == 1) {
      file_.fail(*root.get("symmetry"),
                 "no rotation or reflection maps the board, marks, goal and rules onto themselves (expected "
                 "symmetry = \"none\")");
    }
    return rules;
  }

  // keeper = "K": the file draws a Sokoban level, its rules must be exactly the
  // keeper's walk and push, and it becomes that level in the metric `metric` names
  // (pushes by default, as for XSB). Nothing for a file without a keeper.
  std::optional<Sokoban> keeper_level(const Rules& rules) {
    const auto& root = file_.root();
    const toml::node* metric_at = root.get("metric");
    const auto keeper = file_.string(root, "keeper", false, "keeper = \"K\" (the keeper's piece)");
    if (!keeper) {
      if (metric_at) {
        file_.fail(*metric_at, "metric needs a keeper (expected keeper = \"K\" and metric = \"pushes\" or \"moves\")");
      }
      return std::nullopt;
    }
    const toml::node& at = *root.get("keeper");
    SokobanMetric metric = SokobanMetric::kPushes;
    if (const auto m = file_.string(root, "metric", false, "metric = \"pushes\" or \"moves\"")) {
      if (*m == "moves") {
        metric = SokobanMetric::kMoves;
      } else if (*m != "pushes") {
        file_.fail(*metric_at, "unknown metric '" + shown_text(*m) + "' (expected \"pushes\" or \"moves\")");
      }
    }
    constexpr std::string_view kPlain =
        " (expected a plain Sokoban level: start, marks, keeper, goal = { on_marks = \"B\" }, a walk and a push "
        "rule)";
    for (const std::string_view key : {"wrap", "lattice"}) {
      if (const toml::node* n = root.get(key))
        file_.fail(*n, std::string(key) + " cannot go with a keeper" + std::string(kPlain));
    }
    if (rules.metric() == RuleMetric::kChain)
      file_.fail(*root.get("moves"), "moves = \"chain\" cannot go with a keeper" + std::string(kPlain));
    if (rules.symmetries() > 1)
      file_.fail(*root.get("symmetry"), "symmetry cannot go with a keeper" + std::string(kPlain));
    if (keeper->size() != 1 || !is_piece((*keeper)[0]) || letters_.find((*keeper)[0]) == std::string::npos) {
      file_.fail(at, "keeper must name one piece of the start (expected e.g. keeper = \"K\")");
    }
    if (letters_.size() != 2) {
      file_.fail(at, "a keeper level has the keeper and one kind of box, not " + std::to_string(letters_.size()) +
                         " kinds of piece (expected two piece letters, e.g. K and B)");
    }
    const auto k = std::uint8_t(letters_.find((*keeper)[0]) + 1);
    const auto b = std::uint8_t(k == 1 ? 2 : 1);
    const std::string box(1, letters_[std::size_t(b - 1)]);
    const Rules::Goal& goal = rules.goal_test();
    if (!goal.want.empty() || goal.pieces || goal.on_marks != b) {
      const toml::node* g = root.get("goal");
      file_.fail(g ? *g : at, "the goal of a keeper level is every mark under a box (expected goal = { on_marks = \"" +
                                  box + "\" })");
    }
    // Each instance must be a walk (K . -> . K) or a push (K B . -> . K B) along a row
    // or a column, and every such walk and push of the board must be there.
    const toml::array& rule_nodes = *root.get("rule")->as_array();
    const int cols = pic_.cols;
    const auto unit = [&](int from, int to) {
      const int dr = to / cols - from / cols, dc = to % cols - from % cols;
      return std::abs(dr) + std::abs(dc) == 1;
    };
    std::set<std::pair<int, int>> walks;
    std::set<std::array<int, 3>> pushes;
    const std::string form = "(expected " + std::string("'") + *keeper + " .' -> '. " + *keeper + "' and '" + *keeper +
                             " " + box + " .' -> '. " + *keeper + " " + box +
                             "', in the four directions along rows and columns)";
    for (const Rules::Instance& in : rules.instances()) {
      int from = -1, mid = -1, to = -1;
      bool ok = in.cells.size() == 2 || in.cells.size() == 3;
      for (const Rules::Cell& c : in.cells) {
        if (c.flip != 0) ok = false;
        if (c.want == k && c.put == Rules::kEmpty) {
          from = c.at;
        } else if (c.want == Rules::kEmpty && c.put == (in.cells.size() == 2 ? k : b)) {
          to = c.at;
        } else if (c.want == b && c.put == k && in.cells.size() == 3) {
          mid = c.at;
        } else {
          ok = false;
        }
      }
      ok = ok && from >= 0 && to >= 0 &&
           (in.cells.size() == 2 ? unit(from, to)
                                 : mid >= 0 && unit(from, mid) && mid - from == to - mid && unit(mid, to));
      if (!ok) {
        file_.fail(rule_nodes[std::size_t(in.rule)], "rule '" + shown_text(rules.rule_names()[std::size_t(in.rule)]) +
                                                         "' is neither the keeper's walk nor his push " + form);
      }
      if (in.cells.size() == 2) {
        walks.insert({from, to});
      } else {
        pushes.insert({from, mid, to});
      }
    }
    for (int c = 0; c < cells(); ++c) {
      if (start_.cell[std::size_t(c)] == Rules::kOutside) continue;
      const int r = c / cols, col = c % cols;
      const int dr[4] = {0, -1, 0, 1}, dc[4] = {-1, 0, 1, 0};
      for (int d = 0; d < 4; ++d) {
        if (outside(r + dr[d], col + dc[d])) continue;
        const int n = c + dr[d] * cols + dc[d];
        const std::string where = " from row " + std::to_string(r + 1) + ", column " + std::to_string(col + 1) + " ";
        if (!walks.count({c, n})) file_.fail(*root.get("rule"), "no walk" + where + form);
        if (!outside(r + 2 * dr[d], col + 2 * dc[d]) && !pushes.count({c, n, n + dr[d] * cols + dc[d]})) {
          file_.fail(*root.get("rule"), "no push" + where + form);
        }
      }
    }
    // The level in XSB, walled round where the board reaches the picture's edge.
    bool edge = false;
    for (int c = 0; c < cells(); ++c) {
      const int r = c / cols, col = c % cols;
      if (start_.cell[std::size_t(c)] != Rules::kOutside &&
          (r == 0 || col == 0 || r == pic_.rows - 1 || col == cols - 1)) {
        edge = true;
      }
    }
    const int pad = edge ? 1 : 0;
    std::string xsb;
    for (int r = -pad; r < pic_.rows + pad; ++r) {
      for (int col = -pad; col < cols + pad; ++col) {
        if (outside(r, col)) {
          xsb += '#';
          continue;
        }
        const std::size_t c = std::size_t(r * cols + col);
        const bool mark = marks_[c] != ' ';
        const std::uint8_t v = start_.cell[c];
        xsb += v == k ? (mark ? '+' : '@') : v == b ? (mark ? '*' : '$') : (mark ? '.' : '-');
      }
      xsb += '\n';
    }
    std::vector<XsbEntry> levels = read_xsb(file_.file(), xsb);
    XsbEntry& e = levels.front();
    if (!e.level) {
      // "FILE:LINE:COLUMN: level 1: why": the why, at the keeper.
      const std::string why = e.error.substr(e.error.find(": level 1: ") + 11);
      file_.fail(at, "the level drawn is not a Sokoban level: " + why);
    }
    e.level->name = *file_.string(root, "name", true, "name = \"my-puzzle\"");
    e.level->title = file_.string(root, "title", false, "title = \"a line of text\"").value_or(e.level->name);
    return Sokoban(std::move(*e.level), metric);
  }

 private:
  [[nodiscard]] int cells() const { return pic_.rows * pic_.cols; }
  [[nodiscard]] bool outside(int r, int c) const {
    return r < 0 || c < 0 || r >= pic_.rows || c >= pic_.cols ||
           start_.cell[std::size_t(r * pic_.cols + c)] == Rules::kOutside;
  }
  // (r, c) with the wrapped edges joined: a row's cells run on past its end from
  // its first, a column's past its bottom from its top.
  [[nodiscard]] std::pair<int, int> wrapped(int r, int c) const {
    if (wrap_rows_) c = ((c % pic_.cols) + pic_.cols) % pic_.cols;
    if (wrap_columns_) r = ((r % pic_.rows) + pic_.rows) % pic_.rows;
    return {r, c};
  }

  // lattice = "square" (the default) | "triangular" | "hex": the last two are one
  // lattice, six neighbours a cell, drawn alike (a triangle's holes, a hexagon's cells).
  void read_lattice() {
    const auto l = file_.string(file_.root(), "lattice", false, "lattice = \"square\", \"triangular\" or \"hex\"");
    if (!l) return;
    if (*l != "square" && *l != "triangular" && *l != "hex") {
      file_.fail(*file_.root().get("lattice"),
                 "unknown lattice '" + shown_text(*l) + "' (expected \"square\", \"triangular\" or \"hex\")");
    }
    lattice_ = *l != "square";
  }

  // wrap = "rows" | "columns" | "both": the board's rows (columns) join end to start.
  // A '#' on an edge that wraps would put a wall inside the joined line, which no
  // drawing says: refused.
  void read_wrap() {
    const auto w = file_.string(file_.root(), "wrap", false, "wrap = \"rows\", \"columns\" or \"both\"");
    if (!w) return;
    const toml::node& node = *file_.root().get("wrap");
    if (*w != "rows" && *w != "columns" && *w != "both" && *w != "none") {
      file_.fail(node, "unknown wrap '" + shown_text(*w) + "' (expected \"rows\", \"columns\", \"both\" or \"none\")");
    }
    if (lattice_ && *w != "none") {
      file_.fail(node, "wrap joins the edges of a square grid (expected lattice = \"square\", or no wrap)");
    }
    wrap_rows_ = *w == "rows" || *w == "both";
    wrap_columns_ = *w == "columns" || *w == "both";
    for (int c = 0; c < cells(); ++c) {
      if (start_.cell[std::size_t(c)] != Rules::kOutside) continue;
      const int r = c / pic_.cols, k = c % pic_.cols;
      const bool row_edge = wrap_rows_ && (k == 0 || k == pic_.cols - 1);
      const bool column_edge = wrap_columns_ && (r == 0 || r == pic_.rows - 1);
      if (row_edge || column_edge) {
        file_.fail(node, "wrap = \"" + *w + "\" joins the board's " + (row_edge ? "rows" : "columns") +
                             " end to start, but cell " + std::to_string(r + 1) + "," + std::to_string(k + 1) +
                             " on that edge is '#' (expected a board whose wrapped edges are all cells)");
      }
    }
  }

  // A lattice drawing's cells by rows: (column in the line, character, (line, column)).
  using DrawnRow = std::vector<std::tuple<int, char, std::pair<int, int>>>;
  std::vector<DrawnRow> drawn_rows(const toml::node& node, const std::string& text) const {
    std::vector<DrawnRow> rows;
    int line = 0, blank_lines = 0;
    for (std::size_t begin = 0; begin <= text.size(); ++line) {
      const std::size_t end = std::min(text.find('\n', begin), text.size());
      DrawnRow row;
      for (std::size_t i = begin; i < end; ++i) {
        const char ch = text[i];
        const std::pair<int, int> where{line, int(i - begin)};
        if (ch == '\t' || ch == '/') {
          file_.fail_in_string(node, where,
                               std::string(ch == '\t' ? "a tab" : "'/'") +
                                   " in a lattice picture (expected rows on lines, cells separated by spaces)");
        }
        if (ch != ' ' && ch != '\r') row.emplace_back(int(i - begin), ch, where);
      }
      if (row.empty()) {
        ++blank_lines;
      } else {
        if (!rows.empty() && blank_lines > 0) {
          file_.fail_in_string(node, {line - 1, 0},
                               "an empty row inside a lattice picture (expected a cell on every row)");
        }
        rows.push_back(std::move(row));
        blank_lines = 0;
      }
      begin = end + 1;
    }
    if (rows.empty()) file_.fail(node, "empty picture (expected rows of cells)");
    return rows;
  }

  // The start's drawing on a lattice fixes the grid: row r, and c = (x + r - m) / 2
  // for the cell at column x, m the least x + r; the cells of one row every other
  // column, each row's half a cell (one column) off the row above.
  Picture read_lattice_start(const toml::node& node, const std::string& text) {
    const auto rows = drawn_rows(node, text);
    int m = 1 << 20, least_x = 1 << 20, cols = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (const auto& [x, ch, where] : rows[r]) {
        m = std::min(m, x + int(r));
        least_x = std::min(least_x, x);
      }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (const auto& [x, ch, where] : rows[r]) {
        if ((x + int(r) - m) % 2 != 0) {
          file_.fail_in_string(node, where,
                               "row " + std::to_string(r + 1) +
                                   " does not fit the lattice: its cells stand half a cell off those of the rows "
                                   "around (expected the cells of a row every other column, separated by one space, "
                                   "and each row shifted one column from the row above)");
        }
        cols = std::max(cols, (x + int(r) - m) / 2 + 1);
      }
    }
    if (int(rows.size()) * cols > Rules::kMaxCells) {
      file_.fail(node, "the picture spans " + std::to_string(rows.size()) + " rows of " + std::to_string(cols) +
                           " lattice places, more than " + std::to_string(Rules::kMaxCells) +
                           " for the state encoding (expected a smaller board)");
    }
    Picture p;
    p.rows = int(rows.size());
    p.cols = cols;
    p.cells.assign(std::size_t(p.rows * cols), '#');
    p.where.assign(std::size_t(p.rows * cols), {0, 0});
    drawn_.assign(std::size_t(p.rows * cols), 0);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (const auto& [x, ch, where] : rows[r]) {
        const std::size_t at = r * std::size_t(cols) + std::size_t((x + int(r) - m) / 2);
        p.cells[at] = ch;
        p.where[at] = where;
        drawn_[at] = 1;
      }
    }
    origin_ = m - least_x;
    return p;
  }

  Picture picture(const toml::node& node, const std::string& text) const {
    if (lattice_ && !drawn_.empty()) {
      // Another picture of the board: as many cells on each row as the start's.
      const auto rows = drawn_rows(node, text);
      if (int(rows.size()) != pic_.rows) {
        file_.fail(node, "the picture has " + std::to_string(rows.size()) + " rows, expected " +
                             std::to_string(pic_.rows) + " like the start");
      }
      Picture p;
      p.rows = pic_.rows;
      p.cols = pic_.cols;
      p.cells.assign(std::size_t(cells()), '#');
      p.where.assign(std::size_t(cells()), {0, 0});
      for (int r = 0; r < pic_.rows; ++r) {
        std::size_t next = 0;
        const auto& row = rows[std::size_t(r)];
        const auto count =
            std::size_t(std::count(drawn_.begin() + r * pic_.cols, drawn_.begin() + (r + 1) * pic_.cols, 1));
        if (row.size() != count) {
          file_.fail_in_string(node, std::get<2>(row.front()),
                               "row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                                   " cells, expected " + std::to_string(count) + " like the start's");
        }
        for (int c = 0; c < pic_.cols; ++c) {
          if (!drawn_[std::size_t(r * pic_.cols + c)]) continue;
          p.cells[std::size_t(r * pic_.cols + c)] = std::get<1>(row[next]);
          p.where[std::size_t(r * pic_.cols + c)] = std::get<2>(row[next]);
          ++next;
        }
      }
      return p;
    }
    try {
      return read_picture(text, Rules::kMaxCells);
    } catch (const PictureError& e) {
      file_.fail_in_string(node, {e.line, e.column}, e.message);
    }
  }

  std::uint8_t code_of(char c) {
    const auto k = letters_.find(c);
    if (k != std::string::npos) return std::uint8_t(k + 1);
    letters_ += c;
    return std::uint8_t(letters_.size());
  }

  void read_start() {
    const auto text = file_.string(file_.root(), "start", true,
                                   "start = a picture: rows on lines or separated by /, e.g. \"O O . / # O .\"");
    start_node_ = file_.root().get("start");
    pic_ = lattice_ ? read_lattice_start(*start_node_, *text) : picture(*start_node_, *text);
    for (int c = 0; c < cells(); ++c) {
      const char ch = pic_.cells[std::size_t(c)];
      if (ch == '#') {
        start_.cell[std::size_t(c)] = Rules::kOutside;
      } else if (is_empty_char(ch)) {
        start_.cell[std::size_t(c)] = Rules::kEmpty;
      } else if (is_piece(ch)) {
        start_.cell[std::size_t(c)] = code_of(ch);
      } else if (is_variable(ch)) {
        file_.fail_in_string(*start_node_, pic_.where[std::size_t(c)],
                             std::string("'") + ch +
                                 "' is lower case: rules use lower-case letters as variables (expected " +
                                 std::string(kStartForm) + ")");
      } else {
        file_.fail_in_string(*start_node_, pic_.where[std::size_t(c)],
                             std::string("unknown character '") + ch + "' (expected " + std::string(kStartForm) + ")");
      }
    }
    marks_.assign(std::size_t(cells()), ' ');
  }

  void read_marks() {
    const auto text = file_.string(file_.root(), "marks", false,
                                   "marks = a picture like the start's: '.' for no mark, another character a mark");
    if (!text) return;
    const toml::node& node = *file_.root().get("marks");
    const Picture m = picture(node, *text);
    same_shape(m, node, "marks");
    for (int c = 0; c < cells(); ++c) {
      const char ch = m.cells[std::size_t(c)];
      if (is_empty_char(ch) || (ch == '#' && start_.cell[std::size_t(c)] == Rules::kOutside)) continue;
      if (start_.cell[std::size_t(c)] == Rules::kOutside) {
        file_.fail_in_string(node, m.where[std::size_t(c)], "a mark off the board (the start has '#' here)");
      }
      marks_[std::size_t(c)] = ch;
    }
  }

  void same_shape(const Picture& p, const toml::node& node, std::string_view what) const {
    if (p.rows != pic_.rows || p.cols != pic_.cols) {
      file_.fail(node, std::string(what) + " picture is " + std::to_string(p.rows) + "x" + std::to_string(p.cols) +
                           ", expected " + std::to_string(pic_.rows) + "x" + std::to_string(pic_.cols) +
                           " like the start");
    }
  }

  Token token(const Pattern& p, const std::string& text, std::pair<int, int> where) const {
    Token t;
    t.where = where;
    const auto bad = [&](const std::string& why) {
      file_.fail_in_string(*p.node, where, why + " (expected " + std::string(kTokenForm) + ")");
    };
    if (text == "...") {
      t.kind = Token::kGap;
    } else if (text == "#") {
      t.kind = Token::kWall;
    } else if (text == "*") {
      t.kind = Token::kAny;
    } else if (text.size() == 1 && is_empty_char(text[0])) {
      t.kind = Token::kEmpty;
    } else if (text.size() == 1 && is_piece(text[0])) {
      t.kind = Token::kPiece;
      t.values = text;
    } else if (text.size() == 1 && is_variable(text[0])) {
      t.kind = Token::kVariable;
      t.values = text;
    } else if (text.find('|') != std::string::npos) {
      t.kind = Token::kAlternatives;
      for (std::size_t i = 0; i < text.size(); i += 2) {
        const char c = text[i];
        if (!is_empty_char(c) && !is_piece(c)) bad("alternative '" + std::string(1, c) + "' is not '.' or a piece");
        if (i + 1 < text.size() && text[i + 1] != '|') bad("alternatives are single cells separated by '|'");
        if (i + 1 == text.size() - 1) bad("alternatives end with '|'");
        const char v = is_empty_char(c) ? '.' : c;
        if (t.values.find(v) != std::string::npos) bad("alternative '" + std::string(1, v) + "' given twice");
        t.values += v;
      }
    } else {
      bad("unknown cell '" + shown_text(text) + "'");
    }
    return t;
  }

  Pattern pattern(const toml::table& rule, std::string_view key) const {
    Pattern p;
    const auto text = file_.string(rule, key, true, "a line of cells like \"O O .\", or a picture");
    p.node = rule.get(key);
    std::vector<std::vector<std::pair<int, int>>> where;
    const auto rows = picture_rows(*text, &where);
    if (rows.empty()) file_.fail(*p.node, "empty pattern (expected " + std::string(kTokenForm) + ")");
    if (lattice_ && rows.size() > 1) return lattice_picture(std::move(p), rows, where);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<Token> row;
      for (std::size_t c = 0; c < rows[r].size(); ++c) row.push_back(token(p, rows[r][c], where[r][c]));
      if (row.size() != rows[0].size()) {
        file_.fail_in_string(*p.node, where[r][0],
                             "row " + std::to_string(r + 1) + " has " + std::to_string(row.size()) +
                                 " cells, expected " + std::to_string(rows[0].size()) +
                                 " (every row as long as the first)");
      }
      p.rows.push_back(std::move(row));
    }
    int gaps = 0;
    for (const auto& row : p.rows) {
      for (std::size_t c = 0; c < row.size(); ++c) {
        if (row[c].kind != Token::kGap) continue;
        if (!p.line()) file_.fail_in_string(*p.node, row[c].where, "'...' joins two parts of a line, not of a picture");
        if (c == 0 || c + 1 == row.size() || ++gaps > 1) {
          file_.fail_in_string(*p.node, row[c].where, "'...' stands once, between two parts of a line");
        }
      }
    }
    return p;
  }

  // A picture on the lattice, drawn as the board is: each row half a cell off the
  // rows around it, the cells' centres evenly spaced (a cell may be wider than one
  // character: ".|O"). Its cells go onto the board's axial grid (see Lattice in
  // rules.hpp), the places of the grid between them kNone.
  Pattern lattice_picture(Pattern p, const std::vector<std::vector<std::string>>& rows,
                          const std::vector<std::vector<std::pair<int, int>>>& where) const {
    const std::string form =
        " (expected rows on lines of their own, cells evenly spaced, each row shifted half a cell from the row "
        "above, e.g. \" .|O .|O\" over \".|O .|O .|O\")";
    // Centres in half characters.
    std::vector<std::vector<int>> x(rows.size());
    int spacing = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (r > 0 && where[r][0].first == where[r - 1][0].first) {
        file_.fail_in_string(*p.node, where[r][0], "a row of a lattice picture after '/'" + form);
      }
      for (std::size_t i = 0; i < rows[r].size(); ++i) {
        x[r].push_back(2 * where[r][i].second + int(rows[r][i].size()) - 1);
        if (i == 0) continue;
        const int d = x[r][i] - x[r][i - 1];
        if (spacing == 0) spacing = d;
        if (d != spacing) file_.fail_in_string(*p.node, where[r][i], "a cell out of step with the others" + form);
      }
    }
    if (spacing == 0) spacing = 2 * std::abs(x[1][0] - x[0][0]);
    if (spacing == 0 || spacing % 2 != 0) file_.fail(*p.node, "cells that stand on no lattice" + form);
    int least = 1 << 20;
    for (const auto& row : x) least = std::min(least, *std::min_element(row.begin(), row.end()));
    // Half-cell places h, then the axial column (h + r - m) / 2, as the start's.
    int m = 1 << 20, cols = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t i = 0; i < x[r].size(); ++i) {
        if ((x[r][i] - least) % (spacing / 2) != 0) {
          file_.fail_in_string(*p.node, where[r][i], "a cell out of step with the others" + form);
        }
        m = std::min(m, (x[r][i] - least) / (spacing / 2) + int(r));
      }
    }
    std::vector<std::vector<std::pair<int, std::size_t>>> placed(rows.size());  // (column, index in the row)
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t i = 0; i < x[r].size(); ++i) {
        const int h = (x[r][i] - least) / (spacing / 2) + int(r) - m;
        if (h % 2 != 0) {
          file_.fail_in_string(*p.node, where[r][i],
                               "row " + std::to_string(r + 1) + " stands a whole cell off the rows around it" + form);
        }
        placed[r].emplace_back(h / 2, i);
        cols = std::max(cols, h / 2 + 1);
      }
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<Token> row(static_cast<std::size_t>(cols));
      for (Token& t : row) t.kind = Token::kNone;
      for (const auto& [c, i] : placed[r]) row[std::size_t(c)] = token(p, rows[r][i], where[r][i]);
      for (const Token& t : row) {
        if (t.kind == Token::kGap)
          file_.fail_in_string(*p.node, t.where, "'...' joins two parts of a line, not of a picture");
      }
      p.rows.push_back(std::move(row));
    }
    return p;
  }

  std::vector<Direction> directions(const toml::table& rule, bool line) const {
    const auto text = file_.string(rule, "directions", false, "directions = \"orthogonal\"");
    if (lattice_) return lattice_directions(rule, text);
    if (!text) return {kDirections.begin(), kDirections.begin() + 4};
    const toml::node& node = *rule.get("directions");
    std::vector<Direction> out;
    const auto add = [&](std::size_t from, std::size_t to) {
      for (std::size_t i = from; i < to; ++i) {
        if (std::none_of(out.begin(), out.end(), [&](const Direction& d) { return d.name == kDirections[i].name; })) {
          out.push_back(kDirections[i]);
        }
      }
    };
    // Words separated by spaces or commas, each with its column for the errors.
    std::vector<std::pair<std::string, int>> words;
    for (std::size_t i = 0; i < text->size(); ++i) {
      const char c = (*text)[i];
      if (c == ' ' || c == ',' || c == '\t') continue;
      if (i == 0 || (*text)[i - 1] == ' ' || (*text)[i - 1] == ',' || (*text)[i - 1] == '\t')
        words.emplace_back("", int(i));
      words.back().first += c;
    }
    for (const auto& word : words) {
      const std::string& w = word.first;
      const std::pair<int, int> where{0, word.second};
      if (w == "orthogonal") {
        add(0, 4);
      } else if (w == "diagonal") {
        add(4, 8);
      } else if (w == "all") {
        add(0, 8);
      } else {
        const auto it =
            std::find_if(kDirections.begin(), kDirections.end(), [&](const Direction& d) { return d.name == w; });
        if (it == kDirections.end()) {
          file_.fail_in_string(
              node, where, "unknown direction '" + shown_text(w) + "' (expected " + std::string(kDirectionForm) + ")");
        }
        add(std::size_t(it - kDirections.begin()), std::size_t(it - kDirections.begin()) + 1);
      }
      if (!line && out.back().dr != 0 && out.back().dc != 0) {
        file_.fail_in_string(node, where,
                             "diagonal direction '" + shown_text(w) +
                                 "' for a picture (expected a line of cells, or right, left, up, down)");
      }
    }
    if (out.empty()) file_.fail(node, "no direction (expected " + std::string(kDirectionForm) + ")");
    return out;
  }

  // On the lattice a line runs in six directions, as (row, place) steps in axial
  // coordinates; all six by default.
  std::vector<Direction> lattice_directions(const toml::table& rule, const std::optional<std::string>& text) const {
    if (!text) return {kLatticeDirections.begin(), kLatticeDirections.end()};
    const toml::node& node = *rule.get("directions");
    std::vector<Direction> out;
    std::size_t begin = 0;
    while (begin < text->size()) {
      const std::size_t end = std::min(text->find_first_of(" ,\t", begin), text->size());
      const std::string w = text->substr(begin, end - begin);
      if (!w.empty()) {
        const auto it = std::find_if(kLatticeDirections.begin(), kLatticeDirections.end(),
                                     [&](const Direction& d) { return d.name == w; });
        if (w == "all") {
          out.assign(kLatticeDirections.begin(), kLatticeDirections.end());
        } else if (it == kLatticeDirections.end()) {
          file_.fail_in_string(node, {0, int(begin)},
                               "unknown direction '" + shown_text(w) + "' on the lattice (expected " +
                                   std::string(kLatticeDirectionForm) + ")");
        } else if (std::none_of(out.begin(), out.end(), [&](const Direction& d) { return d.name == w; })) {
          out.push_back(*it);
        }
      }
      begin = end + 1;
    }
    if (out.empty()) file_.fail(node, "no direction (expected " + std::string(kLatticeDirectionForm) + ")");
    return out;
  }

  void read_rules() {
    const toml::node* node = file_.root().get("rule");
    const auto* rules = node ? node->as_array() : nullptr;
    if (!rules || rules->empty()) {
      file_.fail(node ? *node : static_cast<const toml::node&>(file_.root()),
                 "no rule (expected [[rule]] tables with from = \"O O .\" and to = \". . O\")");
    }
    // Letters first: the pieces the rules name join the start's.
    std::vector<std::pair<Pattern, Pattern>> parsed;
    for (const auto& r : *rules) {
      const auto* rule = r.as_table();
      if (!rule) file_.fail(r, "a rule must be a table (expected [[rule]] with from and to)");
      file_.check_keys(*rule, {"name", "from", "to", "directions", "clip", "at"});
      parsed.emplace_back(pattern(*rule, "from"), pattern(*rule, "to"));
    }
    available_ = letters_;
    for (const auto& [from, to] : parsed) {
      for (const Pattern* p : {&to, &from}) {
        for (const auto& row : p->rows) {
          for (const Token& t : row) {
            for (const char c : t.values) {
              if (is_piece(c)) code_of(c);
            }
          }
        }
      }
    }
    // The pieces that can ever be on the board: the start's, and those a rule puts
    // there that can match with them, until no rule adds one.
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [from, to] : parsed) {
        bool can = true;
        for (const auto& row : from.rows) {
          for (const Token& t : row)
            can = can && (t.kind != Token::kPiece || available_.find(t.values[0]) != std::string::npos);
        }
        if (!can) continue;
        for (const auto& row : to.rows) {
          for (const Token& t : row) {
            for (const char c : t.values) {
              if (is_piece(c) && available_.find(c) == std::string::npos) {
                available_ += c;
                grew = true;
              }
            }
          }
        }
      }
    }
    for (std::size_t i = 0; i < rules->size(); ++i) {
      const auto& rule = *(*rules)[i].as_table();
      const auto rule_name = file_.string(rule, "name", false, "name = \"jump\"");
      // A rule's name is a word of solve's one-line list of moves.
      if (const auto f = rule_name ? forbidden_character(*rule_name) : std::nullopt) {
        file_.fail(*rule.get("name"), forbidden_refusal(*f, "a rule's name"));
      }
      rule_names_.push_back(rule_name.value_or("rule " + std::to_string(i + 1)));
      read_rule(rule, parsed[i].first, parsed[i].second, int(i));
    }
  }

  // The values a token may take in the pattern: codes, or every piece for a variable.
  std::vector<std::uint8_t> codes(char c) const {
    if (c == '.') return {Rules::kEmpty};
    return {std::uint8_t(letters_.find(c) + 1)};
  }

  void read_rule(const toml::table& rule, const Pattern& from, const Pattern& to, int index) {
    // Shapes and meanings, cell by cell.
    if (from.rows.size() != to.rows.size() || from.rows[0].size() != to.rows[0].size()) {
      file_.fail(*to.node, "the replacement is " + std::to_string(to.rows.size()) + "x" +
                               std::to_string(to.rows[0].size()) + " cells, the pattern " +
                               std::to_string(from.rows.size()) + "x" + std::to_string(from.rows[0].size()) +
                               " (expected the same shape)");
    }
    std::set<char> bound;
    for (const auto& row : from.rows) {
      for (const Token& t : row) {
        if (t.kind == Token::kVariable) bound.insert(t.values[0]);
        if (t.kind == Token::kPiece) {
          const char c = t.values[0];
          if (available_.find(c) == std::string::npos) {
            file_.fail_in_string(
                *from.node, t.where,
                std::string("this rule can never match: no '") + c +
                    "' is ever on the board (not in the start, and no rule that can match puts one there)");
          }
        }
      }
    }
    const std::vector<char> variables(bound.begin(), bound.end());
    bool changes = false;
    for (std::size_t r = 0; r < from.rows.size(); ++r) {
      for (std::size_t c = 0; c < from.rows[r].size(); ++c) {
        const Token& a = from.rows[r][c];
        const Token& b = to.rows[r][c];
        const auto fail = [&](const std::string& why) { file_.fail_in_string(*to.node, b.where, why); };
        if ((a.kind == Token::kGap) != (b.kind == Token::kGap)) {
          fail("'...' must stand at the same place in the pattern and the replacement");
        }
        if ((a.kind == Token::kNone) != (b.kind == Token::kNone)) {
          fail("the replacement's cells stand where the pattern's do (expected the same drawing)");
        }
        if ((a.kind == Token::kWall) != (b.kind == Token::kWall)) {
          fail("'#' (off the board) stands at the same place in the pattern and the replacement");
        }
        if (a.kind == Token::kAny && b.kind != Token::kAny) {
          fail("the pattern's '*' is left as it is (expected '*' here too)");
        }
        if (b.kind == Token::kVariable && !bound.contains(b.values[0])) {
          fail("variable '" + b.values + "' is never bound by the pattern (expected a variable the pattern names)");
        }
        if (b.kind == Token::kAlternatives && (a.kind != Token::kAlternatives || a.values.size() != b.values.size())) {
          fail("alternatives in the replacement need as many in the pattern (expected e.g. .|O becoming O|.)");
        }
        if (a.kind != Token::kGap && a.kind != Token::kAny && b.kind != Token::kAny &&
            (a.kind != b.kind || a.values != b.values)) {
          changes = true;
        }
      }
    }
    if (!changes)
      file_.fail(*to.node, "the replacement changes nothing (expected a cell that differs from the pattern)");
    const bool clip = read_clip(rule, from);
    const std::vector<Direction> dirs = directions(rule, from.line());
    const std::vector<char> at_cells = read_at(rule, from);
    bool walls = false;
    for (const auto& row : from.rows) {
      for (const Token& t : row) walls = walls || t.kind == Token::kWall;
    }

    // The pattern's cells by (row, column), a line's second part counted from the gap's end.
    struct Spot {
      int r, c;
      const Token* a;
      const Token* b;
    };
    std::vector<Spot> first, second;
    for (std::size_t r = 0; r < from.rows.size(); ++r) {
      bool after = false;
      for (std::size_t c = 0; c < from.rows[r].size(); ++c) {
        if (from.rows[r][c].kind == Token::kGap) {
          after = true;
          continue;
        }
        if (from.rows[r][c].kind == Token::kNone) continue;
        const Spot s{int(r), after ? int(second.size()) : int(c), &from.rows[r][c], &to.rows[r][c]};
        (after ? second : first).push_back(s);
      }
    }

    const std::size_t before = instances_.size();
    repeated_ = -1;
    const int k = int(letters_.size());
    const int centre_r = int(from.rows.size()) / 2, centre_c = int(from.rows[0].size()) / 2;
    // A pattern with '#' may stand partly beyond the edge: its first cell too.
    const int reach = walls && !clip ? int(std::max(from.rows.size(), from.rows[0].size())) : 0;
    for (const Direction& d : dirs) {
      // A lattice picture turns a sixth at a time, clockwise as drawn: (r, c) to
      // (c, c - r) on the axial grid takes right to down-right, down-right to
      // down-left, and so on; `turns` of them take right to d.
      int turns = 0;
      for (std::pair<int, int> v{0, 1}; v != std::pair{d.dr, d.dc} && turns < 6; ++turns) {
        v = {v.second, v.second - v.first};
      }
      // Where the pattern's (r, c) lands from the anchor: right is (r, c); the
      // others turn it (down: a quarter turn clockwise); a diagonal steps along.
      const auto offset = [&](int r, int c) -> std::pair<int, int> {
        if (lattice_ && !from.line()) {
          std::pair<int, int> v{r, c};
          for (int t = 0; t < turns; ++t) v = {v.second, v.second - v.first};
          return v;
        }
        if (d.dr != 0 && d.dc != 0) return {c * d.dr, c * d.dc};
        if (d.dc == 1) return {r, c};
        if (d.dc == -1) return {-r, -c};
        if (d.dr == 1) return {c, -r};
        return {-c, r};
      };
      const int max_gap = second.empty() ? 0 : std::max(pic_.rows, pic_.cols);
      for (int gap = 0; gap <= max_gap; ++gap) {
        for (int at = 0; at < (pic_.rows + 2 * reach) * (pic_.cols + 2 * reach); ++at) {
          const int r0 = at / (pic_.cols + 2 * reach) - reach, c0 = at % (pic_.cols + 2 * reach) - reach;
          std::vector<std::pair<int, const Spot*>> placed;  // cell, spot; -1 for a clipped cell
          bool fits = true;
          const auto place = [&](const Spot& s, int dc) {
            auto [dr, dcc] = clip ? offset(s.r - centre_r, s.c - centre_c) : offset(s.r, s.c + dc);
            const auto [r, c] = wrapped(r0 + dr, c0 + dcc);
            if (s.a->kind == Token::kWall) {
              fits = fits && outside(r, c);
              return;
            }
            if (outside(r, c)) {
              if (!clip) fits = false;
              return;
            }
            // On a wrapped board a long pattern could come round onto itself.
            for (const auto& p : placed) fits = fits && p.first != r * pic_.cols + c;
            placed.emplace_back(r * pic_.cols + c, &s);
          };
          if (clip && outside(r0, c0)) continue;
          if (!at_cells.empty()) {
            const auto [dr, dcc] = clip ? std::pair{0, 0} : offset(centre_r, centre_c);
            const auto [r, c] = wrapped(r0 + dr, c0 + dcc);
            if (outside(r, c) || !at_cells[std::size_t(r * pic_.cols + c)]) continue;
          }
          for (const Spot& s : first) place(s, 0);
          for (const Spot& s : second) place(s, int(first.size()) + gap);
          if (!fits) continue;
          add_instances(placed, variables, k, index, from);
        }
        if (second.empty()) break;
      }
    }
    if (instances_.size() == before && repeated_ >= 0) {
      file_.fail(*from.node, "this rule repeats '" + rule_names_[std::size_t(repeated_)] +
                                 "': every placement it makes, that rule makes (expected each rule once)");
    }
    if (instances_.size() == before) {
      file_.fail(*from.node, "this rule can never match: it fits nowhere on the board in any of its directions");
    }
    if (instances_.size() > std::size_t(kMaxInstances)) {
      file_.fail(*from.node, "the rules make more than " + std::to_string(kMaxInstances) +
                                 " placements on this board (expected fewer rules, directions or alternatives)");
    }
  }

  // at = a picture like the start's (a capital letter or digit where the rule's centre
  // may stand, '.' where not, '#' as in the start) or a list of cells ["1,1", "2,3"]:
  // per cell, whether the centre may stand there; empty when the rule has no `at`.
  std::vector<char> read_at(const toml::table& rule, const Pattern& from) const {
    const toml::node* node = rule.get("at");
    if (!node) return {};
    if (from.rows.size() % 2 == 0 || from.rows[0].size() % 2 == 0 ||
        (from.line() &&
         std::any_of(from.rows[0].begin(), from.rows[0].end(), [](const Token& t) { return t.kind == Token::kGap; }))) {
      file_.fail(*node,
                 "at = ... places the rule by its centre cell (expected a pattern with an odd number of rows "
                 "and columns, without '...')");
    }
    std::vector<char> out(std::size_t(cells()), 0);
    if (const auto* list = node->as_array()) {
      for (const auto& item : *list) {
        const auto* text = item.as_string();
        int r = 0, c = 0;
        const auto number = [](std::string_view v, int& out) {
          const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), out);
          return !v.empty() && error == std::errc() && end == v.data() + v.size();
        };
        const std::string_view t = text ? std::string_view(text->get()) : std::string_view();
        const auto comma = t.find(',');
        if (!text || comma == std::string_view::npos || !number(t.substr(0, comma), r) ||
            !number(t.substr(comma + 1), c)) {
          file_.fail(item, "a cell of at is \"ROW,COLUMN\", counted from 1 (expected e.g. at = [\"1,1\", \"2,3\"])");
        }
        if (lattice_ && r >= 1 && r <= pic_.rows) {
          // The c-th drawn cell of the row.
          int place = 0, at = -1;
          for (int k = 0; k < pic_.cols && at < 0; ++k) {
            if (drawn_[std::size_t((r - 1) * pic_.cols + k)] && ++place == c) at = k;
          }
          c = at + 1;
        }
        if (r < 1 || c < 1 || r > pic_.rows || c > pic_.cols || outside(r - 1, c - 1)) {
          file_.fail(item,
                     "cell " + text->get() + " is not on the board (expected a cell of the start that is not '#')");
        }
        out[std::size_t((r - 1) * pic_.cols + c - 1)] = 1;
      }
      if (list->empty()) file_.fail(*node, "at lists no cell (expected e.g. at = [\"1,1\"])");
      return out;
    }
    const auto* text = node->as_string();
    if (!text) {
      file_.fail(*node,
                 "at must be a picture or a list of cells (expected a picture like the start's, or "
                 "at = [\"1,1\", \"2,3\"])");
    }
    const Picture p = picture(*node, text->get());
    same_shape(p, *node, "at");
    bool any = false;
    for (int c = 0; c < cells(); ++c) {
      const char ch = p.cells[std::size_t(c)];
      const bool off = start_.cell[std::size_t(c)] == Rules::kOutside;
      if ((ch == '#') != off) {
        file_.fail_in_string(*node, p.where[std::size_t(c)],
                             off ? "the start has '#' here (expected '#')" : "'#' where the start has a cell");
      }
      if (ch == '#' || is_empty_char(ch)) continue;
      if (!is_piece(ch)) {
        file_.fail_in_string(*node, p.where[std::size_t(c)],
                             std::string("unknown character '") + ch +
                                 "' in at (expected a capital letter or digit where the rule's centre may stand, "
                                 "'.' where not, '#' as in the start)");
      }
      out[std::size_t(c)] = 1;
      any = true;
    }
    if (!any) file_.fail(*node, "at marks no cell (expected a capital letter or digit where the rule may apply)");
    return out;
  }

  bool read_clip(const toml::table& rule, const Pattern& from) const {
    const toml::node* node = rule.get("clip");
    if (!node) return false;
    const auto* b = node->as_boolean();
    if (!b) file_.fail(*node, "clip must be true or false (clip = true: centred on every cell, cut at the edge)");
    if (b->get() && (from.rows.size() % 2 == 0 || from.rows[0].size() % 2 == 0)) {
      file_.fail(*node,
                 "clip = true places the pattern by its centre cell (expected an odd number of rows and columns)");
    }
    return b->get();
  }

  // Every value of the variables and alternatives at one placement.
  template <class Spots>
  void add_instances(const Spots& placed, const std::vector<char>& variables, int k, int rule, const Pattern& from) {
    struct Choice {
      int index;  // into placed
      int size;
    };
    // Alternatives that take every value of a cell and turn it by one XOR (a light
    // on or off) need no expansion: the instance flips the cell whatever it holds.
    std::vector<Choice> choices;
    std::vector<std::uint8_t> flip(placed.size(), 0);
    const bool two_states = std::has_single_bit(unsigned(k + 1));
    for (std::size_t i = 0; i < placed.size(); ++i) {
      const Token& a = *placed[i].second->a;
      const Token& b = *placed[i].second->b;
      if (a.kind != Token::kAlternatives) continue;
      bool xor_all = two_states && int(a.values.size()) == k + 1 && b.kind == Token::kAlternatives;
      std::uint8_t x = 0;
      for (std::size_t v = 0; xor_all && v < a.values.size(); ++v) {
        const std::uint8_t f = codes(a.values[v])[0], t = codes(b.values[v])[0];
        if (v == 0) x = std::uint8_t(f ^ t);
        xor_all = std::uint8_t(f ^ t) == x;
      }
      if (xor_all && x != 0) {
        flip[i] = x;
      } else {
        choices.push_back({int(i), int(a.values.size())});
      }
    }
    std::uint64_t variants = 1;
    for (std::size_t v = 0; v < variables.size(); ++v) variants *= std::uint64_t(std::max(k, 1));
    for (const Choice& c : choices) variants *= std::uint64_t(c.size);
    if (variants > std::uint64_t(kMaxVariants)) {
      file_.fail(*from.node, "this rule has " + std::to_string(variants) +
                                 " combinations of variables and alternatives "
                                 "(expected at most " +
                                 std::to_string(kMaxVariants) + ")");
    }
    if (k == 0 && !variables.empty()) return;
    for (std::uint64_t v = 0; v < variants; ++v) {
      std::uint64_t left = v;
      std::map<char, std::uint8_t> value;
      for (const char var : variables) {
        value[var] = std::uint8_t(1 + left % std::uint64_t(k));
        left /= std::uint64_t(k);
      }
      std::vector<int> pick(placed.size(), 0);
      for (const Choice& c : choices) {
        pick[std::size_t(c.index)] = int(left % std::uint64_t(c.size));
        left /= std::uint64_t(c.size);
      }
      Rules::Instance in;
      in.rule = rule;
      bool changes = false;
      for (std::size_t i = 0; i < placed.size(); ++i) {
        const Token& a = *placed[i].second->a;
        const Token& b = *placed[i].second->b;
        Rules::Cell cell;
        cell.at = std::uint8_t(placed[i].first);
        const auto read = [&](const Token& t, std::uint8_t& out) {
          switch (t.kind) {
            case Token::kEmpty:
              out = Rules::kEmpty;
              break;
            case Token::kPiece:
              out = codes(t.values[0])[0];
              break;
            case Token::kVariable:
              out = value[t.values[0]];
              break;
            case Token::kAlternatives:
              out = codes(t.values[std::size_t(pick[i])])[0];
              break;
            default:
              out = Rules::kAny;
          }
        };
        if (flip[i]) {
          cell.flip = flip[i];
        } else {
          read(a, cell.want);
          read(b, cell.put);
          if (cell.want == Rules::kAny && cell.put == Rules::kAny) continue;
          if (cell.put == cell.want) cell.put = Rules::kAny;
        }
        changes = changes || cell.put != Rules::kAny || cell.flip != 0;
        in.cells.push_back(cell);
      }
      if (!changes) continue;
      // The chain's cells, in the pattern's order: the first a piece leaves, the first
      // a piece arrives at.
      for (std::size_t i = 0; i < placed.size(); ++i) {
        const auto it = std::find_if(in.cells.begin(), in.cells.end(),
                                     [&](const Rules::Cell& c) { return c.at == placed[i].first; });
        if (it == in.cells.end() || it->put == Rules::kAny) continue;
        if (in.mover == Rules::kNone && it->want != Rules::kAny && it->want != Rules::kEmpty) in.mover = it->at;
        if (in.landing == Rules::kNone && it->put != Rules::kEmpty) in.landing = it->at;
      }
      std::sort(in.cells.begin(), in.cells.end());
      const auto [it, added] = seen_.emplace(in.cells, rule);
      if (added) {
        instances_.push_back(std::move(in));
      } else if (repeated_ < 0) {
        repeated_ = it->second;
      }
    }
  }

  Rules::Goal read_goal() {
    Rules::Goal goal;
    const toml::node* node = file_.root().get("goal");
    if (!node) return goal;
    const toml::node* picture_at = nullptr;
    if (node->is_string()) {
      picture_at = node;
    } else if (const auto* t = node->as_table()) {
      file_.check_keys(*t, {"picture", "pieces", "on_marks"});
      picture_at = t->get("picture");
      if (const toml::node* p = t->get("pieces")) {
        const auto* n = p->as_integer();
        if (!n || n->get() < 0 || n->get() > Rules::kMaxCells) {
          file_.fail(*p, "pieces must be a whole number from 0 to 64 (expected e.g. pieces = 1)");
        }
        goal.pieces = int(n->get());
        goal.text = std::to_string(*goal.pieces) + (*goal.pieces == 1 ? " piece" : " pieces");
      }
      if (const toml::node* m = t->get("on_marks")) {
        const auto* s = m->as_string();
        if (!s || s->get().size() != 1 || letters_.find(s->get()[0]) == std::string::npos) {
          file_.fail(*m, "on_marks must name one piece of the puzzle (expected e.g. on_marks = \"B\")");
        }
        if (std::count(marks_.begin(), marks_.end(), ' ') == std::ptrdiff_t(marks_.size())) {
          file_.fail(*m, "on_marks needs marks (expected a marks picture)");
        }
        goal.on_marks = std::uint8_t(letters_.find(s->get()[0]) + 1);
        goal.text += std::string(goal.text.empty() ? "" : ", ") + "every mark under " + s->get();
      }
    } else {
      file_.fail(*node, "goal must be a picture or a table (expected goal = \"...\" or goal = { pieces = 1 })");
    }
    if (picture_at) {
      const auto* s = picture_at->as_string();
      if (!s) file_.fail(*picture_at, "the goal picture must be a string (expected a picture like the start)");
      const Picture p = picture(*picture_at, s->get());
      same_shape(p, *picture_at, "goal");
      goal.want.assign(std::size_t(cells()), Rules::kAny);
      std::vector<std::string> shown;
      bool any = false;
      for (int c = 0; c < cells(); ++c) {
        const char ch = p.cells[std::size_t(c)];
        const bool off = start_.cell[std::size_t(c)] == Rules::kOutside;
        const auto where = p.where[std::size_t(c)];
        if ((ch == '#') != off) {
          file_.fail_in_string(*picture_at, where,
                               off ? "the start has '#' here (expected '#')" : "'#' where the start has a cell");
        }
        if (ch == '#' || ch == '*') {
          shown.emplace_back(1, ch);
          continue;
        }
        if (is_empty_char(ch)) {
          goal.want[std::size_t(c)] = Rules::kEmpty;
        } else if (is_piece(ch) && letters_.find(ch) != std::string::npos) {
          goal.want[std::size_t(c)] = std::uint8_t(letters_.find(ch) + 1);
        } else {
          file_.fail_in_string(*picture_at, where,
                               std::string("unknown character '") + ch + "' in the goal (expected '*' for anything, " +
                                   std::string(kStartForm) + ")");
        }
        any = true;
        shown.emplace_back(1, is_empty_char(ch) ? '.' : ch);
      }
      if (!any) file_.fail(*picture_at, "the goal picture requires nothing (expected a piece or '.')");
      const std::string text = join_cells(shown, std::vector<int>(std::size_t(pic_.rows), pic_.cols));
      goal.text = goal.text.empty() ? text : text + ", " + goal.text;
    }
    if (goal.empty()) file_.fail(*node, "the goal requires nothing (expected a picture, pieces or on_marks)");
    return goal;
  }

  const TomlInput& file_;
  const toml::node* start_node_ = nullptr;
  Picture pic_;
  Rules::State start_{};
  std::string letters_;
  std::string available_;  // the pieces that can ever be on the board
  std::string marks_;
  bool wrap_rows_ = false, wrap_columns_ = false;
  bool lattice_ = false;             // the triangular lattice
  std::vector<std::uint8_t> drawn_;  // lattice: per cell, whether the start draws it
  int origin_ = 0;                   // lattice: the drawing's column of cell (0, 0)
  std::vector<Rules::Instance> instances_;
  std::map<std::vector<Rules::Cell>, int> seen_;  // each placement, and the rule that made it first
  int repeated_ = -1;                             // the earlier rule whose placement the rule being read made again
  std::vector<std::string> rule_names_;
};

}  // namespace

std::variant<Rules, Sokoban> load_rules(const TomlInput& file) {
  RulesLoader loader(file);
  Rules rules = loader.load();
  if (auto level = loader.keeper_level(rules)) return std::move(*level);
  return rules;
}

}  // namespace statespace
