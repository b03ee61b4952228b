// The sliding-block model: pieces as classes of interchangeable shapes, the moves
// of each metric, goals, and positions in picture notation.
#include "puzzles/blocks.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "puzzles/blocks_picture.hpp"

namespace statespace {

using blocks_picture::piece_cells;
using blocks_picture::shape_name;

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
    if (s.cell[c] == kWall) cells[c].assign(1, '#');
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
    pic = read_picture(text, kMaxCells);
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

}  // namespace statespace
