#include "puzzles/rules.hpp"

#include <bit>
#include <map>
#include <set>
#include <utility>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "puzzles/picture.hpp"

namespace statespace {

void throw_chain_overflow(const std::string& name, int bound) {
  throw std::length_error(name + ": one chain of moves reaches more than " + std::to_string(bound) +
                          " positions, more than the successor buffers hold");
}

void throw_too_many_to_list(const std::string& name, std::size_t cells, std::uint64_t values) {
  throw UsageError(name + ": --components lists every arrangement, " + std::to_string(values) + "^" +
                   std::to_string(cells) + " of them here, more than " + std::to_string(Rules::kMaxListed) +
                   " (expected a smaller board)");
}

namespace {

// The same instance read backwards: it matches what the forward one leaves and puts
// back what that one found; the chain's cells swap.
Rules::Instance reversed(const Rules::Instance& in) {
  Rules::Instance r;
  r.rule = in.rule;
  r.mover = in.landing;
  r.landing = in.mover;
  for (const Rules::Cell& c : in.cells) {
    Rules::Cell b = c;
    if (c.put != Rules::kAny) {
      b.want = c.put;
      b.put = c.want;
    }
    r.cells.push_back(b);
  }
  return r;
}

std::vector<std::vector<Rules::Cell>> cell_sets(const std::vector<Rules::Instance>& list) {
  std::vector<std::vector<Rules::Cell>> out;
  for (const auto& in : list) out.push_back(in.cells);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

Rules::Rules(std::string name, int rows, int cols, std::string letters, State start, std::string marks,
             std::vector<Instance> forward, std::vector<std::string> rule_names, Goal goal, RuleMetric metric)
    : name_(std::move(name)),
      rows_(rows),
      cols_(cols),
      letters_(std::move(letters)),
      start_(start),
      marks_(std::move(marks)),
      forward_(std::move(forward)),
      rule_names_(std::move(rule_names)),
      goal_(std::move(goal)),
      metric_(metric) {
  for (const auto& in : forward_) backward_.push_back(reversed(in));
  directed_ = cell_sets(forward_) != cell_sets(backward_);
}

std::vector<Rules::CellMap> Rules::candidate_symmetries() const {
  const int R = rows_, C = cols_;
  std::vector<CellMap> out;
  const auto identity = [] {
    CellMap g{};
    for (int c = 0; c < kMaxCells; ++c) g[std::size_t(c)] = std::uint8_t(c);
    return g;
  };
  if (lattice_ == Lattice::kTriangular) {
    // The lattice's twelve point symmetries on axial offsets: a sixth of a turn,
    // (r, c) -> (c, c - r), and the reflection (r, c) -> (c, r); each followed by the
    // translation that takes the image's least cell (reading order) to the board's.
    std::vector<std::pair<int, int>> board;
    for (int c = 0; c < R * C; ++c) {
      if (start_.cell[std::size_t(c)] != kOutside) board.emplace_back(c / C, c % C);
    }
    if (board.empty()) return out;
    for (int turn = 0; turn < 6; ++turn) {
      for (const bool mirror : {false, true}) {
        if (turn == 0 && !mirror) continue;
        const auto move = [&](std::pair<int, int> p) {
          if (mirror) p = {p.second, p.first};
          for (int k = 0; k < turn; ++k) p = {p.second, p.second - p.first};
          return p;
        };
        std::vector<std::pair<int, int>> image;
        for (const auto& p : board) image.push_back(move(p));
        const auto least = *std::min_element(image.begin(), image.end());
        const int dr = board.front().first - least.first, dc = board.front().second - least.second;
        CellMap g = identity();
        bool onto = true;
        for (std::size_t i = 0; i < board.size() && onto; ++i) {
          const int r = image[i].first + dr, c = image[i].second + dc;
          onto = r >= 0 && c >= 0 && r < R && c < C && start_.cell[std::size_t(r * C + c)] != kOutside;
          if (onto) g[std::size_t(board[i].first * C + board[i].second)] = std::uint8_t(r * C + c);
        }
        if (onto) out.push_back(g);
      }
    }
    return out;
  }
  // The eight symmetries of a square as (row, column) -> (row, column); the four
  // that turn a quarter or reflect in a diagonal only on square boards.
  using Turn = std::pair<int, int> (*)(int, int, int, int);
  const std::array<Turn, 7> turns = {[](int r, int c, int rs, int cs) {
                                       return std::pair{rs - 1 - r, cs - 1 - c};
                                     },
                                     [](int r, int c, int, int cs) {
                                       return std::pair{r, cs - 1 - c};
                                     },
                                     [](int r, int c, int rs, int) {
                                       return std::pair{rs - 1 - r, c};
                                     },
                                     [](int r, int c, int rs, int) {
                                       return std::pair{c, rs - 1 - r};
                                     },
                                     [](int r, int c, int, int cs) {
                                       return std::pair{cs - 1 - c, r};
                                     },
                                     [](int r, int c, int, int) {
                                       return std::pair{c, r};
                                     },
                                     [](int r, int c, int rs, int cs) {
                                       return std::pair{cs - 1 - c, rs - 1 - r};
                                     }};
  for (std::size_t t = 0; t < turns.size(); ++t) {
    if (t >= 3 && R != C) continue;
    CellMap g = identity();
    for (int c = 0; c < R * C; ++c) {
      const auto [r2, c2] = turns[t](c / C, c % C, R, C);
      g[std::size_t(c)] = std::uint8_t(r2 * C + c2);
    }
    out.push_back(g);
  }
  return out;
}

int Rules::use_board_symmetry() {
  std::set<std::vector<Cell>> rules;
  for (const auto& in : forward_) rules.insert(in.cells);
  const int n = rows_ * cols_;
  symmetries_.clear();
  board_group_.clear();
  board_symmetries_ = 1;
  std::vector<CellMap> seen;
  for (const CellMap& g : candidate_symmetries()) {
    // On a board of one row or column a reflection across it moves no cell: the
    // identity again, which must not count twice.
    bool moves = false;
    for (int c = 0; c < n && !moves; ++c) moves = g[std::size_t(c)] != c;
    if (!moves || std::find(seen.begin(), seen.end(), g) != seen.end()) continue;
    seen.push_back(g);
    bool keeps = true;
    for (int c = 0; c < n && keeps; ++c) {
      const auto i = std::size_t(c), j = std::size_t(g[i]);
      keeps = (start_.cell[i] == kOutside) == (start_.cell[j] == kOutside) && marks_[i] == marks_[j] &&
              (goal_.want.empty() || goal_.want[i] == goal_.want[j]);
    }
    for (auto it = rules.begin(); it != rules.end() && keeps; ++it) {
      std::vector<Cell> image = *it;
      for (Cell& cell : image) cell.at = g[cell.at];
      std::sort(image.begin(), image.end());
      keeps = rules.contains(image);
    }
    if (!keeps) continue;
    ++board_symmetries_;
    board_group_.push_back(g);
  }
  use_stabiliser(start_);
  return board_symmetries_;
}

void Rules::use_stabiliser(const State& from) {
  const auto fixes = [&](const CellMap& g, const State& s) {
    for (int c = 0; c < cells(); ++c) {
      if (s.cell[std::size_t(g[std::size_t(c)])] != s.cell[std::size_t(c)]) return false;
    }
    return true;
  };
  symmetries_.clear();
  for (const CellMap& g : board_group_) {
    if (fixes(g, from) && (has_goal() || fixes(g, start_))) symmetries_.push_back(g);
  }
  // Positions stand as their classes' least members, the start too.
  start_ = canonical(start_);
}

void Rules::start_at(std::string_view text) {
  if (board_symmetries_ == 0) return;
  use_stabiliser(parse_cells(text));
}

std::string Rules::symmetry_group() const {
  if (board_symmetries_ == 0) return "";
  const std::string board = std::to_string(board_symmetries_);
  if (symmetries() == board_symmetries_) return "the board's " + board + " symmetries (the start is symmetric)";
  if (symmetries() == 1) return "none of the board's " + board + " symmetries but the identity fixes the start";
  return "the " + std::to_string(symmetries()) + " of the board's " + board + " symmetries that fix the start";
}

std::vector<Rules::State> Rules::unfold(const std::vector<State>& path) const {
  if (symmetries_.empty() || path.empty()) return path;
  std::vector<State> out{path.front()};
  for (std::size_t i = 1; i < path.size(); ++i) {
    // Steps of classes (a search's) or of positions (a table walk's): by class.
    const State want = canonical(path[i]);
    std::optional<State> next;
    moves_of_positions(forward_, out.back(), [&](const State& t) {
      if (!next && canonical(t) == want) next = t;
    });
    if (!next) throw std::logic_error(name_ + ": step " + std::to_string(i) + " of a path is no move's class");
    out.push_back(*next);
  }
  return out;
}

std::uint64_t Rules::orbit_size(const State& s) const {
  std::vector<State> images{s};
  for (const CellMap& g : symmetries_) {
    State t = s;
    for (std::size_t c = 0; c < std::size_t(kMaxCells); ++c) t.cell[g[c]] = s.cell[c];
    images.push_back(t);
  }
  std::sort(images.begin(), images.end());
  return std::uint64_t(std::unique(images.begin(), images.end()) - images.begin());
}

bool Rules::is_goal(const State& s) const {
  if (!goal_.want.empty()) {
    for (int c = 0; c < cells(); ++c) {
      if (goal_.want[std::size_t(c)] != kAny && s.cell[std::size_t(c)] != goal_.want[std::size_t(c)]) return false;
    }
  }
  if (goal_.pieces) {
    int n = 0;
    for (int c = 0; c < cells(); ++c) n += s.cell[std::size_t(c)] != kEmpty && s.cell[std::size_t(c)] != kOutside;
    if (n != *goal_.pieces) return false;
  }
  if (goal_.on_marks != kEmpty) {
    for (int c = 0; c < cells(); ++c) {
      if (marks_[std::size_t(c)] != ' ' && s.cell[std::size_t(c)] != goal_.on_marks) return false;
    }
  }
  return true;
}

void Rules::set_lattice(std::vector<std::uint8_t> drawn, int column_of_origin) {
  lattice_ = Lattice::kTriangular;
  drawn_ = std::move(drawn);
  column_of_origin_ = column_of_origin;
}

std::pair<int, int> Rules::cell_name(int c) const {
  const int r = c / cols_;
  if (lattice_ == Lattice::kSquare) return {r + 1, c % cols_ + 1};
  int place = 0;
  for (int k = r * cols_; k <= c; ++k) place += drawn_[std::size_t(k)] != 0;
  return {r + 1, place};
}

std::string Rules::format(const State& s) const {
  std::vector<std::string> shown;
  for (int c = 0; c < cells(); ++c) {
    const std::uint8_t v = s.cell[std::size_t(c)];
    const char ch = v == kOutside ? '#' : v == kEmpty ? '.' : v <= letters_.size() ? letters_[v - 1] : '?';
    shown.emplace_back(1, ch);
  }
  if (lattice_ == Lattice::kSquare) return join_cells(shown, row_lengths());
  // Each cell at its column in the drawing, each row shifted half a cell.
  std::string out;
  for (int r = 0; r < rows_; ++r) {
    std::string row;
    for (int c = 0; c < cols_; ++c) {
      if (!drawn_[std::size_t(r * cols_ + c)]) continue;
      const std::size_t x = std::size_t(column_of_origin_ + 2 * c - r);
      row.resize(x, ' ');
      row += shown[std::size_t(r * cols_ + c)];
    }
    out += (r ? " / " : "") + row;
  }
  return out;
}

Rules::State Rules::parse(std::string_view text) const { return canonical(parse_cells(text)); }

Rules::State Rules::parse_cells(std::string_view text) const {
  const auto fail = [&](const std::string& why) {
    throw ParseError(name_ + ": " + why + " (expected a picture like \"" + format(start_) + "\")");
  };
  Picture pic;
  if (lattice_ == Lattice::kTriangular) {
    // The drawn cells' characters in reading order, however the rows are laid out.
    std::string chars;
    for (const char ch : text) {
      if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '/') chars += ch;
    }
    const auto drawn = std::size_t(std::count(drawn_.begin(), drawn_.end(), 1));
    if (chars.size() != drawn) {
      fail("position has " + std::to_string(chars.size()) + " cells, expected " + std::to_string(drawn));
    }
    pic.rows = rows_;
    pic.cols = cols_;
    std::size_t next = 0;
    for (int c = 0; c < cells(); ++c) pic.cells.push_back(drawn_[std::size_t(c)] ? chars[next++] : '#');
  }
  try {
    if (lattice_ == Lattice::kSquare) pic = read_picture(text, kMaxCells);
  } catch (const PictureError& e) {
    fail(e.message);
  }
  if (pic.rows != rows_ || pic.cols != cols_) {
    fail("position is " + std::to_string(pic.rows) + "x" + std::to_string(pic.cols) + ", expected " +
         std::to_string(rows_) + "x" + std::to_string(cols_));
  }
  State s;
  for (int c = 0; c < cells(); ++c) {
    const char ch = pic.cells[std::size_t(c)];
    const bool outside = start_.cell[std::size_t(c)] == kOutside;
    const std::string cell = "cell " + std::to_string(cell_name(c).first) + "," + std::to_string(cell_name(c).second);
    if ((ch == '#') != outside) fail(cell + (outside ? " is off the board ('#')" : " is on the board, not '#'"));
    if (ch == '#') {
      s.cell[std::size_t(c)] = kOutside;
    } else if (is_empty_char(ch)) {
      s.cell[std::size_t(c)] = kEmpty;
    } else if (const auto k = letters_.find(ch); k != std::string::npos) {
      s.cell[std::size_t(c)] = std::uint8_t(k + 1);
    } else {
      fail(cell + ": unknown piece '" + std::string(1, ch) + "'");
    }
  }
  return s;
}

std::string Rules::move_name(const State& from, const State& to) const {
  // Whether the chain that starts with `first` can end in `to`.
  const auto chain_reaches = [&](const Instance& first) {
    std::vector<std::pair<State, std::uint8_t>> stack{{applied(first, from), first.landing}};
    std::vector<State> seen;
    while (!stack.empty()) {
      const auto [t, at] = stack.back();
      stack.pop_back();
      if (t == to) return true;
      if (at == kNone || std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
      seen.push_back(t);
      for (const Instance& in : forward_) {
        if (in.mover == at && matches(in, t)) stack.emplace_back(applied(in, t), in.landing);
      }
    }
    return false;
  };
  for (const Instance& in : forward_) {
    if (!matches(in, from)) continue;
    if (metric_ == RuleMetric::kStep ? applied(in, from) != to : !chain_reaches(in)) continue;
    const int at = in.mover != kNone ? in.mover : in.cells.front().at;
    return rule_names_[std::size_t(in.rule)] + " at " + std::to_string(cell_name(at).first) + "," +
           std::to_string(cell_name(at).second);
  }
  return "?";
}

std::optional<RulesPacking> RulesPacking::make(const Rules& model) {
  RulesPacking k;
  k.metric_ = model.metric();
  k.moves_ = model.max_moves();
  k.name_ = model.name();
  k.bits_ = std::max(1, int(std::bit_width(model.letters().size())));
  const Rules::State start = model.start();
  for (int c = 0; c < model.cells(); ++c) k.on_board_ += start.cell[std::size_t(c)] != Rules::kOutside;
  const int used = k.on_board_ * k.bits_;
  if (used > 64 || used == 0) return std::nullopt;
  // The first cell on the board in the top bits: word order is state order.
  int next = used;
  for (int c = 0; c < model.cells(); ++c) {
    const bool on = start.cell[std::size_t(c)] != Rules::kOutside;
    if (on) next -= k.bits_;
    k.field_.push_back(on ? next : -1);
    if (on) k.low_bits_ |= std::uint64_t{1} << next;
  }
  k.word_bits_ = used;
  // Masks cannot write a value into a cell of any content: such a rule runs on states.
  for (const auto& in : model.instances()) {
    for (const Rules::Cell& c : in.cells) {
      if (c.want == Rules::kAny && c.put != Rules::kAny) return std::nullopt;
    }
  }
  for (const auto& in : model.instances()) k.forward_.push_back(k.masks_of(in));
  for (const auto& in : model.reverse_instances()) k.backward_.push_back(k.masks_of(in));

  // Graded when every instance, by steps, adds the same nonzero number of pieces.
  std::optional<int> step;
  bool same = true;
  for (const auto& in : model.instances()) {
    int added = 0;
    for (const Rules::Cell& c : in.cells) {
      if (c.want == Rules::kAny || c.flip != 0) same = false;  // the count depends on the content
      const std::uint8_t after = c.put == Rules::kAny ? c.want : c.put;
      added += int(after != Rules::kEmpty) - int(c.want != Rules::kEmpty);
    }
    if (step && *step != added) same = false;
    step = added;
  }
  if (same && step && *step != 0) k.step_grade_ = *step;
  if (k.metric_ == RuleMetric::kStep) k.grade_step_ = k.step_grade_;

  const Rules::Goal& goal = model.goal_test();
  const std::uint64_t all = (std::uint64_t(1) << k.bits_) - 1;
  for (std::size_t c = 0; c < goal.want.size(); ++c) {
    if (k.field_[c] < 0 || goal.want[c] == Rules::kAny) continue;
    k.goal_care_ |= all << k.field_[c];
    k.goal_want_ |= std::uint64_t(goal.want[c]) << k.field_[c];
  }
  if (goal.on_marks != Rules::kEmpty) {
    for (std::size_t c = 0; c < k.field_.size(); ++c) {
      if (k.field_[c] < 0 || model.marks()[c] == ' ') continue;
      k.goal_care_ |= all << k.field_[c];
      k.goal_want_ |= std::uint64_t(goal.on_marks) << k.field_[c];
    }
  }
  if (goal.pieces) k.goal_pieces_ = *goal.pieces;

  // Each symmetry moves whole fields: a permutation of the word's bits, tabled a byte at a time.
  k.cell_maps_ = model.symmetry_maps();
  for (const Rules::CellMap& g : model.symmetry_maps()) {
    auto& t = k.images_.emplace_back();
    for (std::size_t c = 0; c < k.field_.size(); ++c) {
      if (k.field_[c] < 0) continue;
      for (int b = 0; b < k.bits_; ++b) {
        const int from = k.field_[c] + b, to = k.field_[g[c]] + b;
        for (std::size_t v = 0; v < 256; ++v) {
          if (v >> (from % 8) & 1) t[std::size_t(from / 8)][v] |= std::uint64_t{1} << to;
        }
      }
    }
  }
  if (k.images_.empty()) {
    k.by_top_.resize(std::size_t(std::min(kMaxGroupBits, used)) + 1);
    for (std::size_t bits = 1; bits < k.by_top_.size(); ++bits) {
      k.by_top_[bits].resize(std::size_t(1) << bits);
      for (const Masks& m : k.forward_) k.by_top_[bits][std::size_t(m.flip >> (used - int(bits)))].push_back(m);
    }
  }
  return k;
}

int RulesPacking::successors_within(std::uint64_t w, std::uint64_t* out, int bits, std::uint64_t high) const {
  if (metric_ == RuleMetric::kStep && std::size_t(bits) < by_top_.size()) {
    return steps(by_top_[std::size_t(bits)][std::size_t((w >> (word_bits_ - bits)) ^ high)], w, out);
  }
  const int n = successors(w, out);
  int k = 0;
  for (int i = 0; i < n; ++i) {
    if (out[i] >> (word_bits_ - bits) == high) out[k++] = out[i];
  }
  return k;
}

RulesPacking::Masks RulesPacking::masks_of(const Rules::Instance& in) const {
  Masks m;
  const std::uint64_t all = (std::uint64_t(1) << bits_) - 1;
  for (const Rules::Cell& c : in.cells) {
    const int at = field_[c.at];
    if (c.want != Rules::kAny) {
      m.care |= all << at;
      m.want |= std::uint64_t(c.want) << at;
      if (c.put != Rules::kAny) m.flip |= std::uint64_t(c.want ^ c.put) << at;
    } else {
      m.flip |= std::uint64_t(c.flip) << at;
    }
  }
  m.mover = in.mover;
  m.landing = in.landing;
  return m;
}

std::uint64_t RulesPacking::pack(const Rules::State& s) const {
  std::uint64_t w = 0;
  for (std::size_t c = 0; c < field_.size(); ++c) {
    if (field_[c] >= 0) w |= std::uint64_t(s.cell[c]) << field_[c];
  }
  return w;
}

Rules::State RulesPacking::unpack(std::uint64_t w) const {
  Rules::State s;
  const std::uint64_t all = (std::uint64_t(1) << bits_) - 1;
  for (std::size_t c = 0; c < field_.size(); ++c) {
    s.cell[c] = field_[c] < 0 ? Rules::kOutside : std::uint8_t(w >> field_[c] & all);
  }
  return s;
}

int RulesPacking::chains(const std::vector<Masks>& list, std::uint64_t w, std::uint64_t* out) const {
  // As Rules::moves_of: depth first over the applications that go on with the piece
  // just placed, each word once, in the order first reached.
  int n = 0;
  std::vector<std::pair<std::uint64_t, std::uint8_t>> stack;
  for (auto it = list.rbegin(); it != list.rend(); ++it) {
    if ((w & it->care) == it->want) stack.emplace_back(w ^ it->flip, it->landing);
  }
  while (!stack.empty()) {
    const auto [t, at] = stack.back();
    stack.pop_back();
    if (t == w || std::find(out, out + n, t) != out + n) continue;
    if (n == moves_) throw_chain_overflow(name_, moves_);
    out[n++] = t;
    if (at == Rules::kNone) continue;
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
      if (it->mover == at && (t & it->care) == it->want) stack.emplace_back(t ^ it->flip, it->landing);
    }
  }
  return n;
}

}  // namespace statespace
