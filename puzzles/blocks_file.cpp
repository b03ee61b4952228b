// Sliding-block puzzle files (kind = "blocks"): the start and goal pictures, the
// groups of interchangeable pieces, the axes and the moves, with every error at its
// FILE:LINE:COLUMN.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.hpp"
#include "core/notation.hpp"
#include "puzzles/blocks.hpp"
#include "puzzles/blocks_picture.hpp"
#include "puzzles/toml_input.hpp"

namespace statespace {

using blocks_picture::connected;
using blocks_picture::piece_cells;
using blocks_picture::shape_name;
using blocks_picture::shape_of;

namespace {

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
    file_.fail_in_string(*p.node, where, message);
  }

  Picture picture(const PictureNode& p) const {
    try {
      return read_picture(p.text, Blocks::kMaxCells);
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
